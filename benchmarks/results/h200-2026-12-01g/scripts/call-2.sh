#!/bin/bash
# Call 2 (2026-12-01g): GL short lines without the flat load/store
# (FFTMUX_TMP_NOFLAT, uncommitted hook: lines of 1-15 threads load in the
# stage layout, so 8 and 16 points need no shared memory), with the refined
# VPT hook (several lines a group of under 32 threads each); then GL against
# Vulkan at the pow2 sizes not compared since v14.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 8 16 128 32 64; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) gl-noflat $(FFTMUX_TMP_NOFLAT=1 one $n $b default opengl) gl-vpt-noflat $(FFTMUX_TMP_VPT=1 FFTMUX_TMP_NOFLAT=1 one $n $b default opengl)" | tee -a $R/g2_times.txt
  pack c2a
done
for n in 32768 131072 262144 524288 2097152 8388608; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) vk $(one $n $b default vulkan)" | tee -a $R/g2_times.txt
  pack c2b
done
echo "t=$(( $(date +%s) - T0 ))"
pack c2
