#!/bin/bash
# Third call: a fresh table of where each GPU backend stands at generator
# v43: the batched 1D C2C F32 set (2^27 elements a call) on cuda/native,
# vulkan and opengl with cuFFT beside each, one process a plan; then the
# real transforms and F64 lines of issue 6 on cuda/native and cuFFT.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $OUT/c3_gpu.txt
sizes="8 32 64 512 1024 2048 4096 8192 12800 16384 32768 65536 131072 262144 524288 1048576 \
2097152 4194304 8388608 16777216 1000 1536 2187 2401 3125 6000 4093 4097 10007"
for n in $sizes; do
  b=$(((1 << 27) / n)); t $n $b native cuda; t $n $b cufft cuda; t $n $b default vulkan; t $n $b default opengl
done
pack c3
for k in r2c c2r; do
  for n in 1024 4096 8192 16384 65536 262144 1048576 2097152; do
    b=$(((1 << 27) / n)); t $n $b native cuda --kind $k; t $n $b cufft cuda --kind $k
  done
done
for n in 1024 8192 1048576; do
  b=$(((1 << 26) / n)); t $n $b native cuda --precision f64; t $n $b cufft cuda --precision f64
done
pack c3
