#!/bin/bash
# Fourth call: R2C's post exchange split into components (FFTMUX_EXP_SPLITPOST)
# or unpadded (FFTMUX_EXP_UNPADPOST), from .h200/exp (HEAD + .h200/exp3.patch).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c4; OLD=$PWD/.h200/exp
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --kind r2c --verify "$@" 2>&1 | tail -1)" >> $OUT/c4_verify.txt; }
for env in FFTMUX_EXP_SPLITPOST=1 FFTMUX_EXP_UNPADPOST=1 "FFTMUX_EXP_SPLITPOST=1 FFTMUX_EXP_RESIDENT=10"; do
  for n in 2048 4096 8192 16384 32768; do v "$env" --shape $n --batch 7 --shift both; done
  v "$env" --shape 4096 --batch 32768 --placement device
  v "$env" --shape 8192 --batch 16384 --placement device --norm ortho
done
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c4.txt >> $OUT/c4.txt; }
S=FFTMUX_EXP_SPLITPOST=1
for rep in 1 2; do
  t 4096 32768 native cuda --kind r2c
  for x in FFTMUX_EXP_UNPADPOST=1 $S "$S FFTMUX_EXP_RESIDENT=10"; do e "$x" 4096 32768 native cuda --kind r2c; done
  t 4096 32768 cufft cuda --kind r2c
  t 8192 16384 native cuda --kind r2c
  for x in FFTMUX_EXP_UNPADPOST=1 $S; do e "$x" 8192 16384 native cuda --kind r2c; done
  t 8192 16384 cufft cuda --kind r2c
  t 2048 65536 native cuda --kind r2c; e $S 2048 65536 native cuda --kind r2c; t 2048 65536 cufft cuda --kind r2c
  t 16384 8192 native cuda --kind r2c; e $S 16384 8192 native cuda --kind r2c
  e "$S FFTMUX_EXP_RESIDENT=3" 16384 8192 native cuda --kind r2c; t 16384 8192 cufft cuda --kind r2c
  t 32768 4096 native cuda --kind r2c; e $S 32768 4096 native cuda --kind r2c; t 32768 4096 cufft cuda --kind r2c
done
pack c4
