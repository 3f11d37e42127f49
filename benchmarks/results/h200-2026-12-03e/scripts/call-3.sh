#!/bin/bash
# Session 28, call 3: R2C 65536 as one clustered kernel (4 groups of 8192,
# the post step's partners through distributed shared memory): --verify,
# then timed against v36's chain ($OLD, aabfbc0's plugins) and cuFFT; the
# chain's column length of long R2C lines under FFTMUX_EXP_N1 (an
# uncommitted experiment hook in column_length).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3; OLD=$PWD/.h200/old
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant native --kind r2c --verify "$@" 2>&1 | tail -2 | tr '\n' ' ')" >> $OUT/c3_verify.txt; }
v --shape 65536 --batch 2048 --placement device
v --shape 65536 --batch 3 --shift input
v --shape 65536 --batch 5 --shift output
v --shape 65536 --batch 4 --in-place
v --shape 4x65536 --batch 2 --shift both --norm ortho
v --shape 65536 --batch 7 --precision f64
v --shape 65536 --batch 1 --placement device
for n in 65536; do
  t $n 2048 native cuda --kind r2c; o $n 2048 cuda native --kind r2c; t $n 2048 cufft cuda --kind r2c
  t $n 2048 native cuda --kind r2c --shift output; o $n 2048 cuda native --kind r2c --shift output
done
pack c3
ex() { echo "$1 $2 n1=$3 $(FFTMUX_EXP_N1=$3 one $1 $2 native cuda --kind r2c)" | tee -a $R/c3.txt >> $OUT/c3.txt; }
for n1 in 128 256 512 1024; do ex 262144 512 $n1; done
for n1 in 128 512; do ex 131072 1024 $n1; done
for n1 in 512 1024 256; do ex 524288 256 $n1; done
for n1 in 512 1024 256 2048; do ex 1048576 128 $n1; done
for n1 in 1024 512 2048; do ex 2097152 64 $n1; done
t 262144 512 cufft cuda --kind r2c; t 1048576 128 cufft cuda --kind r2c; t 2097152 64 cufft cuda --kind r2c
pack c3
FFTMUX_TEST_BACKEND=cuda FFTMUX_TEST_VARIANT=native timeout 200 $B/fftmux_correctness --gtest_brief=1 --gtest_filter='*r2c*:*c2r*' 2>&1 | tail -4 >> $OUT/c3_matrix.txt
