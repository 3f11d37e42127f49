#!/bin/bash
# Call E (2026-11-30): clocks, the CUDA benchmark over every native variant
# (two-groups now a variant), the thesis and shapes sets side by side, and
# the 1D set on Vulkan with spirv-opt'ed kernels.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
clk() { nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader | tee -a $R/clocks.txt; }
clk
timeout 200 $B/cuda_bench --all-variants --repeats 11 --json $R/cuda_bench.json > $R/cuda_bench.txt 2>&1; echo "cuda_bench rc=$?"
clk; pack e
E='cufft,vkfft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 190 $B/fftmux_bench --class gpu --engines "$E" --set thesis,shapes --precision f32 --repeats 11 --phase-budget 0.1 --budget 150 --out $R/gpu-shapes > $R/gpu-shapes.log 2>&1; echo "shapes rc=$?"
clk; pack e
timeout 150 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan' --set 1d --precision f32 --repeats 11 --phase-budget 0.1 --budget 120 --out $R/gpu-vk > $R/gpu-vk.log 2>&1; echo "vk rc=$?"
clk; pack e
grep -E "^\[" $R/gpu-shapes.log | tail -c 2500; tail -c 1500 $R/gpu-vk.log
