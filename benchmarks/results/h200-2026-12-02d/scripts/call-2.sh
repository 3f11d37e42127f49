#!/bin/bash
# Call 2: two-pass column lengths (FX_COL2, from 2^15) at 65536-2^23; two
# lines a group (FX_GT=128) at other lines of 33-63 threads; 2^18's 256 and
# 2401's two lines verified.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/c2.txt; }
v() { echo "$* $(export $1; shift; timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c2_verify.txt; }
s() { local n=$1 b=$2; shift 2; t X=0 $n $b cufft cuda; for c in X=0 "$@"; do t $c $n $b native cuda; done; }
for k in 1 2; do
  s 65536 2048 FX_COL2=64 FX_COL2=128 FX_COL2=512 FX_COL2=1024
  s 131072 1024 FX_COL2=128 FX_COL2=1024
  s 262144 512 FX_COL2=256 FX_COL2=128
  s 524288 256 FX_COL2=256 FX_COL2=128
  s 1048576 128 FX_COL2=128
  s 2097152 64 FX_COL2=256
  s 4194304 32 FX_COL2=256 FX_COL2=512
  s 8388608 16 FX_COL2=512
  s 1323 101452 FX_GT=128
  s 2058 65217 FX_GT=128
  s 1568 85598 FX_GT=128
  s 2401 55900 FX_GT=128
  pack c2
done
v FX_COL2=256 --shape 262144 --batch 512 --backend cuda --variant native
v FX_GT=128 --shape 2401 --batch 55900 --backend cuda --variant native
pack c2
