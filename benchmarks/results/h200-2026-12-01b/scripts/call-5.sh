#!/bin/bash
# Call 5 (2026-12-01b): the split rule for strided passes (interleaved_split):
# correctness of cuda/native and vulkan; cuda_bench against the old rule
# (x-old) on the problems whose kernels changed; Vulkan the same.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for b in cuda vulkan; do for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$b FFTMUX_TEST_VARIANT=$([ $b = cuda ] && echo native || echo default) \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_${b}_$i.log 2>&1 &
done; done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -10
M="c2c f32 32768 x|c2c f32 65536 x|c2c f32 131072 x|c2c f32 262144 x|c2c f32 1048576 x|c2c f32 1024x1024 x|c2c f32 4096x4096 x|x256x256 x|x512x512 x|f64 1024x1024|r2c f32 4096x4096"
timeout 150 $B/cuda_bench --variants x-old --repeats 9 --warmup 0.3 --match "$M" > $R/cuda.txt 2>&1; echo "cuda_bench rc=$?"
grep -E "^(1d|2d|3d|f64|r2c)" $R/cuda.txt | sed 's/  */ /g' | cut -c1-90
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 200 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/default,fftmux:vulkan/x-old' --variants all --set 1d,shapes --shapes 65536,131072,256x256,4096x4096,64x64x64,256x256x256 --precision f32 --repeats 9 --phase-budget 0.05 --budget 190 --gpu-warmup 0.3 $P --out $R/vk > $R/vk.log 2>&1; echo "vk rc=$?"
grep -hE ",(forward|copy)," $R/vk/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -k1,1 -k3,3n
pack c5
