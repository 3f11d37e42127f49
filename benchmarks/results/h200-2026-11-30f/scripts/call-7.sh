#!/bin/bash
# Call 7: 4096^2 x8 on Vulkan beside cuFFT and the copy (call 6's run of it
# ran out of time with five engines).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 75 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan' --set shapes --shapes 4096x4096 --precision f32 --repeats 7 --phase-budget 0.05 --budget 40 --gpu-warmup 0.3 $P --out $R/sq > $R/sq.log 2>&1; echo "sq rc=$?"
grep -hE ",(forward|copy)," $R/sq/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort
tail -2 $R/sq.log
pack c11
