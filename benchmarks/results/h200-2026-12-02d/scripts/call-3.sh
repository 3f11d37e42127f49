#!/bin/bash
# Call 3: radix 32 for 512-point lines on CUDA (FX_FROM=512) against the
# column choices of call 2 (FX_COL2); 2^22 with rows or columns of 1024.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/c3.txt; }
s() { # N BATCH [HOOK...] [--kind K]
  local n=$1 b=$2 c k=() hooks=(); shift 2
  while [ $# -gt 0 ]; do [ "$1" = --kind ] && { k=(--kind $2); break; }; hooks+=("$1"); shift; done
  t X=0 $n $b cufft cuda "${k[@]}"; for c in X=0 "${hooks[@]}"; do t $c $n $b native cuda "${k[@]}"; done
}
for k in 1 2; do
  s 512 262144 FX_FROM=512
  s 131072 1024 FX_FROM=512 FX_COL2=128
  s 262144 512 FX_FROM=512 FX_COL2=256
  s 524288 256 FX_FROM=512
  s 4194304 32 FX_COL2=1024 FX_COL2=4096
  s 16777216 8 FX_FROM=512
  s 512x512x512 1 FX_FROM=512
  s 512x512 512 FX_FROM=512
  s 1048576 128 FX_FROM=512 --kind r2c
  s 262144 512 FX_FROM=512 --kind r2c
  pack c3
done
# The CUDA suites with radix 32 on 512-point lines (FX_FROM=512).
export FX_FROM=512
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -15 | tee $R/c3_gpu_check_from512.txt
pack c3
