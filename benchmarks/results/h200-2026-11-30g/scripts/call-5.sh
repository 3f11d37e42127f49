#!/bin/bash
# Call 5: the radix8-narrow variant (radix 8, 8 values a thread) on Vulkan
# and CUDA native: register counts, then times beside cuFFT and the default.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 40 $B/vulkan_bench --stats --variant radix8-narrow --only 512,1024,4096,8192,16384 --elements 2^20 --repeat 1 --warmup 0 2>&1 | grep -E "^1d|Register" | sed -E 's/, Binary Size [0-9]+//; s/, Stack Size.*Shared/, Shared/' | tee $R/regs.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 500 > $R/clock.txt 2>&1 &
SMI=$!
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
E='cufft,fftmux:vulkan/default,fftmux:vulkan/radix8,fftmux:vulkan/radix8-narrow,fftmux:cuda/native,fftmux:cuda/native-radix8-narrow'
run() { timeout $2 $B/fftmux_bench --class gpu --engines "$E" --variants all --set 1d,shapes --shapes $3 --precision f32 --repeats 9 --phase-budget 0.05 --budget $(($2 - 10)) --gpu-warmup 0.3 $P --out $R/$1 > $R/$1.log 2>&1; echo "== $1 rc=$?"
  grep -hE ",(forward|copy)," $R/$1/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3; }
run a 180 512,1024,2048,4096,8192,16384,32768,1048576,1024x1024
run b 70 512,4096,8192
kill $SMI
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -4
pack c5
