#!/bin/bash
# Call 2 (2026-12-01b): experimental variants (x-*: split exchange forced,
# launch bounds for 3-4 groups, radix 16 / 8 values a thread with a split
# exchange) against the default and cuFFT; the same on Vulkan.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 500 > $R/clock.txt 2>&1 &
SMI=$!
M="c2c f32 1000 x|c2c f32 2187 x|c2c f32 6000 x|c2c f32 8192 x|c2c f32 16384 x|c2c f32 32768 x|c2c f32 1048576 x|c2c f32 1024x1024 x"
timeout 300 $B/cuda_bench --all-variants --repeats 9 --warmup 0.3 --match "$M" --json $R/cuda.json > $R/cuda.txt 2>&1; echo "cuda_bench rc=$?"
grep -E "^1d|^2d" $R/cuda.txt | grep -v shift | awk '{t[$3" "$4]=t[$3" "$4]" "$0"\n"} END{}' 
grep -E "^(1d|2d)" $R/cuda.txt | grep -v shift | sed 's/  */ /g' | awk '{n=$4; e=""; for(i=6;i<=NF;i++){if($i ~ /^[0-9.]+$/ && $(i+1)=="ms"){ms=$i; break}; e=e $i " "} print n, e, ms}' | sort -k1,1 -k4,4n | head -200
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 100 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/default,fftmux:vulkan/x-split,fftmux:vulkan/x-v8-split,fftmux:vulkan/x-r16-split' --variants all --set 1d --shapes 512,1024,4096,8192,16384 --precision f32 --repeats 9 --phase-budget 0.05 --budget 90 --gpu-warmup 0.3 $P --out $R/vk > $R/vk.log 2>&1; echo "vk rc=$?"
grep -hE ",(forward|copy)," $R/vk/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3
kill $SMI
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -5
pack c2
