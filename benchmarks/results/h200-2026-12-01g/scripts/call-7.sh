#!/bin/bash
# Call 7 (2026-12-01g): GL correctness matrix with radix 32 from 512 points
# (FFTMUX_TMP_R32=512, the hook of calls 5-6; committed after as the
# default) and verified 2^18 and 1024x1024 runs.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
export FFTMUX_TMP_R32=512
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl FFTMUX_TEST_VARIANT=default \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/g7_c_$i.log 2>&1 &
done; wait
for f in $R/g7_c_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee -a $R/g7_correctness.txt
grep -h "FAILED  \]" $R/g7_c_*.log | head -10 | tee -a $R/g7_correctness.txt
pack c7
for s in "262144 --batch 512" "1024x1024 --batch 8" "512x512x512 --batch 1"; do
  timeout 60 $B/fftmux run --shape $s --placement device --backend opengl --verify --repeat 3 2>&1 | grep -E "verify|execute" | tr '\n' ' ' | sed "s/^/$s: /" | tee -a $R/g7_correctness.txt; echo
done
pack c7
