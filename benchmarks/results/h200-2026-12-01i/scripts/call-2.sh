#!/bin/bash
# Call 2 (2026-12-01i): cold Vulkan plans with the GLSL at #version 430,
# spirv-opt on and off (cold plan time and kernel time); the variant `wide`
# against the default on the multi-pass pow2 sizes.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for o in 1 0 1 0; do
  rm -rf /tmp/fxcache
  echo "== spirv-opt $o cold" >> $R/i2_cold.txt
  timeout 150 $B/vulkan_bench --elements 2^24 --only 1024,4096,16384,65536,1048576,2097152,10007,4093,64 --repeat 3 --warmup 0.2 --spirv-opt $o >> $R/i2_cold.txt 2>&1
done
pack c2
for o in 1 0; do
  rm -rf /tmp/fxcache
  echo "== spirv-opt $o" >> $R/i2_opt.txt
  timeout 200 $B/vulkan_bench --only 64,256,1024,4096,8192,16384,65536,1048576,2097152,1000,2187 --repeat 20 --spirv-opt $o >> $R/i2_opt.txt 2>&1
done
pack c2
for v in default wide; do
  echo "== $v" >> $R/i2_wide.txt
  timeout 200 $B/vulkan_bench --only 131072,2097152,4194304,8388608,16777216 --stats --repeat 20 --variant $v >> $R/i2_wide.txt 2>&1
done
pack c2
for k in 21 22 23 24; do
  n=$((1<<k)); b=$((1<<(27-k)))
  echo "$n default $(one $n $b default vulkan) wide $(one $n $b wide vulkan) cufft $(one $n $b cufft cuda)" | tee -a $R/i2_times.txt
done
pack c2
