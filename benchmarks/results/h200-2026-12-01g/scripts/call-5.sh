#!/bin/bash
# Call 5 (2026-12-01g): GL radix 32 from 512 points (FFTMUX_TMP_R32=512, an
# uncommitted hook on codegen::dialect_limits; default 2048) at the pow2
# sizes whose passes run 512- and 1024-point lines, against v15's default.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 262144 524288 131072 1048576; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) gl-r32 $(FFTMUX_TMP_R32=512 one $n $b default opengl)" | tee -a $R/g5_times.txt
  pack c5
done
echo "t=$(( $(date +%s) - T0 ))"
pack c5
