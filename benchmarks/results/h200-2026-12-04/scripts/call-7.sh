#!/bin/bash
# Seventh call: 2^21-point lines as cuFFT splits them, columns of 1024 (the
# bound shape) and rows of 2048 (FFTMUX_EXP_N1=1024 for NN=2097152), with
# the rows at 4 lines a group and two groups an SM (RL=2048 RT=4 RR=2), from
# .h200/exp (HEAD + exp8.patch): C2C 2^21, R2C 2^22, C2R 2^22.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c7; OLD=$PWD/.h200/exp/plugins
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c7.txt >> $OUT/c7.txt; }
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c7_verify.txt; }
P="FFTMUX_EXP_N1=1024 FFTMUX_EXP_NN=2097152"
Q="FFTMUX_EXP_N1=1024 FFTMUX_EXP_NN=2097152 FFTMUX_EXP_RL=2048 FFTMUX_EXP_RT=4 FFTMUX_EXP_RR=2"
for x in "$P" "$Q"; do
  v "$x" --shape 2097152 --batch 2 --shift both; v "$x" --shape 4194304 --batch 2 --kind r2c --shift both; v "$x" --shape 4194304 --batch 2 --kind c2r
done
for rep in 1 2; do
  for spec in "2097152 c2c" "4194304 r2c" "4194304 c2r"; do
    set -- $spec; n=$1; k=$2; b=$(((1 << 27) / n))
    t $n $b native cuda --kind $k; e "$P" $n $b native cuda --kind $k; e "$Q" $n $b native cuda --kind $k; t $n $b cufft cuda --kind $k
  done
done
pack c7
