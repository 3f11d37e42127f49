#!/bin/bash
# Session 28, call 5: R2C chain rows of 1024 at 32 values a thread
# (mirror_values): --verify, timed against v36 ($OLD) and cuFFT in F32 and
# F64; the 65536 clusters and rows of 256 again; the corrected device test.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c5; OLD=$PWD/.h200/old
$B/fftmux_cuda_gpu_test --gtest_filter='CudaDevice.*' --gtest_brief=1 2>&1 | tail -3 > $OUT/c5_device_test.txt
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c5_verify.txt; }
v --kind r2c --shape 1048576 --batch 3 --shift output
v --kind r2c --shape 2097152 --batch 2 --in-place
v --kind r2c --shape 4194304 --batch 1 --shift input
v --kind r2c --shape 1048576 --batch 2 --precision f64
v --kind r2c --shape 524288 --batch 3 --precision f64 --shift both
v --kind r2c --shape 1048576 --batch 64 --placement device --norm ortho
for n in 1048576 2097152 4194304; do b=$(((1 << 27) / n))
  t $n $b native cuda --kind r2c; o $n $b cuda native --kind r2c; t $n $b cufft cuda --kind r2c
done
for n in 524288 1048576; do b=$(((1 << 26) / n))
  t $n $b native cuda --kind r2c --precision f64; o $n $b cuda native --kind r2c --precision f64; t $n $b cufft cuda --kind r2c --precision f64
done
pack c5
for n in 65536 262144 524288; do b=$(((1 << 27) / n))
  t $n $b native cuda --kind r2c; t $n $b cufft cuda --kind r2c
done
t 65536 2048 native cuda --kind c2r; t 65536 2048 cufft cuda --kind c2r
t 32768 4096 native cuda; t 32768 4096 cufft cuda
pack c5
