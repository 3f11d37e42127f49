#!/bin/bash
# First call: columns of 2048 (C2C 2^21, 2^22, R2C 2^22) and of 1024 (C2C
# 2^20) in other group shapes under launch bounds (FFTMUX_EXP_BN/BT/BR,
# BT1/BR1, from .h200/exp: HEAD + exp7.patch); Nsight Compute of C2C 2^20
# at v39; then gpu_check.sh at v39.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1; OLD=$PWD/.h200/exp # as it ran; the plugins are in exp/plugins, so the FFTMUX_EXP lines of c1.txt are empty and c1_verify.txt says no backend cuda (call 2 ran them again)
export PATH=$PATH:/usr/local/cuda/bin
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c1.txt >> $OUT/c1.txt; }
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c1_verify.txt; }
A="FFTMUX_EXP_BN=2048 FFTMUX_EXP_BT=4 FFTMUX_EXP_BR=2"
C="FFTMUX_EXP_BN=2048 FFTMUX_EXP_BT=2 FFTMUX_EXP_BR=4"
D="FFTMUX_EXP_BT1=4 FFTMUX_EXP_BR1=4"
F="FFTMUX_EXP_BT1=16 FFTMUX_EXP_BR1=1"
v "$A" --shape 2097152 --batch 2 --shift both; v "$A" --shape 4194304 --batch 2 --kind r2c
v "$D" --shape 1048576 --batch 3 --shift both; v "$F" --shape 1048576 --batch 3
for rep in 1 2; do
  for spec in "2097152 c2c" "4194304 c2c" "4194304 r2c"; do
    set -- $spec; n=$1; k=$2; b=$(((1 << 27) / n))
    t $n $b native cuda --kind $k; e "$A" $n $b native cuda --kind $k; e "$C" $n $b native cuda --kind $k; t $n $b cufft cuda --kind $k
  done
  n=1048576; b=128
  t $n $b native cuda; e "$D" $n $b native cuda; e "$F" $n $b native cuda; t $n $b cufft cuda
done
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables"
timeout 100 ncu --clock-control none -k regex:fftmux --launch-count 2 $sections $B/fftmux run --shape 1048576 --batch 128 --placement device --backend cuda --variant native --repeat 1 --warmup 0 > $R/ncu-c2c1048576-native.txt 2>&1
pack c1
OUT=$OUT/gpu-logs timeout 300 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c1_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c1_failures.txt
rm -rf $OUT/gpu-logs
