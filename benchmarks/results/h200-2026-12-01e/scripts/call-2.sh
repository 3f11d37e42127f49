#!/bin/bash
# Call 2 (2026-12-01e): `chunked` against the default on Vulkan and OpenGL,
# one process per plan, where call 1's fftmux_bench ran out of time (12800,
# 10007, 4093, 32768, 2187); then CUDA native at the sizes whose thread
# counts the tenth session's planner changed (243, 729, 500, 1000) against
# fftmux's cufft.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { timeout 60 $B/fftmux run --shape $1 --batch $2 --placement device --backend $4 --variant $3 --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2}'; }
for nb in 12800:10485 10007:13412 4093:32792 32768:4096 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n vk $(one $n $b default vulkan) vk-ch $(one $n $b chunked vulkan) gl $(one $n $b default opengl) gl-ch $(one $n $b chunked opengl)" | tee -a $R/chunked.txt
done
pack c2a
for nb in 243:552336 729:184112 500:268435 1000:134217; do n=${nb%:*}; b=${nb#*:}
  echo "$n cufft $(one $n $b cufft cuda) native $(one $n $b native cuda) narrow $(one $n $b narrow cuda)" | tee -a $R/procs.txt
done
pack c2
