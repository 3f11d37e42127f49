#!/bin/bash
# Call 4 (2026-12-01e): generator v13 (chunked exchanges by default where
# one unpadded component overflows; OpenGL radix 32 from 2048 points). The
# correctness matrix (now with 8192 and 16384) on cuda/native, vulkan,
# opengl; then one process per plan for the changed defaults.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for b in cuda vulkan; do for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$b FFTMUX_TEST_VARIANT=$([ $b = cuda ] && echo native || echo default) \
    timeout 120 $B/fftmux_correctness --gtest_brief=1 > $R/corr_${b}_$i.log 2>&1 &
done; done; wait
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl FFTMUX_TEST_VARIANT=default \
    timeout 100 $B/fftmux_correctness --gtest_brief=1 > $R/corr_opengl_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -10
pack c4a
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for nb in 16384:8192 12800:10485 4096:32768 8192:16384 2048:65536 12288:10922; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 vk $(one $n $b default vulkan) gl $(one $n $b default opengl)" | tee -a $R/v13.txt
done
pack c4
