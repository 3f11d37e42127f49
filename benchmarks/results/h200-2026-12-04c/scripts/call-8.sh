#!/bin/bash
# Eighth call: v42 with F32 R2C chains under Vulkan leaving the post step
# to a pass (no launch bounds): verified, and timed against v41 ($OLD),
# 65536-2^20.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c8; OLD=$PWD/.h200/old/plugins
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c8_verify.txt; }
v --backend vulkan --shape 65536 --batch 5 --kind r2c --shift both
v --backend vulkan --shape 262144 --batch 3 --kind r2c --in-place --norm ortho
v --backend vulkan --shape 1048576 --batch 2 --kind r2c --shift output
for rep in 1 2; do
  for e in 16 17 18 19 20; do
    n=$((1 << e)) b=$((1 << (27 - e)))
    t $n $b default vulkan --kind r2c; o $n $b vulkan default --kind r2c
  done
done
pack c8
