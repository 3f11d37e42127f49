#!/bin/bash
# Call V (2026-11-30, third session): Vulkan's variants at 4096-16384 points,
# where it falls below 0.75x cuFFT, to find a better default.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 200 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/*' --variants all --set 1d --shapes 4096,8192,16384 --precision f32 --repeats 7 --phase-budget 0.05 --budget 170 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/variants > $R/variants.log 2>&1; echo "rc=$?"
pack v
grep -E ",forward," $R/variants/bench.csv | awk -F, '{printf "%s %s %.1f GB/s\n", $7, $12, $10*16/$17/1e9}'
