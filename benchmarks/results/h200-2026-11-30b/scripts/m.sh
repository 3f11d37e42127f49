#!/bin/bash
# Call M (2026-11-30, second session): every Vulkan and OpenGL variant beside
# cuFFT on six 1D sizes (which knobs the autotuner would turn there).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 330 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/*,fftmux:opengl/*' --variants all --set 1d --shapes 64,128,256,1024,4096,8192 --precision f32 --repeats 11 --phase-budget 0.1 --budget 300 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-variants > $R/gpu-variants.log 2>&1; echo "variants rc=$?"
pack m
tail -c 2500 $R/gpu-variants.log
