#!/bin/bash
# Call 4 (OpenGL radix 16 commit): 4096^2 F32 and F64 on every engine (Vulkan
# now a strided chain); cuda_bench with the radix-32 default.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
for p in f32 f64; do
  timeout 60 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:cuda/native,fftmux:opengl' --set shapes --shapes 4096x4096 --precision $p --repeats 9 --phase-budget 0.05 --budget 50 --gpu-warmup 0.3 $P --out $R/sq_$p > $R/sq_$p.log 2>&1; echo "sq $p rc=$?"
  grep -hE ",(forward|copy)," $R/sq_$p/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort
done
pack c8
timeout 200 $B/cuda_bench --warmup 0.3 --repeats 9 --json $R/cuda.json > $R/cuda.txt 2>&1; echo "cuda rc=$?"
grep -E "native |fused|cufft " $R/cuda.txt | awk '{$1=$1};1' | cut -c1-150 | head -90
pack c8
