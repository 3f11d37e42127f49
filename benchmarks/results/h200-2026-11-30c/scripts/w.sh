#!/bin/bash
# Call W (2026-11-30, third session): the final code: vulkan correctness and
# Vulkan plan creation with shared table buffers and lazily emitted sources.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=vulkan \
    timeout 100 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
rm -f $R/corr_*.log
pack w
timeout 90 $B/fftmux_bench --class gpu --engines 'fftmux:vulkan' --set 1d --shapes 256,4096,16384,65536,1048576,10007 --precision f32 --repeats 3 --phase-budget 0.03 --budget 70 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/plans > $R/plans.log 2>&1; echo "plans rc=$?"
pack w
grep -E ",plan_(cold|warm)," $R/plans/bench.csv | awk -F, '{printf "%s %s %s %.2f ms\n", $7, $12, $14, $17*1000}'
