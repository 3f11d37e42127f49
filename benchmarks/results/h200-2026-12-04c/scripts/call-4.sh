#!/bin/bash
# Fourth call: v42 with mirror chunks (the pre/post pass of a long real
# line dispatches its chunks from both ends, so that each chunk's mirror
# reads hit the cache) and the F32-only thin-row rule: the mirror passes of
# CUDA, Vulkan and OpenGL against v41 ($OLD) and cuFFT.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c4; OLD=$PWD/.h200/old/plugins
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c4_verify.txt; }
v --backend cuda --shape 16777216 --batch 2 --kind r2c --shift both
v --backend cuda --shape 4194304 --batch 3 --kind c2r --shift output --norm ortho
v --backend cuda --shape 1048576 --batch 3 --kind c2r --precision f64 --in-place
v --backend vulkan --shape 2097152 --batch 3 --kind r2c --in-place
v --backend vulkan --shape 1048576 --batch 3 --kind c2r --shift input
v --backend opengl --shape 1048576 --batch 3 --kind r2c --shift both
v --backend opengl --shape 65536 --batch 5 --kind c2r --norm ortho
set -- "cuda native 16777216 8 r2c" "cuda native 2097152 64 c2r" "cuda native 4194304 32 c2r" \
  "cuda native 8388608 16 c2r" "cuda native 16777216 8 c2r" "cuda native 1048576 128 c2r --precision f64" \
  "vulkan default 2097152 64 r2c" "vulkan default 4194304 32 r2c" "vulkan default 262144 512 c2r" \
  "vulkan default 1048576 128 c2r" "opengl default 65536 2048 r2c" "opengl default 1048576 128 r2c" \
  "opengl default 65536 2048 c2r" "opengl default 1048576 128 c2r"
for rep in 1 2; do
  for p in "$@"; do
    read be va n b k rest <<< "$p"
    t $n $b $va $be --kind $k $rest; o $n $b $be $va --kind $k $rest
  done
  t 16777216 8 cufft cuda --kind r2c; t 4194304 32 cufft cuda --kind c2r
done
pack c4
