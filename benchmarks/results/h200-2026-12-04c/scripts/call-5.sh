#!/bin/bash
# Fifth call: v42 as committed (mirror chunks from 4 MiB lines on):
# gpu_check.sh, then the second round call 4 lost, against v41 ($OLD) and
# cuFFT, each line with its process's seconds.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c5; OLD=$PWD/.h200/old/plugins
OUT=$OUT/gpu-logs timeout 240 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c5_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c5_failures.txt
rm -rf $OUT/gpu-logs
s() { local a=$(date +%s); "$@"; echo "  ($(( $(date +%s) - a )) s)" >> $OUT/$CALL.txt; }
s t 16777216 8 native cuda --kind r2c; s t 16777216 8 cufft cuda --kind r2c
s t 16777216 1 native cuda --kind r2c; s t 16777216 1 cufft cuda --kind r2c
set -- "cuda native 8388608 16 c2r" "cuda native 16777216 8 c2r" "vulkan default 2097152 64 r2c" \
  "vulkan default 4194304 32 r2c" "opengl default 1048576 128 r2c" "opengl default 65536 2048 r2c"
for p in "$@"; do
  read be va n b k rest <<< "$p"
  s t $n $b $va $be --kind $k $rest; s o $n $b $be $va --kind $k $rest
done
s t 8388608 16 cufft cuda --kind c2r; s t 16777216 8 cufft cuda --kind c2r
pack c5
