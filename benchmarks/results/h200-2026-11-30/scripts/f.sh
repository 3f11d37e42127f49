#!/bin/bash
# Call F (2026-11-30): the final code: CUDA native correctness, the CUDA
# benchmark over every native variant, the thesis set side by side, and the
# OpenGL per-call latency under the driver's yield settings.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
suite() { # backend variant shards
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 200 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$1$2_$i.log 2>&1 &
  done
}
suite cuda native 8; suite vulkan "" 4; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv,noheader | tee -a $R/clocks.txt
timeout 200 $B/cuda_bench --all-variants --repeats 11 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv,noheader | tee -a $R/clocks.txt
pack f
for y in default NOTHING USLEEP; do for s in 128,128 1024,1024; do
  echo "opengl $s yield=$y: $( ( [ $y = default ] || export __GL_YIELD=$y; $B/fftmux run --backend opengl --shape $s --placement device --repeat 200 --warmup 5 2>&1 | grep -E 'execute|fftmux' ) )"
done; done | tee $R/gl_yield.txt
E='cufft,vkfft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 60 $B/fftmux_bench --class gpu --engines "$E" --set thesis --precision f32 --repeats 11 --phase-budget 0.1 --out $R/gpu-thesis > $R/gpu-thesis.log 2>&1; echo "thesis rc=$?"
pack f
tail -c 1500 $R/gpu-thesis.log
