#!/bin/bash
# Call 2 (2026-12-03c): generator v34 (real half lines up to 1024 points at
# radix 16; R2C partners from the thread's own mirrored butterflies)
# against v33's plugins (.h200/v33) and cuFFT; then the CUDA checks.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
V=$PWD/.h200/v33/plugins
t() { echo "$* $(one "$@")" | tee -a $R/c2.txt >> $OUT/c2.txt; }
o() { local n=$1 b=$2 be=$3 v=$4; shift 4; echo "$n $b v33 $be $v $* $(FFTMUX_PLUGIN_PATH=$V one $n $b $v $be "$@")" | tee -a $R/c2.txt >> $OUT/c2.txt; }
for rep in 1 2; do
  for n in 2048 4096 1024 16384 256 128 64; do
    b=$(((1 << 27) / n)); o $n $b cuda native --kind r2c; t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
  pack c2
done
for n in 1024 2048 4096; do b=$(((1 << 27) / n)); o $n $b cuda native --kind r2c --precision f64; t $n $b native cuda --kind r2c --precision f64; done
t 2048 65536 native cuda --kind c2r; o 2048 65536 cuda native --kind c2r
pack c2
for be in vulkan opengl; do
  for n in 1024 2048 4096; do b=$(((1 << 27) / n)); o $n $b $be default --kind r2c; t $n $b default $be --kind r2c; done
  t 2048 65536 default $be --kind c2r; o 2048 65536 $be default --kind c2r
done
pack c2
for n in 64 256 1024 2048 4096 16384 6144; do
  for p in f32 f64; do
    timeout 60 $B/fftmux run --shape $n --batch 1001 --backend cuda --variant native --kind r2c --precision $p --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$n $p /" >> $OUT/c2.txt
  done
done
for be in vulkan opengl; do for n in 2048 4096; do timeout 60 $B/fftmux run --shape $n --batch 33 --backend $be --kind r2c --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$be $n /" >> $OUT/c2.txt; done; done
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c2_gpu_check.txt >> $OUT/c2.txt
pack c2
