#!/bin/bash
# Call 2: four-step twiddles one run a team (default) against the direct
# read (no-lanes variant) on Vulkan and CUDA native; Vulkan's long lines to
# 2^24; Vulkan's variants at 8192 and 16384.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
E='cufft,cudaMemcpy,fftmux:vulkan/default,fftmux:vulkan/no-lanes'
timeout 200 $B/fftmux_bench --class gpu --engines "$E" --variants all --set 1d --shapes 4194304,16777216,32768,65536,131072,1048576,2097152,8388608 --precision f32 --repeats 9 --phase-budget 0.05 --budget 185 $P --out $R/ab > $R/ab.log 2>&1; echo "ab rc=$?"
pack s2
grep -E ",(forward|copy)," $R/ab/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n
timeout 110 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/*' --variants all --set 1d --shapes 8192,16384 --precision f32 --repeats 7 --phase-budget 0.05 --budget 100 $P --out $R/var > $R/var.log 2>&1; echo "var rc=$?"
pack s2
grep -E ",(forward|copy)," $R/var/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k5,5nr
for n in 32768 131072 1048576 2097152; do
  timeout 35 $B/cuda_bench --all-variants --repeats 9 --match "c2c f32 $n x" --json $R/cuda_$n.json > $R/cuda_$n.txt 2>&1; echo "cuda $n rc=$?"
done
pack s2
cat $R/cuda_*.txt | grep -E "c2c f32" | grep -E "direct|native |no-lanes" | awk '{for(i=1;i<=NF;i++) if($i=="GB/s") g=$(i-1); print $3, $5, $6, g}'
