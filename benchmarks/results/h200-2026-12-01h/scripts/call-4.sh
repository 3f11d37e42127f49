#!/bin/bash
# Call 4 (2026-12-01h): a group's values at most a quarter of a 64K-register
# file (FX_Q=1; half before): Vulkan and CUDA large pow2 sizes and F64,
# timed with and without; correctness matrices of vulkan and cuda/native
# with it.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for c in "1048576 native cuda f32" "2097152 native cuda f32" "16777216 native cuda f32" "1048576 native cuda f64" "1048576 default vulkan f32" "131072 default vulkan f64" "1048576 cufft cuda f64" "131072 cufft cuda f64"; do set -- $c
  b=$(( (1<<27) / $1 ))
  x=$(one $1 $b $2 $3 --precision $4); q=$( (export FX_Q=1; one $1 $b $2 $3 --precision $4) )
  echo "$1 $4 $3/$2 half $x quarter $q" | tee -a $R/h4_times.txt
done
pack c4
export FX_Q=1
for be in "vulkan default" "cuda native"; do set -- $be
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/h4_c_$1_$i.log 2>&1 &
done; wait
for f in $R/h4_c_$1_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee -a $R/h4_correctness.txt
grep -h "FAILED  \]" $R/h4_c_$1_*.log | head -10 | tee -a $R/h4_correctness.txt
done
pack c4
