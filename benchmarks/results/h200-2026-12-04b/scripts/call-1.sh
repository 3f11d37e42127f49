#!/bin/bash
# First call (31st session): variant butterfly-tail against the default and
# cuFFT, verified first.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $OUT/c1_gpu.txt
v() { echo "== $* $(timeout 60 $B/fftmux run --backend cuda --variant native-butterfly-tail --verify "$@" 2>&1 | tail -1)" >> $OUT/c1_verify.txt; }
v --shape 1048576 --batch 3; v --shape 2097152 --batch 2 --in-place --norm ortho
v --shape 4194304 --batch 1 --shift both; v --shape 4194304 --batch 2 --kind r2c
v --shape 16777216 --batch 1 --kind r2c; v --shape 2097152 --batch 3 --kind c2r
v --shape 65536 --batch 5; v --shape 262144 --batch 3 --kind c2r --shift output
v --shape 1024x1024 --batch 2; v --shape 16777216 --batch 1
set -- "1048576 128" "2097152 64" "4194304 32" "16777216 8" "65536 2048" "262144 512" \
  "4194304 32 --kind r2c" "16777216 8 --kind r2c" "1048576 128 --kind r2c" \
  "2097152 64 --kind c2r" "4194304 32 --kind c2r"
for rep in 1 2; do
  for p in "$@"; do
    read n b rest <<< "$p"
    t $n $b native cuda $rest; t $n $b native-butterfly-tail cuda $rest; t $n $b cufft cuda $rest
  done
done
pack c1
