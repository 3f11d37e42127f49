#!/bin/bash
# Call 3 (2026-12-03b): generator v32 (R2C's post step makes both outputs
# of a pair in one thread) against v31's plugin (.h200/v31), R2C lines;
# then --verify and the CUDA checks.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
V=$PWD/.h200/v31/plugins
t() { echo "$* $(one "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
o() { local n=$1 b=$2; shift 2; echo "$n $b v31 $* $(FFTMUX_PLUGIN_PATH=$V one $n $b native cuda "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
for rep in 1 2; do
  for n in 2048 1024 512 256 128 64 32 16 8; do
    b=$(((1 << 27) / n)); o $n $b --kind r2c; t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
  for n in 512 256 64 16; do
    b=$(((1 << 26) / n)); o $n $b --kind r2c --precision f64; t $n $b native cuda --kind r2c --precision f64; t $n $b cufft cuda --kind r2c --precision f64
  done
  pack c3
done
for n in 8 16 32 64 128 256 512 1024 2048; do
  for p in f32 f64; do
    timeout 60 $B/fftmux run --shape $n --batch 1001 --backend cuda --variant native --kind r2c --precision $p --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$n $p /" >> $OUT/c3.txt
  done
done
timeout 60 $B/fftmux run --shape 2048 --batch 7 --backend cuda --variant native --kind r2c --shift both --norm ortho --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/2048 shifts /" >> $OUT/c3.txt
timeout 60 $B/fftmux run --shape 64x1024 --batch 3 --backend cuda --variant native --kind r2c --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/64x1024 /" >> $OUT/c3.txt
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c3_gpu_check.txt >> $OUT/c3.txt
pack c3
