#!/bin/bash
# Session 28, call 4: C2R of 65536 reals as one clustered kernel (--verify,
# timed against v36's chain in $OLD and cuFFT); R2C 2^18/2^19 with rows of
# 256 (--verify, timed); experiment hooks (uncommitted): FFTMUX_EXP_UNROLL,
# the cluster rows loop's unroll (2 committed), FFTMUX_EXP_ROWVPT, values a
# thread of R2C chain rows (16 committed); then gpu_check.sh at v37.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c4; OLD=$PWD/.h200/old
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -2 | tr '\n' ' ')" >> $OUT/c4_verify.txt; }
v --kind c2r --shape 65536 --batch 2048 --placement device
v --kind c2r --shape 65536 --batch 3 --shift input
v --kind c2r --shape 65536 --batch 5 --shift output
v --kind c2r --shape 65536 --batch 4 --in-place
v --kind c2r --shape 4x65536 --batch 2 --shift both --norm ortho
v --kind c2r --shape 65536 --batch 3 --norm forward
v --kind c2r --shape 65536 --batch 7 --precision f64
v --kind r2c --shape 262144 --batch 9 --shift output
v --kind r2c --shape 524288 --batch 3 --shift input
v --kind r2c --shape 262144 --batch 64 --placement device --in-place
v --kind r2c --shape 524288 --batch 4 --norm ortho
t 65536 2048 native cuda --kind c2r; o 65536 2048 cuda native --kind c2r; t 65536 2048 cufft cuda --kind c2r
e() { local env=$1; shift; echo "$env $* $(export $env; one "$@")" | tee -a $R/c4.txt >> $OUT/c4.txt; }
for u in 1 2 4 8; do e FFTMUX_EXP_UNROLL=$u 65536 2048 native cuda --kind r2c; e FFTMUX_EXP_UNROLL=$u 32768 4096 native cuda; done
t 32768 4096 cufft cuda; t 65536 2048 cufft cuda --kind r2c
for n in 262144 524288; do t $n $(((1 << 27) / n)) native cuda --kind r2c; t $n $(((1 << 27) / n)) cufft cuda --kind r2c; done
o 524288 256 cuda native --kind r2c
for n in 1048576 2097152; do
  e FFTMUX_EXP_ROWVPT=32 $n $(((1 << 27) / n)) native cuda --kind r2c; t $n $(((1 << 27) / n)) native cuda --kind r2c; t $n $(((1 << 27) / n)) cufft cuda --kind r2c
done
t 524288 256 native cuda --kind c2r; t 524288 256 cufft cuda --kind c2r
pack c4
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c4_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c4_failures.txt
rm -rf $OUT/gpu-logs
