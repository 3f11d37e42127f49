#!/bin/bash
# Call L (2026-11-30, second session): a lone Bluestein line on the most
# threads among those with the fewest rounds (10007: 1024): CUDA native
# correctness, then the benchmark on 10007 over every native variant.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=cuda FFTMUX_TEST_VARIANT=native \
    timeout 100 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
rm -f $R/corr_*.log
timeout 100 $B/cuda_bench --all-variants --repeats 9 --match "10007 x" --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
pack l
cut -c1-150 $R/cuda_bench.txt
