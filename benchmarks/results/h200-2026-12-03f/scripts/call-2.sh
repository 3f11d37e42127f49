#!/bin/bash
# Next session's second call: the checks at v38 (80add7f): gpu_check.sh
# (both correctness variants, fftmux_cuda_gpu_test) and the real half of
# the matrix on the H200's Vulkan and OpenGL.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c2
for be in vulkan opengl; do
  (FFTMUX_TEST_BACKEND=$be timeout 150 $B/fftmux_correctness --gtest_brief=1 --gtest_filter='*r2c*:*c2r*' > $OUT/c2_matrix_$be.txt 2>&1; echo "rc $?" >> $OUT/c2_matrix_$be.txt) &
done
wait
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c2_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c2_failures.txt
rm -rf $OUT/gpu-logs
