#!/bin/bash
# Call H (2026-11-30, second session): generator v5 (thread counts that keep
# every stage busy, radix 9, swizzled shared memory for short lines, GLSL
# barriers without a device-scope memory barrier): correctness on the three
# GPU backends, then the CUDA benchmark over every native variant.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
clk() { nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader | tee -a $R/clocks.txt; }
suite() { # backend variant shards
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 170 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$1$2_$i.log 2>&1 &
  done
}
suite cuda native 6; suite vulkan "" 5; suite opengl "" 5; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -20
pack h
clk
timeout 230 $B/cuda_bench --all-variants --repeats 9 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
clk; pack h
grep -E "native  |cuFFT direct" $R/cuda_bench.txt | cut -c1-150 | tail -c 3000
