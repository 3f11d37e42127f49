#!/bin/bash
# Call 3 (2026-12-03c): generator v34 as committed (radix 16 for real half
# lines up to 1024 points; mirrored butterflies only without shuffles:
# Vulkan, OpenGL) against v33's plugins (.h200/v33) and cuFFT.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
V=$PWD/.h200/v33/plugins
t() { echo "$* $(one "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
o() { local n=$1 b=$2 be=$3 v=$4; shift 4; echo "$n $b v33 $be $v $* $(FFTMUX_PLUGIN_PATH=$V one $n $b $v $be "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
for rep in 1 2; do
  for k in r2c c2r; do o 2048 65536 cuda native --kind $k; t 2048 65536 native cuda --kind $k; t 2048 65536 cufft cuda --kind $k; done
  for be in vulkan opengl; do
    for k in r2c c2r; do
      for n in 1024 2048; do b=$(((1 << 27) / n)); o $n $b $be default --kind $k; t $n $b default $be --kind $k; done
    done
    o 1024 131072 $be radix16 --kind r2c
    for n in 4096 8192 256; do b=$(((1 << 27) / n)); o $n $b $be default --kind r2c; t $n $b default $be --kind r2c; done
  done
  pack c3
done
for be in vulkan opengl; do for n in 1024 4096; do b=$(((1 << 27) / n)); t $n $b cufft cuda --kind r2c; done; done
for n in 1024 2048 4096; do for k in r2c c2r; do for p in f32 f64; do
  timeout 60 $B/fftmux run --shape $n --batch 1001 --backend cuda --variant native --kind $k --precision $p --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/cuda $n $k $p /" >> $OUT/c3.txt
  for be in vulkan opengl; do timeout 60 $B/fftmux run --shape $n --batch 33 --backend $be --kind $k --precision $p --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$be $n $k $p /" >> $OUT/c3.txt; done
done; done; done
pack c3
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c3_gpu_check.txt >> $OUT/c3.txt
pack c3
