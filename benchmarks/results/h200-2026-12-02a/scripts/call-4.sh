#!/bin/bash
# Call 4 (2026-12-02a): OpenGL kernels handed to the driver as SPIR-V
# (shaderc + spirv-opt, [backends.opengl] spirv = true, the new default)
# against GLSL source (spirv = false), and SPIR-V without spirv-opt, with
# Vulkan's default beside each; batched 1D C2C F32 at 2^27 elements and
# the 2D singles of issue 5. Each line: plan ms (first process of a config
# compiles, later ones hit the program cache) and execute us.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
cfg() { printf '[backends.fftw]\nplanner = "estimate"\n[backends.opengl]\n%s\n' "$1" > /tmp/gl-$2.toml; }
cfg "spirv = true" spv; cfg "spirv = false" glsl; cfg $'spirv = true\nspirv_opt = false' noopt
one() { local n=$1 b=$2 be=$3 c=$4; FFTMUX_CONFIG=/tmp/gl-$c.toml timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --repeat 30 --warmup 10 2>&1 | grep -E "^plan|execute" | awk '{print $2}' | tr '\n' ' '; }
for n in 8 64 1024 4096 16384 1048576 1000 2187 2401 4093 4097 10007; do
  b=$(( (1<<27) / n ))
  echo "$n vulkan $(one $n $b vulkan spv)| glsl $(one $n $b opengl glsl)| spirv $(one $n $b opengl spv)| noopt $(one $n $b opengl noopt)" | tee -a $R/a4_spirv.txt
done
pack c4
for n in 128x128 1024x1024; do
  echo "$n cuda-default $(one $n 1 cuda spv)| vulkan $(one $n 1 vulkan spv)| glsl $(one $n 1 opengl glsl)| spirv $(one $n 1 opengl spv)" | tee -a $R/a4_2d.txt
done
pack c4
