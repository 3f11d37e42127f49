#!/bin/bash
# Call 1: radix32 against the default on Vulkan and CUDA native over the
# pow2 lines and 2D 1024^2, beside cuFFT and the copy; then per-pass times.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
E='cufft,cudaMemcpy,fftmux:vulkan/default,fftmux:vulkan/radix32,fftmux:cuda/native,fftmux:cuda/native-radix32'
timeout 450 $B/fftmux_bench --class gpu --engines "$E" --variants all --set 1d,shapes --shapes 32,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,1048576,4194304,1024x1024 --precision f32 --repeats 9 --phase-budget 0.05 --budget 420 --gpu-warmup 0.3 $P --out $R/r32 > $R/r32.log 2>&1; echo "rc=$?"
grep -hE ",(forward|copy)," $R/r32/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k2,2
tail -5 $R/r32.log
pack c5
