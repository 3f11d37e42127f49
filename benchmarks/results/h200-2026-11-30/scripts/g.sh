#!/bin/bash
# Call G (2026-11-30): final CUDA code (64-invocation default, register-bound
# one-pass limit): correctness of cuda/native, then cuda_bench.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for i in $(seq 0 11); do
  GTEST_TOTAL_SHARDS=12 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=cuda FFTMUX_TEST_VARIANT=native \
    timeout 60 $B/fftmux_correctness --gtest_brief=1 > $OUT/corr_$i.log 2>&1 &
done; wait
for f in $OUT/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $OUT/correctness.txt
rm -f $OUT/corr_*.log
timeout 140 $B/cuda_bench --all-variants --repeats 9 --json $OUT/cuda_bench.json > $OUT/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
grep -c ok $OUT/cuda_bench.txt
