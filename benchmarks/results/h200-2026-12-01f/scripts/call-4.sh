#!/bin/bash
# Call 4 (2026-12-01f): the lean rule generalized (kernels whose groups
# would hold < 768 threads an SM under GL's 64 KiB split, then chunk in equal
# parts; r2c lines excluded: call 3's two GL failures). GL correctness, then
# one process per plan: the rule against no rule (FFTMUX_TMP_MIN_RESIDENT=0,
# an uncommitted hook) at the sizes it newly changes, Vulkan beside.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl FFTMUX_TEST_VARIANT=default \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_opengl_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -10
echo "t=$(( $(date +%s) - T0 ))"
pack c4a
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for nb in 1024:131072 2048:65536 1536:87381 1000:134217 6000:22369; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 gl $(one $n $b default opengl) gl-off $(FFTMUX_TMP_MIN_RESIDENT=0 one $n $b default opengl)" | tee -a $R/lean.txt
done
pack c4b
for nb in 1024:131072 2048:65536 16384:8192 512:262144; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 vk $(one $n $b default vulkan) gl $(one $n $b default opengl)" | tee -a $R/lean.txt
done
echo "t=$(( $(date +%s) - T0 ))"
pack c4
