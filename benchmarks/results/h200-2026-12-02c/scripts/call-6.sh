#!/bin/bash
# Call 6: radix 49 through the plugin (native_limits now applies the CUDA dialect's limits).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { echo "$* $(one "$@")" | tee -a $R/c6.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c6_verify.txt; }
for k in 1 2 3; do t 2401 55900 cufft cuda; t 2401 55900 native cuda; done
v --shape 2401 --batch 55900 --backend cuda --variant native
v --shape 2401 --batch 1000 --backend cuda --variant native --direction inverse
v --shape 2401 --batch 1000 --backend cuda --variant native --kind r2c
v --shape 4802 --batch 1000 --backend cuda --variant native --kind r2c --shift both
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -9 | tee $R/c6_gpu_check.txt
pack c6
