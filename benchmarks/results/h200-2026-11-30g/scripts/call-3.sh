#!/bin/bash
# Call 3: Vulkan with executions in flight (three command-buffer copies a
# recording) over the issue's batched 1D set and shapes, beside cuFFT, the
# copy and CUDA native; SM clock logged.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 500 > $R/clock.txt 2>&1 &
SMI=$!
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
E='cufft,cudaMemcpy,fftmux:vulkan/default,fftmux:cuda/native'
timeout 520 $B/fftmux_bench --class gpu --engines "$E" --variants all --set 1d,shapes --precision f32 --repeats 7 --phase-budget 0.05 --budget 500 --gpu-warmup 0.3 $P --out $R/set > $R/set.log 2>&1; echo "set rc=$?"
kill $SMI
grep -hE ",(forward|copy)," $R/set/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3
tail -3 $R/set.log
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -5
pack c3
