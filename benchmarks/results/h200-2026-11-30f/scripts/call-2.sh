#!/bin/bash
# Call 2: radix 32 by default (0ca1d2c). The correctness matrix on Vulkan,
# OpenGL and CUDA native at once; then the whole 1D set and the shapes on
# every GPU engine beside cuFFT and the copy.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
run() { # BACKEND VARIANT SHARDS
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$1_$i.log 2>&1 &
  done
}
run vulkan default 6; run opengl default 4; run cuda native 6; wait
for b in vulkan opengl cuda; do echo "$b: $(cat $R/corr_${b}_*.log | grep -hE '^\[  PASSED' | awk '{s+=$4} END {print s+0}') passed; $(cat $R/corr_${b}_*.log | grep -c '^\[  FAILED  \] [A-Za-z]') failed lines; $(grep -l '\[==========\] .* ran' $R/corr_${b}_*.log | wc -l) shards finished"; done | tee $R/correctness.txt
grep -h '^\[  FAILED  \] [A-Za-z]' $R/corr_*.log | head -20
pack c6
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 390 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:cuda/native,fftmux:opengl' --set 1d,shapes --shapes 1024x1024,4096x4096,512,1024,4096,8192,16384,32768,65536,131072,262144,1048576,4194304,1000,6000 --precision f32 --repeats 9 --phase-budget 0.05 --budget 360 --gpu-warmup 0.3 $P --out $R/set > $R/set.log 2>&1; echo "set rc=$?"
grep -hE ",(forward|copy)," $R/set/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k2,2
tail -3 $R/set.log
pack c6
