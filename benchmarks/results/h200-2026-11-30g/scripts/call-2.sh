#!/bin/bash
# Call 2: register counts of Vulkan kernels under GLSL rewrites (FFTMUX_EXP:
# s scalar registers, u no zero-init, r/R restrict) with and without
# spirv-opt; then fftmux_bench timings of the rewrites beside cuFFT, with
# the SM clock logged.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for o in 1 0; do for e in "" r R u s su sur; do
  echo "== exp '$e' spirv-opt $o"
  FFTMUX_EXP=$e timeout 40 $B/vulkan_bench --stats --spirv-opt $o --only 512,1024,4096,8192,16384 --elements 2^20 --repeat 1 --warmup 0 2>&1 | grep -E "Register|failed" | sed -E 's/, Binary Size [0-9]+//; s/, Stack Size.*Shared/, Shared/'
done; done > $R/regs.txt
cat $R/regs.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 250 > $R/clock.txt 2>&1 &
SMI=$!
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
for e in "" su s R; do
  echo "== bench exp '$e' $(date +%T)"
  FFTMUX_EXP=$e timeout 75 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:cuda/native' --variants default --set 1d --shapes 512,1024,4096,8192,16384 --precision f32 --repeats 9 --phase-budget 0.05 --budget 70 --gpu-warmup 0.5 $P --out $R/b$e > $R/b$e.log 2>&1; echo "rc=$?"
  grep -hE ",(forward|copy)," $R/b$e/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k3,3
done
kill $SMI
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -8
pack c2
