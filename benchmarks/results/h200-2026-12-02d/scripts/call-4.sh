#!/bin/bash
# Call 4 (rows_of_1024 as committed, no hooks): the CUDA suites, then the
# changed plans (2^17, 2^18; R2C and C2R of 2^18 and 2^19) beside cuFFT,
# each verified once.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c4_gpu_check.txt
t() { echo "$* $(one "$@")" | tee -a $R/c4.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c4_verify.txt; }
for k in 1 2; do
  for p in "131072 1024" "262144 512"; do t $p cufft cuda; t $p native cuda; done
  for p in "262144 512" "524288 256"; do for kd in r2c c2r; do t $p cufft cuda --kind $kd; t $p native cuda --kind $kd; done; done
  pack c4
done
v --shape 131072 --batch 1024 --backend cuda --variant native
v --shape 262144 --batch 512 --backend cuda --variant native --direction inverse
v --shape 524288 --batch 256 --backend cuda --variant native --kind r2c
v --shape 262144 --batch 512 --backend cuda --variant native --kind c2r
pack c4
