#!/bin/bash
# Call C (2026-12-01): OpenGL buffers in Vulkan memory (storage "auto" ->
# "vulkan"): correctness, the GL copy study, the 2D thesis problems, the
# batched 1D set with Vulkan, cuFFT and the device copy.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
$B/fftmux backends 2>&1 | grep -A1 "^opengl" | tee $R/backends.txt
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=opengl \
    timeout 120 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
grep -h "FAILED  \]" $R/corr_*.log | head; rm -f $R/corr_*.log
pack c
timeout 120 $B/opengl_bench --only copy > $R/gl-copy.md 2>&1; echo "copy rc=$?"
grep -E "baseline|storage (mappable|vulkan)|1024MiB \|" $R/gl-copy.md
timeout 90 $B/opengl_bench --only 2d > $R/gl-2d.md 2>&1; echo "2d rc=$?"
grep -E "^\| 2d" $R/gl-2d.md | cut -d'|' -f1-12
pack c
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl'
timeout 330 $B/fftmux_bench --class gpu --engines "$E" --set 1d --precision f32 --repeats 11 --phase-budget 0.1 --budget 300 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-1d > $R/gpu-1d.log 2>&1; echo "1d rc=$?"
pack c
grep -E ",(forward|copy)," $R/gpu-1d/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
