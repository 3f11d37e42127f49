#!/bin/bash
# Call 1 (2026-12-03b): generator v31 (R2C post step in partner order)
# against v30's plugin (.h200/v30), R2C lines; then the CUDA checks.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c1.txt >> $OUT/c1.txt; }
V=$PWD/.h200/v30/plugins
o() { echo "$1 $2 v30 cuda --kind r2c $(FFTMUX_PLUGIN_PATH=$V one $1 $2 native cuda --kind r2c)" | tee -a $R/c1.txt >> $OUT/c1.txt; }
for rep in 1 2; do
  for n in 2048 64 128 256 512; do
    b=$(((1 << 27) / n))
    o $n $b; t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
  t 256 $(((1 << 27) / 256)) native cuda --kind r2c --precision f64
  echo "256 f64 v30 $(FFTMUX_PLUGIN_PATH=$V one 256 $(((1 << 27) / 256)) native cuda --kind r2c --precision f64)" >> $OUT/c1.txt
  t 256 $(((1 << 27) / 256)) cufft cuda --kind r2c --precision f64
done
for v in native-narrow native-radix8 native-two-groups native-wide; do t 2048 65536 $v cuda --kind r2c; done
pack c1
for n in 64 128 256 512 2048; do
  for p in f32 f64; do
    timeout 60 $B/fftmux run --shape $n --batch 1001 --backend cuda --variant native --kind r2c --precision $p --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$n $p /" >> $OUT/c1.txt
  done
done
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c1_gpu_check.txt >> $OUT/c1.txt
pack c1
