#!/bin/bash
# Call 2 (2026-12-01j): GL at 8 and 4093 points under every variant (with
# Vulkan's default in the same call); one-pass composites, Vulkan and
# CUDA native against cuFFT; GL's default on a 1D subset; where a cold
# Vulkan plan's time goes (GLSL/driver split).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 8 4093; do
  b=$(( (1<<27) / n ))
  echo "$n vulkan default $(one $n $b default vulkan)" | tee -a $R/j2_glvariants.txt
  for v in default radix8 radix4 wide narrow radix8-narrow small-groups two-pass wide-strides two-groups radix16 prime-radices slot-addresses unchunked; do
    echo "$n opengl $v $(one $n $b $v opengl)" | tee -a $R/j2_glvariants.txt
  done
  pack c2
done
for n in 1000 1536 2187 2401 3125 4093 4097 6000 10007; do
  b=$(( (1<<27) / n ))
  echo "$n cufft $(one $n $b cufft cuda) vulkan $(one $n $b default vulkan)" | tee -a $R/j2_composites.txt
done
pack c2
for n in 1000 2187 2401 4093; do
  b=$(( (1<<27) / n ))
  echo "$n native $(one $n $b native cuda) cufft $(one $n $b cufft cuda)" | tee -a $R/j2_cuda.txt
done
pack c2
for n in 16 64 512 1024 4096 8192 16384 65536 1048576 16777216 1000 2187 4097 10007; do
  b=$(( (1<<27) / n ))
  echo "$n opengl $(one $n $b default opengl)" | tee -a $R/j2_gl.txt
done
pack c2
rm -rf /tmp/fxcache
timeout 100 $B/vulkan_bench --elements 2^24 --only 1024,16384,1048576,8192 --repeat 3 --warmup 0.2 > $R/j2_split.txt 2>&1
pack c2
