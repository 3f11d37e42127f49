#!/bin/bash
# Call Q (2026-11-30, third session): Vulkan plan creation with the kept
# scratch buffer; the batched 1D set on Vulkan and OpenGL (64-invocation
# groups, polled fences) beside cuFFT and the device copy.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 90 $B/fftmux_bench --class gpu --engines 'fftmux:vulkan' --set 1d --shapes 256,4096,16384,65536,1048576,10007 --precision f32 --repeats 3 --phase-budget 0.03 --budget 70 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/plans > $R/plans.log 2>&1; echo "plans rc=$?"
grep -E ",plan_(cold|warm)," $R/plans/bench.csv | awk -F, '{printf "%s %s %s %.2f ms\n", $7, $12, $14, $17*1000}'
pack q
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl'
timeout 330 $B/fftmux_bench --class gpu --engines "$E" --set 1d --precision f32 --repeats 11 --phase-budget 0.1 --budget 300 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-1d > $R/gpu-1d.log 2>&1; echo "1d rc=$?"
pack q
tail -3 $R/gpu-1d.log
