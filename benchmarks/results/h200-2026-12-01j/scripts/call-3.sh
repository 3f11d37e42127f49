#!/bin/bash
# Call 3 (2026-12-01j): the rest of call 2 (GL's default on a 1D subset,
# the GLSL/driver split of cold Vulkan plans).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
rm -rf /tmp/fxcache
timeout 60 $B/vulkan_bench --elements 2^24 --only 1024,16384,1048576,8192 --repeat 3 --warmup 0.2 > $R/j3_split.txt 2>&1
pack c3
for n in 64 1024 4096 8192 16384 65536 1048576 1000 2187 4097 10007 512 16777216; do
  b=$(( (1<<27) / n ))
  echo "$n opengl $(one $n $b default opengl)" | tee -a $R/j3_gl.txt
  pack c3
done
