#!/bin/bash
# Third call: gpu_check.sh at v41 (half tables whole up to 2^20 points);
# then C2R 2^19-2^24 and R2C 2^23/2^24 against v40 and cuFFT again.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3; OLD=$PWD/.h200/old/plugins
OUT=$OUT/gpu-logs timeout 300 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c3_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c3_failures.txt
rm -rf $OUT/gpu-logs
set --
for e in 19 20 21 22 23 24; do set -- "$@" "$((1 << e)) $((1 << (27 - e))) --kind c2r"; done
set -- "$@" "8388608 16 --kind r2c" "16777216 8 --kind r2c"
for p in "$@"; do
  read n b rest <<< "$p"
  t $n $b native cuda $rest; o $n $b cuda native $rest; t $n $b cufft cuda $rest
done
pack c3
