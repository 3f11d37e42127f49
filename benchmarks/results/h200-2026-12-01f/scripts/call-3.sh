#!/bin/bash
# Call 3 (2026-12-01f): generator v14 as committed (e94267c). The
# correctness matrix on cuda/native and opengl (Vulkan's plans did not
# change), then one process per plan: CUDA 10007 and OpenGL against Vulkan
# at the sizes whose GL plans changed.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
for b in cuda opengl; do for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$b FFTMUX_TEST_VARIANT=$([ $b = cuda ] && echo native || echo default) \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_${b}_$i.log 2>&1 &
done; wait; done
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -10
echo "t=$(( $(date +%s) - T0 ))"
pack c3a
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
echo "10007 f32 native $(one 10007 13412 native cuda)" | tee -a $R/v14.txt
for nb in 4096:32768 8192:16384 2187:61370 2401:55902 3125:42949 6000:22369 1000:134217 1536:87381; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 vk $(one $n $b default vulkan) gl $(one $n $b default opengl)" | tee -a $R/v14.txt
done
echo "t=$(( $(date +%s) - T0 ))"
pack c3
