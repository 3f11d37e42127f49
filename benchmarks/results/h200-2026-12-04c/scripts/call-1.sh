#!/bin/bash
# First call (32nd session): variant long-real-columns (R2C 2^24 as 4096 x
# 2048) verified, timed against the default and cuFFT, and Nsight Compute of
# R2C 2^24 x1 (default, variant, cuFFT) to split the time between kernels.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
rm -f $R/*
CALL=c1; V=native-long-real-columns
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $OUT/c1_gpu.txt
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant $V --verify "$@" 2>&1 | tail -1)" >> $OUT/c1_verify.txt; }
v --shape 16777216 --batch 1 --kind r2c; v --shape 16777216 --batch 2 --kind r2c --shift both
v --shape 16777216 --batch 1 --kind r2c --in-place --norm ortho; v --shape 1048576 --batch 3 --kind r2c
v --shape 65536 --batch 7 --kind r2c --precision f64 --shift output; v --shape 1048576 --batch 2 --kind r2c --precision f64
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis_Tables"
prof() { # name variant kernel-regex
  timeout 90 ncu --clock-control none -k "$3" --launch-count 3 $S $B/fftmux run --shape 16777216 --batch 1 --kind r2c --placement device --backend cuda --variant $2 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1; echo "ncu $1 rc=$?" >> $OUT/c1_ncu.txt
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|Registers Per|Dynamic Shared|Achieved Occ|Block Size|Grid Size|L2 Hit|Mem Busy" $R/ncu-$1.txt | sed 's/  */ /g' | cut -c1-160 >> $OUT/c1_ncu.txt; }
prof native native regex:fftmux
prof variant $V regex:fftmux
prof cufft cufft 'regex:^[^f]'
set -- "16777216 8" "16777216 2" "16777216 1" "1048576 128" "8388608 16" "4194304 32"
for rep in 1 2; do
  for p in "$@"; do
    read n b <<< "$p"
    t $n $b native cuda --kind r2c; t $n $b $V cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
done
t 65536 2048 native cuda --kind r2c --precision f64; t 65536 2048 $V cuda --kind r2c --precision f64; t 65536 2048 cufft cuda --kind r2c --precision f64
pack c1
