#!/bin/bash
# Fifth call: generator v40 (c42024a, pairs_sm) against v39 (.h200/exp,
# HEAD~ + exp7.patch, no experiment set) and cuFFT on C2R 2^20 over
# batches; C2C 2^20 at batch 64 with 16-line columns (the fourth call's
# question); then gpu_check.sh at v40.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c5; OLD=$PWD/.h200/exp/plugins
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c5.txt >> $OUT/c5.txt; }
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c5_verify.txt; }
v --shape 1048576 --batch 3 --kind c2r; v --shape 1048576 --batch 4 --kind c2r --in-place --norm ortho
v --shape 1048576 --batch 2 --kind c2r --shift both; v --shape 1048576 --batch 1 --kind c2r
for rep in 1 2; do
  for b in 128 16 1; do
    t 1048576 $b native cuda --kind c2r; o 1048576 $b cuda native --kind c2r; t 1048576 $b cufft cuda --kind c2r
  done
  t 1048576 64 native cuda; e "FFTMUX_EXP_BT1=16 FFTMUX_EXP_BR1=1" 1048576 64 native cuda; t 1048576 64 cufft cuda
done
pack c5
OUT=$OUT/gpu-logs timeout 300 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c5_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c5_failures.txt
rm -rf $OUT/gpu-logs
