#!/bin/bash
# Call T (2026-11-30, third session): Vulkan HOST placement through
# recorded staging copies: vulkan correctness (host and device cases), the
# thesis set (device and host) and the host set beside cuFFT.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for i in $(seq 0 7); do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i FFTMUX_TEST_BACKEND=vulkan \
    timeout 100 $B/fftmux_correctness --gtest_brief=1 > $R/corr_$i.log 2>&1 &
done; wait
for f in $R/corr_*.log; do echo "$(basename $f): $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $f | tr '\n' ' ' | cut -c1-300)"; done | tee $R/correctness.txt
rm -f $R/corr_*.log
pack t
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 60 $B/fftmux_bench --class gpu --engines "$E" --set thesis --precision f32 --repeats 11 --phase-budget 0.1 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/thesis > $R/thesis.log 2>&1; echo "thesis rc=$?"
pack t
timeout 120 $B/fftmux_bench --class gpu --engines "$E" --set host --precision f32 --repeats 11 --phase-budget 0.1 --budget 100 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/host > $R/host.log 2>&1; echo "host rc=$?"
pack t
for f in thesis host; do grep -E ",forward," $R/$f/bench.csv | awk -F, '{printf "%s %s %s %.1f us\n", $2, $8, $12, $17*1e6}'; done
