#!/bin/bash
# Call 1 (2026-11-30 session): generator v7 (four-step twiddles one run a
# team) on the long 1D lines; narrow-strides variants (2 and 4 lines a
# strided group: two passes to 2^24 on 48 KiB) beside the default; CUDA
# native's variants on the same sizes.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
S=16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:vulkan/narrow-strides,fftmux:vulkan/narrowest-strides,fftmux:opengl'
timeout 290 $B/fftmux_bench --class gpu --engines "$E" --variants all --set 1d --shapes $S --precision f32 --repeats 9 --phase-budget 0.05 --budget 270 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/long > $R/long.log 2>&1; echo "long rc=$?"
pack s1
grep -E ",(forward|copy)," $R/long/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
for n in 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304 8388608 16777216; do
  timeout 40 $B/cuda_bench --all-variants --repeats 9 --match "c2c f32 $n x" --json $R/cuda_$n.json > $R/cuda_$n.txt 2>&1; echo "cuda $n rc=$?"
done
pack s1
cat $R/cuda_*.txt | grep -E "c2c f32" | head -60
