#!/bin/bash
# Call 2: v36 (R2C chain rows read the post step's roots in their order;
# mirror kernels aim for twice the lines) against v35 ($OLD), mirror-pass
# (v34's kernels) and cuFFT; then verification and the real half of the
# matrix on the H200's Vulkan and OpenGL.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c2; OLD=$PWD/.h200/old
for k in r2c c2r; do
  for n in 1048576 65536 131072 262144 2097152; do
    b=$(((1 << 27) / n))
    t $n $b native cuda --kind $k; o $n $b cuda native --kind $k
    t $n $b native-mirror-pass cuda --kind $k; t $n $b cufft cuda --kind $k
  done
  pack c2
done
for k in r2c c2r; do t 1048576 64 native cuda --kind $k --precision f64; o 1048576 64 cuda native --kind $k --precision f64; done
for be in vulkan opengl; do for k in r2c c2r; do t 1048576 128 default $be --kind $k; o 1048576 128 $be default --kind $k; done; done
pack c2
for k in r2c c2r; do for n in 65536 131072 1048576 2097152; do for p in f32 f64; do
  timeout 60 $B/fftmux run --shape $n --batch 3 --backend cuda --variant native --kind $k --precision $p --shift both --verify --repeat 1 2>&1 | grep -i verif | sed "s/^/cuda $n $k $p /" >> $OUT/c2.txt
done; done; done
pack c2
for be in vulkan opengl; do
  (FFTMUX_TEST_BACKEND=$be timeout 120 $B/fftmux_correctness --gtest_brief=1 --gtest_filter='*r2c*:*c2r*' > $OUT/c2_matrix_$be.txt 2>&1; echo "rc $?" >> $OUT/c2_matrix_$be.txt) &
done
wait
