#!/bin/bash
# Call 1 (2026-12-02b, staged build with hooks FX_COL_* and FX_CONV_CHUNKS):
# CUDA four-step column-pass options at 2^18-2^22; GL Bluestein convolution
# exchanged in two chunks under GL's 64 KiB an SM.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b1.txt; }
for k in 1 2; do
  for c in X=0 FX_CONV_CHUNKS=1; do
    for n in 4093 4097 10007; do t $c $n $(( (1<<27) / n / 4 * 4 )) default opengl; done
  done
  pack c1
done
for n in 4093 4097 10007; do t X=0 $n $(( (1<<27) / n / 4 * 4 )) default vulkan; done
t FX_CONV_CHUNKS=1 4097 32764 default opengl --verify
pack c1
for k in 1 2; do
  for c in X=0 "FX_COL_RES=3" "FX_COL_RADIX=16 FX_COL_RES=2" FX_COL_TEAMS=16 "FX_COL_RADIX=16 FX_COL_TEAMS=4 FX_COL_RES=4"; do t "$c" 1048576 128 native cuda; done
  t X=0 1048576 128 cufft cuda
  for c in X=0 "FX_COL_TEAMS=16 FX_COL_RES=2" FX_COL_RES=4; do t "$c" 262144 512 native cuda; done
  t X=0 262144 512 cufft cuda
  for c in X=0 "FX_COL_TEAMS=4 FX_COL_RES=2" FX_COL_TEAMS=4; do t "$c" 4194304 32 native cuda; done
  t X=0 4194304 32 cufft cuda
  pack c1
done
