#!/bin/bash
# Call 3 (2026-12-02b, generator v20 = 93b211d, staged with the hook
# FX_NO_ROWS=1 that plans v19's four-step twiddles): v20 against v19 and
# cuFFT on the chain sizes, CUDA, Vulkan, GL; verified runs; then the CUDA
# suites (tests/cuda/gpu_check.sh).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b3.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/b3_verify.txt; }
for k in 1 2; do
  for n in 65536 131072 262144 524288 1048576 2097152 4194304 8388608 16777216; do
    b=$(( (1<<27) / n ))
    t X=0 $n $b cufft cuda
    for c in FX_NO_ROWS=1 X=0; do t $c $n $b native cuda; done
  done
  pack c3
done
for n in 32768 65536 262144 1048576 4194304 16777216 10007; do
  b=$(( (1<<27) / n / 4 * 4 ))
  for be in vulkan opengl; do for c in FX_NO_ROWS=1 X=0; do t $c $n $b default $be; done; done
done
pack c3
for n in 262144 1048576 4194304 16777216; do v --shape $n --batch $(( (1<<27) / n )) --backend cuda --variant native; done
v --shape 1048576 --batch 64 --backend cuda --variant native --precision f64
v --shape 4194304 --batch 32 --backend cuda --variant native --direction inverse
v --shape 1048576 --batch 128 --backend vulkan
v --shape 10007 --batch 13412 --backend opengl --direction inverse
pack c3
OUT=$OUT/gpu-logs timeout 280 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/b3_gpu_check.txt
pack c3
