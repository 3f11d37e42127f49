#!/bin/bash
# Call 2 (2026-12-03b): every OpenGL variant on the sizes where GL takes
# more than 1.2x Vulkan's time (8, 2187, 2^23, 4093, 4097), Vulkan's
# default and cuFFT beside them.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c2.txt >> $OUT/c2.txt; }
for n in 8 2187 8388608 4093 4097; do
  b=$(((1 << 27) / n))
  t $n $b cufft cuda; t $n $b default vulkan
  for v in default radix8 radix4 wide narrow radix8-narrow small-groups two-pass wide-strides two-groups radix16 prime-radices slot-addresses unchunked; do
    t $n $b $v opengl
  done
  t $n $b default vulkan; t $n $b default opengl
  pack c2
done
