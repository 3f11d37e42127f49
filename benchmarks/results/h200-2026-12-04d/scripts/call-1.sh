#!/bin/bash
# First call (33rd session): the variant paired-mirror (the pre/post pass
# walks k = 0 .. h/2 and makes outputs k and h-k from the same two reads)
# verified on CUDA, Vulkan and OpenGL, then timed against the default pass
# (mirror chunks) and cuFFT.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $OUT/c1_gpu.txt
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c1_verify.txt; }
v --backend cuda --variant native-paired-mirror --shape 16777216 --batch 2 --kind r2c --shift both
v --backend cuda --variant native-paired-mirror --shape 4194304 --batch 3 --kind c2r --norm ortho
v --backend cuda --variant native-paired-mirror --shape 1048576 --batch 3 --kind c2r --precision f64 --in-place
v --backend cuda --variant native-paired-mirror --shape 200004 --batch 3 --kind r2c --shift output
v --backend vulkan --variant paired-mirror --shape 2097152 --batch 3 --kind r2c --in-place
v --backend vulkan --variant paired-mirror --shape 1048576 --batch 3 --kind c2r --shift input
v --backend opengl --variant paired-mirror --shape 1048576 --batch 3 --kind r2c --shift both
set -- "16777216 8 r2c" "16777216 1 r2c" "4194304 32 r2c" "8388608 16 r2c" "1048576 128 r2c" \
  "2097152 64 c2r" "4194304 32 c2r"
for rep in 1 2; do
  for p in "$@"; do
    read n b k <<< "$p"
    t $n $b native cuda --kind $k; t $n $b native-paired-mirror cuda --kind $k; t $n $b cufft cuda --kind $k
  done
  for p in "65536 2048 r2c" "1048576 128 r2c" "4194304 32 r2c" "1048576 128 c2r"; do
    read n b k <<< "$p"
    t $n $b default vulkan --kind $k; t $n $b paired-mirror vulkan --kind $k
  done
  t 1048576 128 default opengl --kind r2c; t 1048576 128 paired-mirror opengl --kind r2c
done
t 16777216 8 native cuda --kind c2r; t 16777216 8 native-paired-mirror cuda --kind c2r
pack c1
