#!/bin/bash
# Call 4: the SM clock while vulkan_bench times (no warm-up, then 0.5 s of
# warm-up); the batched 1D set on Vulkan beside cuFFT and the copy with the
# harness's GPU warm-up (0.3 s of untimed rounds a problem).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv,noheader -lms 100 > $R/clocks.csv 2>&1 &
CK=$!
for w in 0 0.5; do
  echo "== warmup $w ($(date +%T.%N))"
  timeout 60 $B/vulkan_bench --repeat 10 --warmup $w --only 4096,2097152 2>&1 | grep -E "^1d|^case"
  echo "   done $(date +%T.%N)"
done
kill $CK
pack s4
timeout 480 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan' --set 1d --precision f32 --repeats 9 --phase-budget 0.05 --budget 400 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/set > $R/set.log 2>&1; echo "set rc=$?"
pack s4
grep -E ",(forward|copy)," $R/set/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n
