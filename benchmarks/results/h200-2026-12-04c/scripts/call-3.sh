#!/bin/bash
# Third call: v42 as committed (R2C rows holding fewer than 8 lines take
# the mirror pass; F64 under CUDA the longer columns): its changed problems
# verified and timed against v41 ($OLD) and cuFFT; Nsight Compute of R2C
# 2^24 x1 (C2C 2^23 then the mirror pass) beside C2C 2^23 x1.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
rm -f $R/*
CALL=c3; OLD=$PWD/.h200/old/plugins
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c3_verify.txt; }
v --backend cuda --shape 8388608 --batch 2 --kind r2c --precision f64 --shift both
v --backend cuda --shape 16777216 --batch 2 --kind r2c --in-place --shift output
v --backend vulkan --shape 2097152 --batch 3 --kind r2c --shift both
v --backend vulkan --shape 524288 --batch 3 --kind r2c --precision f64 --in-place --norm ortho
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis_Tables"
prof() { # name n kind
  timeout 90 ncu --clock-control none -k regex:fftmux --launch-count 3 $S $B/fftmux run --shape $2 --batch 1 --kind $3 --placement device --backend cuda --variant native --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1; echo "ncu $1 rc=$?" >> $OUT/c3_ncu.txt
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|Registers Per|Dynamic Shared|Achieved Occ|Block Size|Grid Size" $R/ncu-$1.txt | sed 's/  */ /g' | cut -c1-160 >> $OUT/c3_ncu.txt; }
prof r2c-2^24 16777216 r2c
prof c2c-2^23 8388608 c2c
for rep in 1 2; do
  t 8388608 16 native cuda --kind r2c --precision f64; o 8388608 16 cuda native --kind r2c --precision f64
  t 8388608 16 cufft cuda --kind r2c --precision f64
  t 2097152 64 default vulkan --kind r2c; o 2097152 64 vulkan default --kind r2c
  t 524288 256 default vulkan --kind r2c --precision f64; o 524288 256 vulkan default --kind r2c --precision f64
  for b in 2 1; do t 16777216 $b native cuda --kind r2c; t 16777216 $b cufft cuda --kind r2c; done
done
pack c3
