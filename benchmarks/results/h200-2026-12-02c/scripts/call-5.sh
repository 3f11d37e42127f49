#!/bin/bash
# Call 5 (generator v21 as committed, no hooks): the CUDA suites (gpu_check),
# then the changed plans' figures with their peers, each verified once.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -15 | tee $R/c5_gpu_check.txt
t() { echo "$* $(one "$@")" | tee -a $R/c5.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c5_verify.txt; }
for k in 1 2; do
  t 16777216 8 cufft cuda; t 16777216 8 native cuda
  t 2401 55900 cufft cuda; t 2401 55900 native cuda
  for n in 2097152 4194304 8388608; do b=$(( (1<<27) / n ))
    t $n $b cufft cuda; t $n $b default vulkan; t $n $b default opengl
  done
  pack c5
done
v --shape 2401 --batch 55900 --backend cuda --variant native
v --shape 2097152 --batch 64 --backend opengl
v --shape 4194304 --batch 32 --backend opengl
pack c5
