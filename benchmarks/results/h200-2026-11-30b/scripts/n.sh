#!/bin/bash
# Call N (2026-11-30, second session): default (256-invocation) against
# small-groups (64) workgroups on Vulkan and OpenGL at 256, 1024 and 4096 points.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 150 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/default,fftmux:vulkan/small-groups,fftmux:opengl/default,fftmux:opengl/small-groups' --variants all --set 1d --shapes 256,1024,4096 --precision f32 --repeats 11 --phase-budget 0.1 --budget 120 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-groups > $R/gpu-groups.log 2>&1; echo "groups rc=$?"
pack n
tail -c 2500 $R/gpu-groups.log
