#!/bin/bash
# Second call: the fused convolution at radix 32 (FX_R=32, a build-local
# hook in bluestein(): 8192 points as 32 x 16 x 16 twice on 256 threads,
# where the default takes 16 x 8 x 8 x 8 twice on 512) against the default
# and split-convolution, on CUDA, Vulkan and OpenGL.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c2
S=split-convolution
v() { echo "== $* $(FX_R=32 timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c2_verify.txt; }
v --backend cuda --variant native --shape 4093 --batch 3 --shift both
v --backend vulkan --shape 4097 --batch 3 --norm ortho
v --backend opengl --shape 4093 --batch 3 --kind r2c
r() { echo "$* r32 $(FX_R=32 one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
for rep in 1 2; do
  for nb in "4093 32792" "4097 32760"; do
    read n b <<< "$nb"
    t $n $b native cuda; r $n $b native cuda; t $n $b native-$S cuda
    t $n $b default vulkan; r $n $b default vulkan
    t $n $b default opengl; r $n $b default opengl; t $n $b $S opengl
  done
done
t 8186 16396 native cuda --kind r2c; r 8186 16396 native cuda --kind r2c; t 8186 16396 native-$S cuda --kind r2c
for nb in "2039 65826" "1009 133020"; do
  read n b <<< "$nb"
  t $n $b native cuda; r $n $b native cuda
  t $n $b default vulkan; r $n $b default vulkan
  t $n $b default opengl; r $n $b default opengl
done
pack c2
