#!/bin/bash
# Sixth call: the strided first pass of 2^20 at cuFFT's shape (512 threads of
# 16 values, two groups an SM: radix16 with FFTMUX_EXP_R0=2, a launch bound on
# pass 0 only) and three groups of the default's (FFTMUX_EXP_R0=3), from
# .h200/exp (HEAD + .h200/exp4.patch).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c6; OLD=$PWD/.h200/exp
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c6.txt >> $OUT/c6.txt; }
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --verify "$@" 2>&1 | tail -1)" >> $OUT/c6_verify.txt; }
v FFTMUX_EXP_R0=2 --variant native-radix16 --shape 1048576 --batch 3 --shift both
v FFTMUX_EXP_R0=3 --variant native-slot-addresses --shape 1048576 --batch 3
v FFTMUX_EXP_R0=3 --variant native --shape 1048576 --batch 3 --shift both
v FFTMUX_EXP_R0=3 --variant native --shape 2097152 --batch 2 --kind r2c
for rep in 1 2; do
  for k in c2c r2c; do
    [ $k = c2c ] && n=1048576 || n=2097152; b=$(((1 << 27) / n))
    t $n $b native cuda --kind $k
    e FFTMUX_EXP_R0=3 $n $b native cuda --kind $k
    t $n $b native-radix16 cuda --kind $k
    e FFTMUX_EXP_R0=2 $n $b native-radix16 cuda --kind $k
    t $n $b native-slot-addresses cuda --kind $k
    e FFTMUX_EXP_R0=3 $n $b native-slot-addresses cuda --kind $k
    t $n $b cufft cuda --kind $k
  done
done
pack c6
