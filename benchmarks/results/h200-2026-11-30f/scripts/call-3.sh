#!/bin/bash
# Call 3 (at the strided-sector commit): the multi-dimensional correctness
# cases on Vulkan and OpenGL (4096x16 now a chain); 4096^2 on every engine;
# OpenGL radix 32 (default) against radix 16.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
run() { # BACKEND SHARDS
  for i in $(seq 0 $(($2 - 1))); do
    GTEST_TOTAL_SHARDS=$2 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$1 \
      timeout 120 $B/fftmux_correctness --gtest_brief=1 --gtest_filter='*x*' > $R/corr_$1_$i.log 2>&1 &
  done
}
run vulkan 8; run opengl 6; wait
for b in vulkan opengl; do echo "$b: $(cat $R/corr_${b}_*.log | grep -hE '^\[  PASSED' | awk '{s+=$4} END {print s+0}') passed; $(cat $R/corr_${b}_*.log | grep -c '^\[  FAILED  \] [A-Za-z]') failed lines; $(grep -l '\[==========\] .* ran' $R/corr_${b}_*.log | wc -l) shards finished"; done | tee $R/correctness.txt
grep -h '^\[  FAILED  \] [A-Za-z]' $R/corr_*.log | head -20
pack c7
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 100 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan,fftmux:cuda/native,fftmux:opengl' --set shapes --shapes 4096x4096 --precision f32,f64 --repeats 9 --phase-budget 0.05 --budget 90 --gpu-warmup 0.3 $P --out $R/sq > $R/sq.log 2>&1; echo "sq rc=$?"
grep -hE ",(forward|copy)," $R/sq/bench.csv | awk -F, '{printf "%s %s %s %.3f ms %.0f GB/s\n", $7, $8, $12, $17*1000, 16*$10/$17/1e9}' | sort
pack c7
timeout 150 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/default,fftmux:opengl/default,fftmux:opengl/radix16' --variants all --set 1d,shapes --shapes 512,1024,8192,262144,1048576,1024x1024 --precision f32 --repeats 7 --phase-budget 0.05 --budget 140 --gpu-warmup 0.3 $P --out $R/gl > $R/gl.log 2>&1; echo "gl rc=$?"
grep -hE ",(forward|copy)," $R/gl/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k2,2
pack c7
