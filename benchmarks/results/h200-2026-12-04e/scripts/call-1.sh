#!/bin/bash
# First call (34th session): the variant split-convolution (a Bluestein
# convolution as two kernels of one transform each, through scratch)
# verified on CUDA, Vulkan and OpenGL, then timed against the fused
# convolution (default) and cuFFT. Lines stop being timed after 440 s.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $OUT/c1_gpu.txt
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c1_verify.txt; }
S=split-convolution
v --backend cuda --variant native-$S --shape 4093 --batch 3 --shift both
v --backend cuda --variant native-$S --shape 4097 --batch 2 --norm ortho --in-place
v --backend cuda --variant native-$S --shape 8186 --batch 3 --kind r2c --shift output
v --backend cuda --variant native-$S --shape 8194 --batch 3 --kind c2r
v --backend cuda --variant native-$S --shape 4093 --batch 3 --precision f64 --direction inverse
v --backend cuda --variant native-$S --shape 7919 --batch 2 --shift input
v --backend vulkan --variant $S --shape 7919 --batch 3 --shift both
v --backend vulkan --variant $S --shape 4093 --batch 3 --kind r2c
v --backend opengl --variant $S --shape 4097 --batch 3 --shift output
v --backend opengl --variant $S --shape 7919 --batch 2 --norm ortho
tt() { [ $SECONDS -lt 440 ] && t "$@"; }
all() { # N BATCH [options]: every backend, fused and split
  local n=$1 b=$2; shift 2
  tt $n $b native cuda "$@"; tt $n $b native-$S cuda "$@"; tt $n $b cufft cuda "$@"
  tt $n $b default vulkan "$@"; tt $n $b $S vulkan "$@"
  tt $n $b default opengl "$@"; tt $n $b $S opengl "$@"
}
all 4093 32792; all 4097 32760
all 7919 16948
tt 8186 16396 native cuda --kind r2c; tt 8186 16396 native-$S cuda --kind r2c; tt 8186 16396 cufft cuda --kind r2c
all 4093 32792; all 4097 32760
all 2039 65826
tt 4093 16396 native cuda --precision f64; tt 4093 16396 native-$S cuda --precision f64
tt 4093 16396 default vulkan --precision f64; tt 4093 16396 $S vulkan --precision f64
pack c1
