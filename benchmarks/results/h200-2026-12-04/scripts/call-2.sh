#!/bin/bash
# Second call: the first call's experiments again (its plugin path was wrong).
# Columns of 2048 and 1024 in other group shapes under launch bounds
# (FFTMUX_EXP_BN/BT/BR, BT1/BR1, from .h200/exp: HEAD + exp7.patch).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c2; OLD=$PWD/.h200/exp/plugins
export PATH=$PATH:/usr/local/cuda/bin
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c2.txt >> $OUT/c2.txt; }
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c2_verify.txt; }
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
pack c2
