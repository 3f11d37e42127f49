#!/bin/bash
# Call 1 (2026-12-01c): generator v10, composite radices (10, 15, 20, 24, 25,
# 27 in registers) against prime-radices (v9's factorization) on the odd
# lines, CUDA and Vulkan; pow2 sanity rows (radix 32 is now the generic
# composite 16 x 2); the correctness matrix on cuda/native and vulkan.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
M="c2c f32 1000 x|c2c f32 1536 x|c2c f32 2187 x|c2c f32 2401 x|c2c f32 3125 x|c2c f32 6000 x|c2c f32 1024 x|c2c f32 8192 x|c2c f32 1048576 x"
timeout 200 $B/cuda_bench --variants native-prime-radices,native-narrow,native-wide --repeats 9 --warmup 0.3 --match "$M" > $R/cuda.txt 2>&1; echo "cuda_bench rc=$?"
grep -E "^(1d|2d)" $R/cuda.txt | grep -v shift | sed 's/  */ /g' | awk '{n=$4; e=""; for(i=6;i<=NF;i++){if($i ~ /^[0-9.]+$/ && $(i+1)=="ms"){ms=$i; break}; e=e $i " "} print n, e, ms}'
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 150 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan/default,fftmux:vulkan/prime-radices,fftmux:vulkan/radix16' --variants all --set 1d --shapes 1000,1536,2187,3125,6000,8192 --precision f32 --repeats 9 --phase-budget 0.05 --budget 140 --gpu-warmup 0.3 $P --out $R/vk > $R/vk.log 2>&1; echo "vk rc=$?"
grep -hE ",(forward|copy)," $R/vk/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3
for b in cuda vulkan; do for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$b FFTMUX_TEST_VARIANT=$([ $b = cuda ] && echo native || echo default) \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_${b}_$i.log 2>&1 &
done; done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -10
# The drivers' compiled code of a few kernels (pipeline cache, GL program
# binaries), to look for its register use and local memory at home.
for be in vulkan opengl; do for n in 1024 4096 8192; do
  XDG_CACHE_HOME=/tmp/kc_$be timeout 60 $B/fftmux run --shape $n --batch 64 --placement device --backend $be --repeat 3 --warmup 1 2>&1 | tail -2
done; done
cp -r /tmp/kc_vulkan /tmp/kc_opengl $R/ 2>/dev/null; du -sh $R/kc_* 2>/dev/null
pack c1
