#!/bin/bash
# Prepared for a third call, NOT RUN: no device machine was lent for the
# rest of the thirty-fourth session. Part A times OpenGL's convolutions
# under GL's lean rule (scripts/lean-convolutions.patch on generator v44:
# split and chunked exchanges so that their groups hold 768 threads an SM
# under the driver's 64 KiB) against v44 and Vulkan; part B runs
# tests/cuda/gpu_check.sh at v44, --verify of v44's changed plans and the
# Bluestein lines of the standing table. Before it, here: scripts/h200.sh
# at v44, then build v44 with the patch and copy its plugin folder to
# .h200/exp/lean (see README.md). Since the thirty-fifth session
# gpu_check.sh also runs 100 problems of tests/sweep on random CUDA
# variants beside its suites (gpu-logs/sweep.log).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3
H=$PWD/.h200/exp/lean
v() { echo "== $* $(FFTMUX_PLUGIN_PATH=$H timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c3_verify.txt; }
v --backend opengl --shape 4093 --batch 3 --shift both
v --backend opengl --shape 1009 --batch 3 --norm ortho --in-place
l() { echo "$* lean $(FFTMUX_PLUGIN_PATH=$H one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
for nb in "4093 32792" "4097 32760" "1009 133020" "2039 65826" "10007 13412"; do
  read n b <<< "$nb"
  t $n $b default opengl; l $n $b default opengl; t $n $b default vulkan
done
l 8186 16396 default opengl --kind c2r; t 8186 16396 default opengl --kind c2r
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
