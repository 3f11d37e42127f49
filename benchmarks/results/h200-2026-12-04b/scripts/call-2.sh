#!/bin/bash
# Second call: generator v41 (split half tables for the real steps of long
# lines; butterfly tails in the bound columns of 1024) against v40
# (.h200/old/plugins) and cuFFT: R2C and C2R 2^17..2^24, C2C 2^19/2^20,
# F64 R2C; --verify of v41's changed kernels first.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c2; OLD=$PWD/.h200/old/plugins
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c2_verify.txt; }
for n in 131072 1048576 4194304 16777216; do
  v --shape $n --batch 3 --kind r2c; v --shape $n --batch 2 --kind c2r --shift both --norm ortho
done
v --shape 8388608 --batch 2 --kind r2c --shift output --in-place; v --shape 2097152 --batch 3 --kind c2r
v --shape 4194304 --batch 2 --kind r2c --precision f64; v --shape 16777216 --batch 1 --kind c2r --precision f64
v --shape 1048576 --batch 3 --shift both; v --shape 524288 --batch 3 --kind r2c --in-place
set -- "1048576 128" "1048576 16" "1048576 1" "524288 256"
for k in r2c c2r; do for e in 17 18 19 20 21 22 23 24; do set -- "$@" "$((1 << e)) $((1 << (27 - e))) --kind $k"; done; done
set -- "$@" "1048576 64 --kind r2c --precision f64" "4194304 16 --kind r2c --precision f64"
for rep in 1 2; do
  for p in "$@"; do
    read n b rest <<< "$p"
    t $n $b native cuda $rest; o $n $b cuda native $rest; t $n $b cufft cuda $rest
  done
done
pack c2
