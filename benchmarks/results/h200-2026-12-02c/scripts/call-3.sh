#!/bin/bash
# Call 3: column rule (lone_column) at 2^24 against the old plan (FX_COL3=4096);
# Vulkan/GL 2^21 first columns (FX_COL3); radix 49 (FX_MAXC=49) at 2401.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/c3.txt; }
v() { echo "$* $(export $1; shift; timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c3_verify.txt; }
for k in 1 2; do
  t X=0 16777216 8 cufft cuda
  for c in X=0 FX_COL3=4096; do t $c 16777216 8 native cuda; done
  t X=0 2097152 64 cufft cuda
  for be in vulkan opengl; do for c in X=0 FX_COL3=32 FX_COL3=64 FX_COL3=256; do t $c 2097152 64 default $be; done; done
  t X=0 2401 55900 cufft cuda
  t X=0 2401 55900 native cuda; t FX_MAXC=49 2401 55900 native cuda
  for be in vulkan opengl; do for c in X=0 FX_MAXC=49; do t $c 2401 55900 default $be; done; done
  pack c3
done
v X=0 --shape 16777216 --batch 8 --backend cuda --variant native
v FX_MAXC=49 --shape 2401 --batch 55900 --backend cuda --variant native
v FX_MAXC=49 --shape 2401 --batch 55900 --backend vulkan
pack c3
