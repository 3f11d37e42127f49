#!/bin/bash
# Next session's first call: generator v35 (long real lines fold their
# pre/post step into the chain) against its own variant mirror-pass (v34's
# kernels exactly) and cuFFT, one process each; then the real half of the
# matrix on Vulkan and OpenGL and the CUDA checks.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1
for rep in 1 2; do
  for k in r2c c2r; do
    for n in 1048576 131072 65536 262144 2097152; do
      b=$(((1 << 27) / n))
      for v in native native-mirror-pass cufft; do t $n $b $v cuda --kind $k; done
    done
  done
  pack c1
done
for k in r2c c2r; do for v in native native-mirror-pass; do t 1048576 64 $v cuda --kind $k --precision f64; done; done
for be in vulkan opengl; do for k in r2c c2r; do for v in default mirror-pass; do t 1048576 128 $v $be --kind $k; done; done; done
pack c1
for k in r2c c2r; do for n in 65536 1048576 2097152; do for p in f32 f64; do
  timeout 60 $B/fftmux run --shape $n --batch 3 --backend cuda --variant native --kind $k --precision $p --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/cuda $n $k $p /" >> $OUT/c1.txt
done; done; done
for be in vulkan opengl; do
  (FFTMUX_TEST_BACKEND=$be timeout 150 $B/fftmux_correctness --gtest_brief=1 --gtest_filter='*r2c*:*c2r*' > $OUT/c1_matrix_$be.txt 2>&1; echo "rc $?" >> $OUT/c1_matrix_$be.txt) &
done
wait
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 >> $OUT/c1.txt
pack c1
