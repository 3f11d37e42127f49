#!/bin/bash
# Call 4: where Vulkan's bimodal times come from: vulkan_bench (timestamps,
# a Vulkan-only process) three times; fftmux_bench with only the Vulkan and
# FFTW plugins (no CUDA context in the process) twice; with cuFFT beside it
# twice; radix8/radix4 register counts and times.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 500 > $R/clock.txt 2>&1 &
SMI=$!
for i in 1 2 3; do echo "== vulkan_bench $i"; timeout 40 $B/vulkan_bench --only 512,1024,4096 --repeat 15 --warmup 1 2>&1 | grep -E "^1d"; done
mkdir -p /tmp/vkonly && cp .h200/lib/fftmux/plugins/{vulkan.toml,libfftmux_vulkan.so} /tmp/vkonly/
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
run() { timeout 60 $B/fftmux_bench --class gpu --engines "$1" --variants all --set 1d --shapes 512,1024,4096 --precision f32 --repeats 9 --phase-budget 0.05 --budget 55 --gpu-warmup 0.5 $P --out $R/$2 > $R/$2.log 2>&1; echo "== $2 rc=$?"
  grep -hE ",(forward|copy)," $R/$2/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3; }
for i in 1 2; do FFTMUX_PLUGIN_PATH=/tmp/vkonly run 'fftmux:vulkan/default' vkonly$i; done
for i in 1 2; do run 'cufft,fftmux:vulkan/default' withcuda$i; done
for v in radix8 radix4; do echo "== $v"; timeout 40 $B/vulkan_bench --stats --variant $v --only 1024,4096 --repeat 15 --warmup 1 2>&1 | grep -E "^1d|Register"; done
kill $SMI
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -5
pack c4
