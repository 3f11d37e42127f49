#!/bin/bash
# Call K (2026-11-30, second session): the final code (Bluestein convolutions
# in one kernel without radix 9): CUDA native correctness, the CUDA benchmark,
# the thesis set side by side.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=cuda FFTMUX_TEST_VARIANT=native \
    timeout 100 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
rm -f $R/corr_*.log
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv,noheader | tee -a $R/clocks.txt
timeout 200 $B/cuda_bench --all-variants --repeats 9 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
pack k
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 60 $B/fftmux_bench --class gpu --engines "$E" --set thesis --precision f32 --repeats 11 --phase-budget 0.1 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-thesis > $R/gpu-thesis.log 2>&1; echo "thesis rc=$?"
pack k
grep -E "(10007|4097|4093) x.*(native  |cuFFT direct)" $R/cuda_bench.txt | cut -c1-150
