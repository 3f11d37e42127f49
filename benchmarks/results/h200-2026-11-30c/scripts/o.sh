#!/bin/bash
# Call O (2026-11-30, third session): generator v6 (8192-point lines on 256
# threads), shared generation and lazy tables: CUDA native correctness, the
# CUDA variants at 8192 / r2c 16384, plan creation cold and warm on every GPU
# backend.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $R/clocks.txt
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=cuda FFTMUX_TEST_VARIANT=native \
    timeout 100 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
rm -f $R/corr_*.log
pack o
timeout 60 $B/cuda_bench --all-variants --repeats 9 --match "c2c f32 8192 x" --json $R/cuda_8192.json > $R/cuda_8192.txt 2>&1; echo "rc=$?"
timeout 60 $B/cuda_bench --all-variants --repeats 9 --match "r2c f32 16384 x" --json $R/cuda_r2c16384.json > $R/cuda_r2c16384.txt 2>&1; echo "rc=$?"
grep -E "native  |cuFFT direct|native-wide" $R/cuda_8192.txt $R/cuda_r2c16384.txt | cut -c1-160
pack o
E='cufft,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 200 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes 256,4096,8192,16384,65536,1048576,4097,10007 --precision f32 --repeats 5 --phase-budget 0.05 --budget 170 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/plans > $R/plans.log 2>&1; echo "plans rc=$?"
pack o
grep -E ",plan_(cold|warm)," $R/plans/bench.csv | awk -F, '{printf "%s %s %s %.2f ms\n", $7, $12, $14, $17*1000}'
