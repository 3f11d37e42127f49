#!/bin/bash
# Call 6 (2026-12-01f): the lean rule extended to groups of several lines
# (split, and fewer lines while that fits more threads an SM); against the
# committed rule (FFTMUX_TMP_LEAN_TEAMS=1, an uncommitted hook), GL only.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 40 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for nb in 1048576:128 65536:2048 512:262144 10007:13412 64:2097152 16777216:8; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 gl $(one $n $b default opengl) gl-committed $(FFTMUX_TMP_LEAN_TEAMS=1 one $n $b default opengl)" | tee -a $R/teams.txt
  pack c6
done
s2() { timeout 40 $B/fftmux run --shape 1024x1024 --batch 1 --placement device --backend opengl --repeat 300 --warmup 50 2>&1 | grep execute | awk '{print $2}'; }
echo "1024x1024 x1 gl $(s2) gl-committed $(FFTMUX_TMP_LEAN_TEAMS=1 s2)" | tee -a $R/teams.txt
pack c6
