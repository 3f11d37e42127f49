#!/bin/bash
# Call 6 (2026-12-01g): the one-line kernels that radix 32 from 512 points
# (FFTMUX_TMP_R32=512, uncommitted hook) also changes, GL, against v15.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 1024 512 1536; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) gl-r32 $(FFTMUX_TMP_R32=512 one $n $b default opengl)" | tee -a $R/g6_times.txt
  pack c6
done
