#!/bin/bash
# Call 5 (2026-12-01h): generator v17 as committed (Vulkan groups hold a
# quarter of the register file in values): Vulkan's changed and large
# pow2 plans, cuFFT beside where call 1 did not time it.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for k in 19 20 17 18 21 22 23 24; do
  n=$((1<<k)); echo "$n f32 vulkan v17 $(one $n $((1<<(27-k))) default vulkan)" | tee -a $R/h5_times.txt
done
for c in "1048576 128 f64 c2c" "1048576 128 f32 r2c" "1024x1024 128 f32 c2c"; do set -- $c
  echo "$1 x$2 $3 $4 vulkan $(one $1 $2 default vulkan --precision $3 --kind $4) cufft $(one $1 $2 cufft cuda --precision $3 --kind $4)" | tee -a $R/h5_times.txt
done
pack c5
