#!/bin/bash
# Call 3 (2026-12-03): OpenGL's default against the radix16 and radix8
# variants on the one-pass sizes; Vulkan's variants on 2401, 6000 and 1000.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
for n in 1536 512 1024 2048 4096 8192 16384 1000 3125 6000 12800 2401 2187; do
  b=$(((1 << 27) / n)); for v in default radix16; do t $n $b $v opengl; done
done
pack c3
for n in 2401 6000; do
  b=$(((1 << 27) / n)); for v in default radix16 prime-radices narrow; do t $n $b $v vulkan; done
done
pack c3
