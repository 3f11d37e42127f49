#!/bin/bash
# Third call. Part A, with the experiment build's plugins (.h200/exp/hooks:
# generator v44's draft with two build-local hooks, FX_R=32 for radix 32 in
# fused convolutions and FX_LEAN=1 for GL's lean rule on them): OpenGL's
# convolutions split and chunked so that groups hold 768 threads an SM
# under the driver's 64 KiB, against radix 32 alone and Vulkan. Part B,
# generator v44 (.h200/lib): tests/cuda/gpu_check.sh, --verify of the
# changed plans, and the Bluestein lines of the standing table.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3
H=$PWD/.h200/exp/hooks
v() { echo "== $* $(FFTMUX_PLUGIN_PATH=$H FX_R=32 FX_LEAN=1 timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c3_verify.txt; }
v --backend opengl --shape 4093 --batch 3 --shift both
v --backend opengl --shape 1009 --batch 3 --norm ortho --in-place
r() { echo "$* r32 $(FFTMUX_PLUGIN_PATH=$H FX_R=32 one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
l() { echo "$* r32 lean $(FFTMUX_PLUGIN_PATH=$H FX_R=32 FX_LEAN=1 one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
for nb in "4093 32792" "4097 32760" "1009 133020" "2039 65826" "10007 13412"; do
  read n b <<< "$nb"
  r $n $b default opengl; l $n $b default opengl; r $n $b default vulkan
done
l 8186 16396 default opengl --kind c2r; r 8186 16396 default opengl --kind c2r
# Part B: v44
OUT=$OUT/gpu-logs timeout 240 bash tests/cuda/gpu_check.sh .h200 > $OUT/c3_gpu_check.txt 2>&1
w() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c3_verify.txt; }
w --backend cuda --variant native --shape 4093 --batch 3 --shift both
w --backend cuda --variant native --shape 8194 --batch 3 --kind r2c --in-place
w --backend cuda --variant native --shape 8186 --batch 3 --kind c2r --norm ortho
w --backend vulkan --shape 7919 --batch 3 --shift both
w --backend vulkan --shape 4093 --batch 3 --precision f64 --in-place
w --backend vulkan --shape 4097 --batch 3 --kind r2c
w --backend opengl --shape 4097 --batch 3 --norm ortho --shift input
w --backend opengl --shape 7919 --batch 3
for nb in "4093 32792" "4097 32760" "10007 13412" "7919 16948"; do
  read n b <<< "$nb"
  t $n $b native cuda; t $n $b cufft cuda; t $n $b default vulkan; t $n $b default opengl
done
pack c3
