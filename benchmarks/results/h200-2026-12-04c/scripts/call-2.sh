#!/bin/bash
# Second call: generator v42 (thin_rows: R2C 2^24 F32 and F64 65536 take
# the longer columns by default): gpu_check.sh, Vulkan's changed F64 kernel
# verified and timed against v41 ($OLD); R2C 2^22-2^24 against the variant
# mirror-pass and cuFFT; Nsight Compute of R2C 2^22 and 2^23 x1.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
rm -f $R/*
CALL=c2; OLD=$PWD/.h200/old/plugins
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c2_verify.txt; }
v --backend vulkan --shape 65536 --batch 7 --kind r2c --precision f64 --shift output
v --backend vulkan --shape 65536 --batch 3 --kind r2c --precision f64 --in-place --norm ortho
v --backend cuda --shape 65536 --batch 5 --kind r2c --precision f64 --in-place --shift both
v --backend cuda --shape 16777216 --batch 3 --kind r2c --norm ortho
OUT=$OUT/gpu-logs timeout 300 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c2_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c2_failures.txt
rm -rf $OUT/gpu-logs
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis_Tables"
prof() { # name n variant kernel-regex
  timeout 90 ncu --clock-control none -k "$4" --launch-count 3 $S $B/fftmux run --shape $2 --batch 1 --kind r2c --placement device --backend cuda --variant $3 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1; echo "ncu $1 rc=$?" >> $OUT/c2_ncu.txt
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|Registers Per|Dynamic Shared|Achieved Occ|Block Size|Grid Size" $R/ncu-$1.txt | sed 's/  */ /g' | cut -c1-160 >> $OUT/c2_ncu.txt; }
prof native-2^23 8388608 native regex:fftmux
prof cufft-2^23 8388608 cufft 'regex:^[^f]'
prof native-2^22 4194304 native regex:fftmux
prof cufft-2^22 4194304 cufft 'regex:^[^f]'
for rep in 1 2; do
  t 16777216 8 native cuda --kind r2c; o 16777216 8 cuda native --kind r2c
  t 16777216 8 native-mirror-pass cuda --kind r2c; t 16777216 8 cufft cuda --kind r2c
  for p in "8388608 16" "4194304 32"; do
    read n b <<< "$p"
    t $n $b native cuda --kind r2c; t $n $b native-mirror-pass cuda --kind r2c; t $n $b cufft cuda --kind r2c
  done
  t 65536 2048 default vulkan --kind r2c --precision f64; o 65536 2048 vulkan default --kind r2c --precision f64
  t 65536 2048 native cuda --kind r2c --precision f64; t 65536 2048 cufft cuda --kind r2c --precision f64
done
pack c2
