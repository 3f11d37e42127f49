#!/bin/bash
# Call 6 (2026-12-01b): the whole batched 1D set and the shapes at 7081165
# (generator v9): cuFFT, the copy, vulkan/default, cuda/native.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 500 > $R/clock.txt 2>&1 &
SMI=$!
timeout 470 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan/default,fftmux:cuda/native' --variants all --set 1d,shapes --precision f32 --repeats 7 --phase-budget 0.05 --budget 440 --gpu-warmup 0.3 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/set > $R/set.log 2>&1; echo "set rc=$?"
kill $SMI
grep -hE ",(forward|copy)," $R/set/bench.csv | awk -F, '{printf "%s %s %.3f\n", $7, $12, $17*1000}' | awk '{a[$1]=a[$1]" "$2"="$3} END{for(k in a)print k, a[k]}' | sort -n
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -4
pack c6
