#!/bin/bash
# Call 4 (2026-12-01i): the code as committed (GLSL 4.30 for Vulkan, 128-point
# chain columns on 32 values a thread, fences polled 5 ms): the Vulkan
# correctness matrix, then Vulkan and cuFFT one process per plan, GL beside.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for i in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=vulkan FFTMUX_TEST_VARIANT=default timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/i4_vulkan_$i.txt 2>&1 &
done
wait
grep -h "PASSED\|FAILED" $R/i4_vulkan_*.txt | tee -a $R/i4_summary.txt
pack c4
for k in 21 20 22 17 18 19 23 24 12; do
  n=$((1<<k)); b=$((1<<(27-k)))
  echo "$n vulkan $(one $n $b default vulkan) cufft $(one $n $b cufft cuda)" | tee -a $R/i4_times.txt
done
pack c4
for n in 8 4093; do
  b=$(( (1<<27) / n ))
  echo "$n opengl $(one $n $b default opengl) vulkan $(one $n $b default vulkan)" | tee -a $R/i4_times.txt
done
pack c4
