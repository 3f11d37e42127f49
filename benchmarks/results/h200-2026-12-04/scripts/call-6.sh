#!/bin/bash
# Sixth call: Nsight Compute of R2C 2^22 x32 and C2C 2^21 x64, our passes
# (generator v40) against cuFFT's kernels.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
export PATH=$PATH:/usr/local/cuda/bin
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis_Tables"
prof() { # tag n batch kind variant regex count
  timeout 110 ncu --clock-control none -k "$6" --launch-count $7 $sections $B/fftmux run --shape $2 --batch $3 --kind $4 --placement device --backend cuda --variant $5 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1
  cp $R/ncu-$1.txt $OUT/
}
prof r2c4194304-native 4194304 32 r2c native regex:fftmux 2
prof r2c4194304-cufft 4194304 32 r2c cufft 'regex:^[^f]' 3
prof c2c2097152-native 2097152 64 c2c native regex:fftmux 2
prof c2c2097152-cufft 2097152 64 c2c cufft 'regex:^[^f]' 3
