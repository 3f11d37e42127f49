#!/bin/bash
# Call 2: the three-pass chains' last pass with adjacent output lines
# (unit digit first): Vulkan per-pass times warmed, the long 1D lines on
# Vulkan and OpenGL beside cuFFT and the copy; 2D/3D; chunks on the driver.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
echo "== vulkan_bench per pass $(date +%T)"
timeout 100 $B/vulkan_bench --repeat 10 --warmup 0.5 --only 16384,131072,1048576,2097152,16777216 > $R/vk-pass.txt 2>&1; echo "rc=$?"
grep -vE "^#|^$" $R/vk-pass.txt | tail -16
pack c2
S=131072,262144,524288,1048576,2097152,4194304,8388608,16777216
timeout 170 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl' --set 1d --shapes $S --precision f32 --repeats 9 --phase-budget 0.05 --budget 150 --gpu-warmup 0.3 $P --out $R/long > $R/long.log 2>&1; echo "long rc=$?"
grep -hE ",(forward|copy)," $R/long/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n
pack c2
timeout 150 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl' --set shapes --precision f32 --repeats 7 --phase-budget 0.05 --budget 130 --gpu-warmup 0.3 $P --out $R/shapes > $R/shapes.log 2>&1; echo "shapes rc=$?"
grep -hE ",(forward|copy)," $R/shapes/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
pack c2
printf '[backends.fftw]\nplanner = "estimate"\n[backends.vulkan]\nmax_binding_bytes = 268435456\n' > /tmp/chunk.toml
echo "== chunks $(date +%T)"
FFTMUX_CONFIG=/tmp/chunk.toml timeout 60 $B/fftmux run --backend vulkan --shape 1024 --batch 131072 --placement device --verify --repeat 3 --warmup 1 2>&1 | tail -3
FFTMUX_CONFIG=/tmp/chunk.toml timeout 60 $B/fftmux run --backend vulkan --shape 2097152 --batch 64 --placement device --verify --repeat 3 --warmup 1 2>&1 | tail -3
pack c2
