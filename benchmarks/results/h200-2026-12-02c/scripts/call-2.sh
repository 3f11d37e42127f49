#!/bin/bash
# Call 2: three passes of 256-point class columns at 2^22-2^24 (hook FX_COL3=L forces
# the first column length of a line of 2^18 or more; the rest chains as the planner does).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/c2.txt; }
v() { echo "$* $(export $1; shift; timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c2_verify.txt; }
for k in 1 2; do
  t X=0 16777216 8 cufft cuda
  for c in X=0 FX_COL3=256 FX_COL3=128 FX_COL3=512; do t $c 16777216 8 native cuda; done
  t X=0 8388608 16 cufft cuda
  for c in X=0 FX_COL3=128 FX_COL3=256; do t $c 8388608 16 native cuda; done
  t X=0 4194304 32 cufft cuda
  for c in X=0 FX_COL3=64 FX_COL3=256; do t $c 4194304 32 native cuda; done
  pack c2
done
v FX_COL3=256 --shape 16777216 --batch 8 --backend cuda --variant native
v FX_COL3=128 --shape 8388608 --batch 16 --backend cuda --variant native
pack c2
