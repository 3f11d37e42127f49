#!/bin/bash
# Call 4 (2026-12-03c): generator v35 (r2c_post_shared's exchange
# unpadded in groups of one line) against v34's plugins (.h200/v34).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
V=$PWD/.h200/v34/plugins
t() { echo "$* $(one "$@")" | tee -a $R/c4.txt >> $OUT/c4.txt; }
o() { local n=$1 b=$2 be=$3 v=$4; shift 4; echo "$n $b v34 $be $v $* $(FFTMUX_PLUGIN_PATH=$V one $n $b $v $be "$@")" | tee -a $R/c4.txt >> $OUT/c4.txt; }
for rep in 1 2; do
  for n in 4096 8192 2048 16384; do
    b=$(((1 << 27) / n)); o $n $b cuda native --kind r2c; t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
  pack c4
done
for be in vulkan opengl; do o 8192 16384 $be default --kind r2c; t 8192 16384 default $be --kind r2c; done
o 4096 16384 cuda native --kind r2c --precision f64; t 4096 16384 native cuda --kind r2c --precision f64
pack c4
for n in 2048 4096 8192 16384; do for p in f32 f64; do
  timeout 60 $B/fftmux run --shape $n --batch 1001 --backend cuda --variant native --kind r2c --precision $p --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/cuda $n $p /" >> $OUT/c4.txt
done; done
for be in vulkan opengl; do timeout 60 $B/fftmux run --shape 8192 --batch 33 --backend $be --kind r2c --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$be 8192 /" >> $OUT/c4.txt; done
pack c4
