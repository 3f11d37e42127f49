#!/bin/bash
# Call 3 (2026-12-01b): Nsight Compute on 1024x1024 x64 (native, x-split,
# two-groups), 1000 and 6000 (native and cuFFT's kernels); cuda_bench of the
# x-* variants on the smooth sizes and 2D.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables"
prof() { # name shape batch variant kernel-regex
  timeout 60 ncu --clock-control none -k "$5" --launch-count 2 $S $B/fftmux run --shape $2 --batch $3 --placement device --backend cuda --variant $4 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1; echo "ncu $1 rc=$?"
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Dynamic Shared|Theoretical Occ|Achieved Occ|bank conflicts|Warp Cycles Per Issued" $R/ncu-$1.txt | sed 's/  */ /g' | cut -c1-160; }
prof 2d-native 1024x1024 64 native regex:fftmux
prof 2d-x-split 1024x1024 64 native-x-split regex:fftmux
prof 2d-two-groups 1024x1024 64 native-two-groups regex:fftmux
prof 1000-native 1000 134217 native regex:fftmux
prof 1000-cufft 1000 134217 cufft 'regex:^[^f]'
prof 6000-native 6000 22369 native regex:fftmux
prof 6000-cufft 6000 22369 cufft 'regex:^[^f]'
M="c2c f32 1000 x|c2c f32 2187 x|c2c f32 2401 x|c2c f32 3125 x|c2c f32 6000 x|c2c f32 8192 x|c2c f32 16384 x|c2c f32 1024x1024 x|c2c f32 4096x4096 x|r2c f32 16384 x"
timeout 280 $B/cuda_bench --all-variants --repeats 9 --warmup 0.3 --match "$M" > $R/cuda.txt 2>&1; echo "cuda_bench rc=$?"
grep -E "^(1d|2d|r2c)" $R/cuda.txt | grep -v shift | sed 's/  */ /g' | awk '{n=$4; e=""; for(i=6;i<=NF;i++){if($i ~ /^[0-9.]+$/ && $(i+1)=="ms"){ms=$i; break}; e=e $i " "} print $2, n, e, ms}' | sort -k2,2 -k5,5n
pack c3
