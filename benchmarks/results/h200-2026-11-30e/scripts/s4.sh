#!/bin/bash
# Call 4: four-step twiddles from one table (variant direct-twiddles)
# against the split tables (default), Vulkan and CUDA native, 16384-2^20;
# Vulkan on a problem beyond one 4 GiB binding (batch chunks), verified.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
E='cufft,fftmux:vulkan/default,fftmux:vulkan/direct-twiddles,fftmux:cuda/native,fftmux:cuda/native-direct-twiddles'
timeout 230 $B/fftmux_bench --class gpu --engines "$E" --variants all --set 1d --shapes 16384,32768,65536,131072,262144,524288,1048576 --precision f32 --repeats 9 --phase-budget 0.05 --budget 210 --gpu-warmup 0.3 $P --out $R/tw > $R/tw.log 2>&1; echo "rc=$?"
grep -hE ",(forward|copy)," $R/tw/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k2,2
pack c4
echo "== vulkan 4.1 GiB $(date +%T)"
timeout 200 $B/fftmux run --backend vulkan --shape 1024 --batch 540000 --placement device --verify --repeat 3 --warmup 1 > $R/vk-big.txt 2>&1; echo "rc=$?"; tail -4 $R/vk-big.txt
pack c4
