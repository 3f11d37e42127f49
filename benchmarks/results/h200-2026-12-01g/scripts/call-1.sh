#!/bin/bash
# Call 1 (2026-12-01g): GL correctness at v14 HEAD (589ed82's multi-line rule
# was never run on the GPU), and with two uncommitted hooks:
# FFTMUX_TMP_CONV (the lean rule chunks one-line convolutions: 4093, 4097)
# and FFTMUX_TMP_VPT (a kernel still under 768 threads an SM halves its
# values a thread while that fits more: 32, 64, 512, 3125, 10007's passes).
# Then one process per plan: GL with and without, Vulkan beside, and GL
# against Vulkan at the short lines never compared (8-256).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
corr() { # tag, env...
  local tag=$1; shift
  for i in $(seq 0 7); do
    env "$@" GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl FFTMUX_TEST_VARIANT=default \
      timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/g1_${tag}_$i.log 2>&1 &
  done; wait
  for f in $R/g1_${tag}_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee -a $R/g1_correctness.txt
  grep -h "FAILED  \]" $R/g1_${tag}_*.log | head -10 | tee -a $R/g1_correctness.txt
}
corr head A=1
corr hooks FFTMUX_TMP_CONV=1 FFTMUX_TMP_VPT=1
echo "t=$(( $(date +%s) - T0 ))"
pack c1a
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 4093 4097; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) gl-conv $(FFTMUX_TMP_CONV=1 one $n $b default opengl) vk $(one $n $b default vulkan)" | tee -a $R/g1_times.txt
done
pack c1b
for n in 64 10007 512 32 3125; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) gl-vpt $(FFTMUX_TMP_VPT=1 one $n $b default opengl) vk $(one $n $b default vulkan)" | tee -a $R/g1_times.txt
  pack c1c
done
for n in 8 16 128 256; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) vk $(one $n $b default vulkan)" | tee -a $R/g1_times.txt
  pack c1d
done
echo "t=$(( $(date +%s) - T0 ))"
pack c1
