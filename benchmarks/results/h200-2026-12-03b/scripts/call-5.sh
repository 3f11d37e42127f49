#!/bin/bash
# Call 5 (2026-12-03b): generator v33 (R2C lines of several warps pair
# their outputs through shared memory) against v32's plugins (.h200/v32).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
V=$PWD/.h200/v32/plugins
t() { echo "$* $(one "$@")" | tee -a $R/c5.txt >> $OUT/c5.txt; }
o() { local n=$1 b=$2 be=$3 v=$4; shift 4; echo "$n $b v32 $be $v $* $(FFTMUX_PLUGIN_PATH=$V one $n $b $v $be "$@")" | tee -a $R/c5.txt >> $OUT/c5.txt; }
for rep in 1 2; do
  for n in 4096 8192 16384; do
    b=$(((1 << 27) / n)); o $n $b cuda native --kind r2c; t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
done
for n in 512 1048576; do b=$(((1 << 27) / n)); o $n $b cuda native --kind r2c; t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c; done
t 4096 16384 native cuda --kind r2c --precision f64; o 4096 16384 cuda native --kind r2c --precision f64
pack c5
for be in vulkan opengl; do
  for n in 1024 4096; do b=$(((1 << 27) / n)); o $n $b $be default --kind r2c; t $n $b default $be --kind r2c; done
done
pack c5
for n in 4096 8192 16384 32768; do
  for p in f32 f64; do
    timeout 60 $B/fftmux run --shape $n --batch 1001 --backend cuda --variant native --kind r2c --precision $p --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$n $p /" >> $OUT/c5.txt
  done
done
for be in vulkan opengl; do timeout 60 $B/fftmux run --shape 4096 --batch 33 --backend $be --kind r2c --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$be 4096 /" >> $OUT/c5.txt; done
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c5_gpu_check.txt >> $OUT/c5.txt
pack c5
