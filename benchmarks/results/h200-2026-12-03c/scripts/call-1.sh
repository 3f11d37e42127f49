#!/bin/bash
# Call 1 (2026-12-03c): R2C 1024-16384 under the variants that change the
# thread shape (narrow, radix8-narrow, radix8, radix16) against the default
# and cuFFT, at generator v33.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c1.txt >> $OUT/c1.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> $OUT/c1.txt
for rep in 1 2; do
  for n in 2048 4096 8192 1024 16384; do
    b=$(((1 << 27) / n))
    for v in native native-narrow native-radix8-narrow native-radix8 native-radix16; do t $n $b $v cuda --kind r2c; done
    t $n $b cufft cuda --kind r2c
  done
  pack c1
done
for n in 2048 4096 8192; do
  b=$(((1 << 27) / n))
  for v in native native-narrow native-radix8-narrow; do t $n $b $v cuda --kind c2r; done
  t $n $b cufft cuda --kind c2r
done
pack c1
