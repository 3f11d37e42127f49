#!/bin/bash
# Call 6 (strided chains keep the unit digit fastest): Vulkan 2D per pass;
# 4096^2 and 1024^2 x128 on every engine; the multi-dimensional correctness
# cases on Vulkan, OpenGL and CUDA native.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 40 $B/vulkan_bench --only 2d --repeat 10 --warmup 0.5 > $R/vk2d.txt 2>&1; echo "rc=$?"
grep -E "^2d|passes" $R/vk2d.txt | cut -c1-160
pack c10
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 60 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:cuda/native,fftmux:opengl' --set shapes --shapes 4096x4096,1024x1024 --precision f32 --repeats 9 --phase-budget 0.05 --budget 50 --gpu-warmup 0.3 $P --out $R/sq > $R/sq.log 2>&1; echo "sq rc=$?"
grep -hE ",(forward|copy)," $R/sq/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort
pack c10
run() { # BACKEND VARIANT SHARDS
  for i in $(seq 0 $(($3 - 1))); do
    GTEST_TOTAL_SHARDS=$3 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 FFTMUX_TEST_VARIANT=$2 \
      timeout 80 $B/fftmux_correctness --gtest_brief=1 --gtest_filter='*x*' > $R/corr_$1_$i.log 2>&1 &
  done
}
run vulkan default 6; run opengl default 5; run cuda native 5; wait
for b in vulkan opengl cuda; do echo "$b: $(cat $R/corr_${b}_*.log | grep -hE '^\[  PASSED' | awk '{s+=$4} END {print s+0}') passed; $(cat $R/corr_${b}_*.log | grep -c '^\[  FAILED  \] [A-Za-z]') failed lines; $(grep -l '\[==========\] .* ran' $R/corr_${b}_*.log | wc -l) shards finished"; done | tee $R/correctness.txt
grep -h '^\[  FAILED  \] [A-Za-z]' $R/corr_*.log | head -20
pack c10
