#!/bin/bash
# Call 3: OpenGL kernels as SPIR-V (GL_ARB_gl_spirv, [backends.opengl]
# shaders = "spirv") against GLSL source, beside Vulkan, cuFFT and the copy.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
printf '[backends.fftw]\nplanner = "estimate"\n[backends.opengl]\nshaders = "spirv"\n' > /tmp/spv.toml
S=64,1024,4096,8192,16384,131072,1048576,2097152,10007
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl'
for c in spv fx; do
  echo "== 1d $c $(date +%T)"
  FFTMUX_CONFIG=/tmp/$c.toml timeout 120 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes $S --precision f32 --repeats 9 --phase-budget 0.05 --budget 100 --gpu-warmup 0.3 $P --out $R/1d-$c > $R/1d-$c.log 2>&1; echo "rc=$?"
  grep -hE ",(forward|copy)," $R/1d-$c/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n | grep -v "cufft\|Memcpy\|vulkan"
  pack c3
done
grep -hE ",(forward|copy)," $R/1d-spv/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n | grep "cufft\|Memcpy\|vulkan"
echo "== thesis spv $(date +%T)"
FFTMUX_CONFIG=/tmp/spv.toml timeout 80 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan,fftmux:opengl' --set thesis --precision f32 --repeats 9 --phase-budget 0.05 --budget 60 --gpu-warmup 0.3 $P --out $R/thesis > $R/thesis.log 2>&1; echo "rc=$?"
grep -hE ",forward," $R/thesis/bench.csv | awk -F, '{printf "%s %s %s %.1f us\n", $7, $12, $0 ~ /host/ ? "host" : "dev", $17*1e6}'
pack c3
echo "== opengl_bench 2d spirv $(date +%T)"
FFTMUX_CONFIG=/tmp/spv.toml timeout 80 $B/opengl_bench --only 2d --warmup 1 --shaders spirv > $R/gl-2d-spv.txt 2>&1; echo "rc=$?"; grep "^|" $R/gl-2d-spv.txt | tail -5
pack c3
