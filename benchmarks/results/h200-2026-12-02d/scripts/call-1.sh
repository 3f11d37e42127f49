#!/bin/bash
# Call 1: two-pass column lengths (FX_COL2) at 2^18, 2^20, 2^21; lines a
# group (FX_GT, the CUDA default 64 threads) at 2187, 2401, 1000, 3125.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/c1.txt; }
for k in 1 2; do
  t X=0 262144 512 cufft cuda
  for c in X=0 FX_COL2=256 FX_COL2=1024 FX_COL2=2048; do t $c 262144 512 native cuda; done
  t X=0 1048576 128 cufft cuda
  for c in X=0 FX_COL2=512 FX_COL2=2048 FX_COL2=4096 FX_COL2=256; do t $c 1048576 128 native cuda; done
  t X=0 2097152 64 cufft cuda
  for c in X=0 FX_COL2=512 FX_COL2=4096; do t $c 2097152 64 native cuda; done
  t X=0 2187 61356 cufft cuda
  for c in X=0 FX_GT=192 FX_GT=256; do t $c 2187 61356 native cuda; done
  t X=0 2401 55900 cufft cuda
  for c in X=0 FX_GT=128 FX_GT=192 FX_GT=256; do t $c 2401 55900 native cuda; done
  t X=0 1000 134217 cufft cuda
  for c in X=0 FX_GT=256; do t $c 1000 134217 native cuda; done
  t X=0 3125 42949 cufft cuda
  for c in X=0 FX_GT=256; do t $c 3125 42949 native cuda; done
  pack c1
done
