#!/bin/bash
# Sixth call (v42, 9087d2a): with mirror chunks, does the post step as a
# pass of its own (variant mirror-pass) now beat the rows that make the
# outputs at R2C 2^20-2^23? CUDA and Vulkan, cuFFT beside.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c6
for rep in 1 2; do
  for p in "1048576 128" "2097152 64" "4194304 32" "8388608 16"; do
    read n b <<< "$p"
    t $n $b native cuda --kind r2c; t $n $b native-mirror-pass cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
  t 4194304 32 native cuda --kind r2c --precision f64; t 4194304 32 native-mirror-pass cuda --kind r2c --precision f64
  for p in "1048576 128" "4194304 32"; do
    read n b <<< "$p"
    t $n $b default vulkan --kind r2c; t $n $b mirror-pass vulkan --kind r2c
  done
done
pack c6
