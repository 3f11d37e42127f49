#!/bin/bash
# Call J (2026-11-30, second session): generator v5 as committed (staggered
# line pitch instead of the XOR swizzle, lone Bluestein lines on every
# thread): correctness on the three GPU backends, the CUDA benchmark, the 1D
# set on Vulkan and OpenGL, per-call latency of the thesis sizes.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
clk() { nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader | tee -a $R/clocks.txt; }
suite() { # backend variant shards
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$1$2_$i.log 2>&1 &
  done
}
suite cuda native 6; suite vulkan "" 5; suite opengl "" 5; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -20
rm -f $R/corr_*.log; pack j
clk
timeout 150 $B/cuda_bench --all-variants --repeats 9 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
clk; pack j
for b in vulkan opengl cuda; do for s in 128x128 1024x1024; do
  echo "$b $s: $($B/fftmux run --backend $b --shape $s --placement device --repeat 200 --warmup 5 2>&1 | grep -E '^execute' )"
done; done | tee $R/latency.txt
pack j
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl'
timeout 200 $B/fftmux_bench --class gpu --engines "$E" --set 1d --precision f32 --repeats 11 --phase-budget 0.1 --budget 170 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-1d > $R/gpu-1d.log 2>&1; echo "1d rc=$?"
pack j
grep -E "native  |cuFFT direct" $R/cuda_bench.txt | cut -c1-150 | head -70 | tail -c 2500
