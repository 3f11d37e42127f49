#!/bin/bash
# Call 4 (2026-12-02b, 0996d3d staged with the hook FX_NO_ROWS=1, which
# plans v19's four-step twiddles): v20's rule against v19 and cuFFT on the
# chain sizes (CUDA, Vulkan, GL); the warm-plan test alone; CUDA suites.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b4.txt; }
for k in 1 2; do
  for n in 65536 131072 262144 524288 1048576 2097152 4194304 8388608 16777216; do
    b=$(( (1<<27) / n ))
    t X=0 $n $b cufft cuda
    for c in FX_NO_ROWS=1 X=0; do t $c $n $b native cuda; done
  done
  pack c4
done
for n in 131072 262144 524288 1048576 2097152 4194304 8388608 16777216 10007 12800; do
  b=$(( (1<<27) / n / 4 * 4 ))
  for be in vulkan opengl; do for c in FX_NO_ROWS=1 X=0; do t $c $n $b default $be; done; done
done
pack c4
for k in 1 2; do timeout 120 $B/fftmux_cuda_gpu_test --gtest_filter='CudaNative.WarmPlan*:CudaDevice.*' 2>&1 | grep -E "native plan|OK|FAILED|Failure" | tee -a $R/b4_warm.txt; done
pack c4
OUT=$OUT/gpu-logs timeout 250 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -9 | tee $R/b4_gpu_check.txt
pack c4
