#!/bin/bash
# Seventh call: chain column passes of 1024 F32 points as 64 threads of 16
# values (radix 16), two groups of 512 threads an SM (FFTMUX_EXP_COL16, from
# .h200/exp: HEAD + .h200/exp5.patch).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c7; OLD=$PWD/.h200/exp; X=FFTMUX_EXP_COL16=1
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c7.txt >> $OUT/c7.txt; }
v() { echo "== $* $(export $X FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c7_verify.txt; }
v --shape 1048576 --batch 3 --shift both; v --shape 2097152 --batch 2 --kind r2c --shift both
v --shape 2097152 --batch 2 --kind c2r --norm ortho; v --shape 524288 --batch 3 --kind r2c --in-place
for rep in 1 2; do
  for spec in "1048576 c2c" "2097152 r2c" "2097152 c2r" "524288 r2c"; do
    set -- $spec; n=$1; k=$2; b=$(((1 << 27) / n))
    t $n $b native cuda --kind $k; e $X $n $b native cuda --kind $k; t $n $b cufft cuda --kind $k
  done
done
pack c7
