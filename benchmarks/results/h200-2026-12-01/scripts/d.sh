#!/bin/bash
# Call D (2026-12-01): OpenGL C2C kernels without the unused real views of
# their buffers: the 1D subset beside Vulkan, cuFFT and the copy; OpenGL
# correctness.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl'
timeout 150 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes 16,64,256,1024,4096,8192,16384,65536 --precision f32 --repeats 11 --phase-budget 0.1 --budget 130 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gl1d > $R/gl1d.log 2>&1; echo "1d rc=$?"
grep -E ",(forward|copy)," $R/gl1d/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
pack d
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl \
    timeout 120 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head; rm -f $R/corr_*.log
pack d
