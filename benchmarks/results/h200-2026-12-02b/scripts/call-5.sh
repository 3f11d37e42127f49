#!/bin/bash
# Call 5 (2026-12-02b, 0996d3d staged with the hooks FX_NO_ROWS and FX_COL=L,
# which forces a four-step chain's column length): the other factor order
# at 2^19, 2^23 and 2^24 on CUDA.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b5.txt; }
v() { echo "$* $(export $1; shift; timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/b5_verify.txt; }
for k in 1 2; do
  t X=0 524288 256 cufft cuda
  for c in X=0 FX_COL=512; do t $c 524288 256 native cuda; done
  t X=0 8388608 16 cufft cuda
  for c in X=0 FX_COL=2048 "FX_COL=2048 FX_NO_ROWS=1"; do t "$c" 8388608 16 native cuda; done
  t X=0 16777216 8 cufft cuda
  for c in X=0 FX_COL=2048 FX_COL=1024; do t $c 16777216 8 native cuda; done
  pack c5
done
v FX_COL=512 --shape 524288 --batch 256 --backend cuda --variant native
v FX_COL=2048 --shape 8388608 --batch 16 --backend cuda --variant native
v FX_COL=2048 --shape 16777216 --batch 8 --backend cuda --variant native
pack c5
