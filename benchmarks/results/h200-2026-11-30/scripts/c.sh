#!/bin/bash
# Call C (2026-11-30): the correctness matrix on every GPU backend (generator
# v4: stage twiddle tables, flat loads of short lines, two-pass variant), then
# the CUDA benchmark over every native variant and the Vulkan 1D benchmark.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $R/gpu.txt
$B/fftmux backends | tee $R/backends.txt
suite() { # backend variant shards
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 200 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$1$2_$i.log 2>&1 &
  done
}
t0=$(date +%s)
suite vulkan "" 3; suite opengl "" 3; suite cuda native 5; suite cuda cufft 3
wait
echo "correctness took $(( $(date +%s) - t0 )) s"
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-600)"; done | tee $R/correctness.txt
pack c
timeout 330 $B/cuda_bench --all-variants --repeats 15 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
pack c
timeout 100 $B/vulkan_bench --only 1d --repeat 10 --csv $R/vulkan_1d.csv > $R/vulkan_1d.txt 2>&1; echo "vulkan_bench rc=$?"
pack c
tail -c 5000 $R/cuda_bench.txt; tail -c 2000 $R/vulkan_1d.txt
