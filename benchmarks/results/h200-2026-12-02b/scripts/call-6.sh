#!/bin/bash
# Call 6 (2026-12-02b, the staged build of call 5): the other factor order
# at 2^17 and 2^21 on CUDA, and 2^19 as 512 x 1024 on Vulkan and GL.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b6.txt; }
for k in 1 2; do
  t X=0 131072 1024 cufft cuda
  for c in X=0 FX_COL=256; do t $c 131072 1024 native cuda; done
  t X=0 2097152 64 cufft cuda
  for c in X=0 FX_COL=1024; do t $c 2097152 64 native cuda; done
  for be in vulkan opengl; do for c in X=0 FX_COL=512; do t $c 524288 256 default $be; done; done
  pack c6
done
