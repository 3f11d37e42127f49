#!/bin/bash
# Call 1 (2026-12-01i): cold and warm Vulkan plans on the H200 (GLSL and
# driver split); Vulkan 2^21 under each variant (passes, registers); CUDA
# 2187/2401 under every native variant; 8 points on GL and Vulkan.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
# cold plans: an empty cache, one process; then the same again (warm disk cache)
for pass in cold warm; do
  [ $pass = cold ] && rm -rf /tmp/fxcache
  echo "== vulkan_bench $pass" >> $R/i1_cold.txt
  timeout 150 $B/vulkan_bench --elements 2^24 --only 1024,4096,16384,65536,1048576,10007 --repeat 3 --warmup 0.2 >> $R/i1_cold.txt 2>&1
done
for pass in cold warm; do
  [ $pass = cold ] && rm -rf /tmp/fxcache
  for n in 1024 65536 1048576; do
    echo "fftmux run $pass $n: $(timeout 60 $B/fftmux run --shape $n --batch 4 --placement device --backend vulkan --repeat 3 --warmup 1 2>&1 | grep '^plan')" >> $R/i1_cold.txt
  done
done
pack c1
for v in default wide-strides radix16 small-groups slot-addresses wide narrow radix8; do
  echo "== $v" >> $R/i1_2p21.txt
  timeout 100 $B/vulkan_bench --only 2097152 --stats --repeat 20 --variant $v >> $R/i1_2p21.txt 2>&1
done
pack c1
timeout 200 $B/cuda_bench --all-variants --repeats 9 --match "c2c f32 2187 x|c2c f32 2401 x" > $R/i1_cuda.txt 2>&1
pack c1
for v in default small-groups narrow radix4; do
  echo "8 $v opengl $(one 8 16777216 $v opengl) vulkan $(one 8 16777216 $v vulkan)" | tee -a $R/i1_8.txt
done
pack c1
