#!/bin/bash
# Call 5 (2026-12-01e): generator v13 on the prime and odd sizes, one
# process per plan: cuFFT (fftmux's cufft), Vulkan and OpenGL defaults at
# 4093, 4097, 10007 and 2187.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for nb in 4093:32792 4097:32760 10007:13412 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 cufft $(one $n $b cufft cuda) vk $(one $n $b default vulkan) gl $(one $n $b default opengl)" | tee -a $R/primes.txt
done
pack c5
