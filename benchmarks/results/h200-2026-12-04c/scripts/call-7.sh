#!/bin/bash
# Seventh call (v42, 9087d2a): under Vulkan, the post step as a pass of its
# own (variant mirror-pass) against the rows that make the outputs, R2C
# 2^17-2^20, F32 and F64.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c7
for rep in 1 2; do
  for e in 17 18 19 20; do
    t $((1 << e)) $((1 << (27 - e))) default vulkan --kind r2c; t $((1 << e)) $((1 << (27 - e))) mirror-pass vulkan --kind r2c
  done
  t 1048576 128 default vulkan --kind r2c --precision f64; t 1048576 128 mirror-pass vulkan --kind r2c --precision f64
done
pack c7
