#!/bin/bash
# Call D (2026-11-30): CUDA native correctness again (launch bounds), the CUDA
# benchmark over every native variant, then the side-by-side harness (1D F32
# and the thesis set) on cuFFT, VkFFT, the copy and fftmux's GPU backends.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
suite() { # backend variant shards
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 200 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$1$2_$i.log 2>&1 &
  done
}
suite cuda native 8; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-600)"; done | tee $R/correctness.txt
timeout 200 $B/cuda_bench --all-variants --repeats 11 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
pack d
E='cufft,vkfft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/cufft,fftmux:cuda/native'
timeout 330 $B/fftmux_bench --class gpu --engines "$E" --set 1d,thesis --precision f32 --repeats 11 --phase-budget 0.1 --budget 290 --out $R/gpu-1d > $R/gpu-1d.log 2>&1; echo "1d rc=$?"
pack d
tail -c 2500 $R/gpu-1d.log
