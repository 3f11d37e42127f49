#!/bin/bash
# Third call: OpenGL's convolutions under the lean rule (FX_LEAN=1, a
# build-local hook: split and chunked exchanges so that groups hold 768
# threads an SM under the driver's 64 KiB) at radix 32 (FX_R=32), against
# radix 32 alone and Vulkan; radix 32 on F64 and other lengths on CUDA.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3
S=split-convolution
v() { echo "== $* $(FX_R=32 FX_LEAN=1 timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c3_verify.txt; }
v --backend opengl --shape 4093 --batch 3 --shift both
v --backend opengl --shape 1009 --batch 3 --norm ortho --in-place
v --backend opengl --shape 8186 --batch 3 --kind c2r
v --backend cuda --variant native --shape 2039 --batch 3 --precision f64 --shift output
v --backend cuda --variant native --shape 6007 --batch 3
r() { echo "$* r32 $(FX_R=32 one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
l() { echo "$* r32 lean $(FX_R=32 FX_LEAN=1 one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
for rep in 1 2; do
  for nb in "4093 32792" "4097 32760" "1009 133020" "2039 65826"; do
    read n b <<< "$nb"
    r $n $b default opengl; l $n $b default opengl; r $n $b default vulkan
  done
done
for nb in "7919 16948" "10007 13412"; do
  read n b <<< "$nb"
  r $n $b default opengl; l $n $b default opengl; t $n $b $S opengl; r $n $b default vulkan
done
l 8186 16396 default opengl --kind r2c; r 8186 16396 default opengl --kind r2c; r 8186 16396 default vulkan --kind r2c
l 8186 16396 default opengl --kind c2r; r 8186 16396 default opengl --kind c2r; r 8186 16396 default vulkan --kind c2r
for nb in "2039 32913" "1009 66510"; do
  read n b <<< "$nb"
  t $n $b native cuda --precision f64; r $n $b native cuda --precision f64
  t $n $b default vulkan --precision f64; r $n $b default vulkan --precision f64
done
for nb in "6007 22343" "3001 44724"; do
  read n b <<< "$nb"
  t $n $b native cuda; r $n $b native cuda; t $n $b default vulkan; r $n $b default vulkan
done
t 8194 16380 native cuda --kind c2r; r 8194 16380 native cuda --kind c2r
pack c3
