#!/bin/bash
# Call 4: radix 49 on CUDA at other multiples of 49 (FX_NO49=1: the plans before);
# GL (and Vulkan) chains' first column (FX_COL3) at 2^20, 2^22-2^24.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/c4.txt; }
v() { echo "$* $(export $1; shift; timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c4_verify.txt; }
for k in 1 2; do
  for n in 1568 2058 2744 3430 4802 9604 12005; do b=$(( (1<<27) / n )); for c in FX_NO49=1 X=0; do t $c $n $b native cuda; done; done
  for c in FX_NO49=1 X=0; do t $c 4802 27950 native cuda --kind r2c; done
  for n in 1048576 4194304 8388608 16777216; do b=$(( (1<<27) / n ))
    for c in X=0 FX_COL3=32 FX_COL3=64; do t $c $n $b default opengl; done
  done
  pack c4
done
for n in 2058 4802 12005; do v X=0 --shape $n --batch 1000 --backend cuda --variant native; done
v FX_COL3=32 --shape 16777216 --batch 8 --backend opengl
pack c4
