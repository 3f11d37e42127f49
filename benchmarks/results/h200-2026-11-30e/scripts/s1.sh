#!/bin/bash
# Session 2026-11-30e call 1: per-pass times of Vulkan's long lines; 2^21
# with and without OpenGL in the process; OpenGL 2D with warm-up; batch
# chunks beyond one binding (Vulkan 5 GiB, OpenGL 10007 x 13412); cuda_bench.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv,noheader -lms 200 > $R/clocks.csv 2>&1 &
CK=$!
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
echo "== vulkan_bench per pass $(date +%T)"
timeout 100 $B/vulkan_bench --repeat 10 --warmup 1 --only 16384,131072,1048576,2097152,16777216,2097152 > $R/vk-pass.txt 2>&1; echo "rc=$?"
grep -vE "^#|^$" $R/vk-pass.txt | tail -20
for E in 'cufft,fftmux:vulkan' 'cufft,fftmux:vulkan,fftmux:opengl'; do
  echo "== 2^21 with $E $(date +%T)"
  timeout 60 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes 2097152 --precision f32 --repeats 9 --phase-budget 0.05 --budget 50 --gpu-warmup 0.3 $P --out $R/e$RANDOM > /dev/null 2>&1; echo "rc=$?"
done
grep -hE ",(forward|copy)," $R/e*/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
pack c1
echo "== opengl 2d $(date +%T)"
timeout 80 $B/opengl_bench --only 2d --warmup 1 > $R/gl-2d.txt 2>&1; echo "rc=$?"; grep -vE "^$" $R/gl-2d.txt | tail -20
echo "== chunks $(date +%T)"
timeout 120 $B/fftmux run --backend vulkan --shape 1024 --batch 655360 --placement device --verify --repeat 3 --warmup 1 > $R/vk-chunks.txt 2>&1; echo "rc=$?"; tail -5 $R/vk-chunks.txt
timeout 100 $B/fftmux run --backend opengl --shape 10007 --batch 13412 --placement device --verify --repeat 3 --warmup 1 > $R/gl-chunks.txt 2>&1; echo "rc=$?"; tail -5 $R/gl-chunks.txt
pack c1
echo "== cuda_bench $(date +%T)"
timeout 170 $B/cuda_bench --warmup 0.3 --repeats 9 --json $R/cuda.json > $R/cuda.txt 2>&1; echo "rc=$?"
kill $CK
pack c1
grep -vE "^$" $R/cuda.txt | cut -c1-150 | head -80
