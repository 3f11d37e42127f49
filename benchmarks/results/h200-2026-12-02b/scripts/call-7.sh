#!/bin/bash
# Call 7 (2026-12-02b, the column tie rule staged with the hook FX_OLD_TIE=1,
# the comparison before it): CUDA 2^19 and 2^23 by default, verified; the
# Vulkan and GL three-pass plans the rule changes (2^22, 2^23).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b7.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/b7_verify.txt; }
for k in 1 2; do
  for n in 4194304 8388608; do
    for be in vulkan opengl; do for c in FX_OLD_TIE=1 X=0; do t $c $n $(( (1<<27) / n )) default $be; done; done
  done
  for n in 524288 8388608; do t X=0 $n $(( (1<<27) / n )) cufft cuda; t X=0 $n $(( (1<<27) / n )) native cuda; done
  pack c7
done
v --shape 524288 --batch 256 --backend cuda --variant native --direction inverse
v --shape 8388608 --batch 16 --backend vulkan
pack c7
