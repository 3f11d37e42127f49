#!/bin/bash
# Call 1 (2026-12-01e): the `chunked` variant timed on Vulkan and OpenGL
# against the default at lines one component of 48 KiB cannot hold (12800,
# 16384, 10007's Bluestein 32768?) and 8192/4093 for reference; then OpenGL's
# device radix cap at 16 (as committed) against 32 (FFTMUX_TMP_GL_RADIX, a
# temporary override) on the 1D set.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
row() { grep -hE ",(forward|copy)," $1/bench.csv | awk -F, '{printf "%s %s %.3f ms\n", $7, $12, $17*1000}' | sort -n -k1,1 -k3,3; }
timeout 150 $B/fftmux_bench --class gpu --variants all --engines 'cufft,fftmux:vulkan/default,fftmux:vulkan/chunked,fftmux:opengl/default,fftmux:opengl/chunked' --set 1d --shapes 8192,12800,16384,4093,10007 --precision f32 --repeats 9 --phase-budget 0.05 --budget 140 --gpu-warmup 0.3 $P --out $R/ch > $R/ch.log 2>&1; echo "ch rc=$?"
row $R/ch | tee $R/ch.txt
pack c1a
for r in 16 32; do
  FFTMUX_TMP_GL_RADIX=$r timeout 75 $B/fftmux_bench --class gpu --engines "cufft,fftmux:opengl/default" --set 1d --shapes 1024,2187,4096,8192,65536,1048576 --precision f32 --repeats 9 --phase-budget 0.05 --budget 65 --gpu-warmup 0.3 $P --out $R/gl$r > $R/gl$r.log 2>&1; echo "gl$r rc=$?"
  row $R/gl$r | sed "s/^/r$r /" | tee -a $R/glradix.txt
done
pack c1
