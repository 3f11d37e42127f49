#!/bin/bash
# Call A (2026-12-01): GL copies in Vulkan-allocated memory imported into GL;
# Bluestein at m >= 2n - 2 (4097 -> 8192, 10007 -> 20480): correctness on
# cuda/native and vulkan, CUDA variants and the GLSL backends at 4093/4097/10007.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $R/clocks.txt
timeout 60 $B/glvk_copy 20 2>&1 | tee $R/glvk_copy.txt
pack a
for b in cuda vulkan; do for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=$b FFTMUX_TEST_VARIANT=$([ $b = cuda ] && echo native || echo default) \
    timeout 150 $B/fftmux_correctness --gtest_brief=1 > $R/corr_${b}_$i.log 2>&1 &
done; done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head -20
rm -f $R/corr_*.log
pack a
for m in "c2c f32 4093 x" "c2c f32 4097 x" "c2c f32 10007 x"; do
  timeout 60 $B/cuda_bench --all-variants --repeats 9 --match "$m" > "$R/cuda_${m// /_}.txt" 2>&1; echo "rc=$?"
done
grep -h -E "native|cuFFT direct" $R/cuda_*.txt | cut -c1-160
pack a
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 150 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes 4093,4097,10007 --precision f32 --repeats 11 --phase-budget 0.1 --budget 130 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/bs > $R/bs.log 2>&1; echo "bs rc=$?"
grep -E ",forward," $R/bs/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
pack a
