#!/bin/bash
# Call 3 (2026-12-03): OpenGL's default against the radix16 and radix8
# variants on the one-pass sizes; Vulkan's variants on 2401, 6000 and 1000.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
for n in 512 1024 8192 16384 12800; do
  b=$(((1 << 27) / n)); for v in default radix16; do t $n $b $v opengl; done
done
pack c3
# OpenGL at v30 (default: odd lines below 2048 points capped at radix 16)
# against v29's plugin (.h200/gl).
G=$PWD/.h200/gl/plugins
for n in 1536 1600; do
  b=$(((1 << 27) / n)); echo "$n $b v29 opengl $(FFTMUX_PLUGIN_PATH=$G one $n $b default opengl)" >> $OUT/c3.txt
  t $n $b default opengl; t $n $b default vulkan
  for k in c2c r2c; do timeout 60 $B/fftmux run --shape $n --batch 1000 --backend opengl --kind $k --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/$n $k /" >> $OUT/c3.txt; done
done
# 2187 on OpenGL as 27 x 9 x 9 (max_composite 27, .h200/gl27) against 9 x 9 x 9 x 3.
echo "2187 61370 c27 opengl $(FFTMUX_PLUGIN_PATH=$PWD/.h200/gl27/plugins one 2187 61370 default opengl)" >> $OUT/c3.txt
t 2187 61370 default opengl
pack c3
for n in 2401 6000; do
  b=$(((1 << 27) / n)); for v in default radix16 prime-radices narrow; do t $n $b $v vulkan; done
done
pack c3
# The full correctness matrix on vulkan and opengl (generator v30), side by side, each stopped after 150 s.
for be in vulkan opengl; do
  (FFTMUX_TEST_BACKEND=$be timeout 150 $B/fftmux_correctness > $R/c3_matrix_$be.txt 2>&1; echo "rc $?" >> $R/c3_matrix_$be.txt) &
done
wait
for be in vulkan opengl; do
  f=$R/c3_matrix_$be.txt
  { echo "$be ok $(grep -c '^\[       OK \]' $f) failed $(grep -c '^\[  FAILED  \]' $f)"; grep -E 'FAILED|rc |tests ran|PASSED' $f | head -40; } >> $OUT/c3_matrix.txt
done
pack c3
