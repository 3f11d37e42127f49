#!/bin/bash
# Third call: Nsight Compute of R2C 4096 and 8192 (native, cuFFT), and
# launch-bound / lines-a-group sweeps from .h200/exp (HEAD + .h200/exp2.patch:
# FFTMUX_EXP_RESIDENT, FFTMUX_EXP_TEAMS, FFTMUX_EXP_VPT).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3; OLD=$PWD/.h200/exp
export PATH=$PATH:/usr/local/cuda/bin
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis"
prof() { # tag n batch variant regex
  timeout 100 ncu --clock-control none -k "$5" --launch-count 1 $sections $B/fftmux run --kind r2c --shape $2 --batch $3 --placement device --backend cuda --variant $4 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1
}
prof r2c4096-native 4096 32768 native regex:fftmux
prof r2c4096-cufft 4096 32768 cufft 'regex:^[^f]'
prof r2c8192-native 8192 16384 native regex:fftmux
prof r2c8192-cufft 8192 16384 cufft 'regex:^[^f]'
pack c3
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
for rep in 1 2; do
  t 4096 32768 native cuda --kind r2c
  for x in FFTMUX_EXP_RESIDENT=11 FFTMUX_EXP_RESIDENT=12 FFTMUX_EXP_TEAMS=2; do e $x 4096 32768 native cuda --kind r2c; done
  t 4096 32768 cufft cuda --kind r2c
  t 8192 16384 native cuda --kind r2c
  e FFTMUX_EXP_RESIDENT=6 8192 16384 native cuda --kind r2c
  t 8192 16384 cufft cuda --kind r2c
done
t 16384 8192 native cuda; t 16384 8192 native-radix16 cuda; t 16384 8192 cufft cuda
pack c3
