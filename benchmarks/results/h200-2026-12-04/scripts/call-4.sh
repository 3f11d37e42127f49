#!/bin/bash
# Fourth call: C2C 2^20's columns of 1024 as 16 lines in one group
# (FFTMUX_EXP_BT1=16 BR1=1, .h200/exp) against v39 and cuFFT over batches
# 1-128: where do too few groups undo it?
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c4; OLD=$PWD/.h200/exp/plugins
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c4.txt >> $OUT/c4.txt; }
F="FFTMUX_EXP_BT1=16 FFTMUX_EXP_BR1=1"
for rep in 1 2; do
  for b in 1 2 4 8 16 32 128; do
    t 1048576 $b native cuda; e "$F" 1048576 $b native cuda; t 1048576 $b cufft cuda
  done
  t 1024x1024 64 native cuda; e "$F" 1024x1024 64 native cuda
done
pack c4
