#!/bin/bash
# Call 4 (2026-12-01g): the committed spread rules (generator v15): GL
# correctness matrix, then one process per plan: GL at the sizes the rules
# change and the short pow2 lines, Vulkan beside.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl FFTMUX_TEST_VARIANT=default \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/g4_c_$i.log 2>&1 &
done; wait
for f in $R/g4_c_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee -a $R/g4_correctness.txt
grep -h "FAILED  \]" $R/g4_c_*.log | head -10 | tee -a $R/g4_correctness.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c4a
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 16 64 128 32 8 32768 10007; do b=$(( (1<<27)/n ))
  echo "$n f32 gl $(one $n $b default opengl) vk $(one $n $b default vulkan)" | tee -a $R/g4_times.txt
  pack c4b
done
b=$(( (1<<27)/16 )); echo "16 f64 gl $(one 16 $b default opengl --precision f64) vk $(one 16 $b default vulkan --precision f64)" | tee -a $R/g4_times.txt
b=$(( (1<<27)/1536 )); echo "1536 r2c f32 gl $(one 1536 $b default opengl --kind r2c) vk $(one 1536 $b default vulkan --kind r2c)" | tee -a $R/g4_times.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c4
