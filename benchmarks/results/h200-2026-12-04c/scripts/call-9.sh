#!/bin/bash
# Ninth call (v42, 5113656): Nsight Compute of R2C 2^24 x1, the post pass
# with mirror chunks against cuFFT's post kernel.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
rm -f $R/*
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis_Tables"
prof() { # name variant kernel-regex
  timeout 90 ncu --clock-control none -k "$3" --launch-count 3 $S $B/fftmux run --shape 16777216 --batch 1 --kind r2c --placement device --backend cuda --variant $2 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1; echo "ncu $1 rc=$?" >> $OUT/c9_ncu.txt
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache|Registers Per|Achieved Occ|Grid Size|bytes transmitted" $R/ncu-$1.txt | sed 's/  */ /g' | cut -c1-160 >> $OUT/c9_ncu.txt; }
prof native native regex:fftmux
prof cufft cufft 'regex:^[^f]'
pack c9
