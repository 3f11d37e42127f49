#!/bin/bash
# Call 7: the CUDA suites once more, with the warm-plan test as the best of five.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -9 | tee $R/c7_gpu_check.txt
grep "native plan" $OUT/gpu-logs/cuda_gpu.log | tee -a $R/c7_gpu_check.txt
pack c7
