#!/bin/bash
# Call 3 (2026-12-01g): candidate rules through uncommitted hooks:
# C = FFTMUX_TMP_VPT=1 (several lines a group, under 32 threads a line, still
# under 768 threads an SM: halve the values a thread while that fits more)
# + FFTMUX_TMP_NOFLAT=1 (GL: flat loads only where a line's threads cover
# less than a 32-byte sector; =2 the same on every dialect).
# GL correctness under C, then times.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
T0=$(date +%s)
C="FFTMUX_TMP_VPT=1 FFTMUX_TMP_NOFLAT=1"
for i in $(seq 0 7); do
  env $C GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl FFTMUX_TEST_VARIANT=default \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/g3_c_$i.log 2>&1 &
done; wait
for f in $R/g3_c_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-200)"; done | tee -a $R/g3_correctness.txt
grep -h "FAILED  \]" $R/g3_c_*.log | head -10 | tee -a $R/g3_correctness.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c3a
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
b=$(( (1<<27)/32768 )); echo "32768 f32 gl-c $(export $C; one 32768 $b default opengl)" | tee -a $R/g3_times.txt
b=$(( (1<<27)/262144 )); echo "262144 f32 gl-c $(export $C; one 262144 $b default opengl) gl-c-1024any $(export $C FFTMUX_TMP_TARGET=1024 FFTMUX_TMP_VPT=0; one 262144 $b default opengl)" | tee -a $R/g3_times.txt
pack c3b
b=$(( (1<<27)/16 )); echo "16 f32 gl-radix4-vpt4 $(export FFTMUX_TMP_VPTSET=4 FFTMUX_TMP_NOFLAT=1; one 16 $b radix4 opengl)" | tee -a $R/g3_times.txt
for n in 128 64 32 8; do b=$(( (1<<27)/n ))
  echo "$n f32 gl-c $(export $C; one $n $b default opengl)" | tee -a $R/g3_times.txt
done
pack c3c
for n in 64 128 32768 16; do b=$(( (1<<27)/n ))
  echo "$n f32 vk-noflat2 $(FFTMUX_TMP_NOFLAT=2 one $n $b default vulkan)" | tee -a $R/g3_times.txt
done
echo "t=$(( $(date +%s) - T0 ))"
pack c3
