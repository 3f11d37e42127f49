#!/bin/bash
# Call 1: register counts and per-pass times of Vulkan's kernels (--stats),
# restrict experiments, variants; fftmux_bench beside cuFFT and the copy.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $R/smi.txt 2>&1
V="$B/vulkan_bench --repeat 10 --warmup 0.5"
timeout 120 $V --stats --only 512,1024,4096,8192,16384,32768 > $R/vk-default.txt 2>&1; echo "default rc=$?"
for e in 1 2; do FFTMUX_EXP_RESTRICT=$e timeout 70 $V --only 1024,4096,8192,16384 > $R/vk-restrict$e.txt 2>&1; echo "restrict$e rc=$?"; done
for v in narrow wide radix16; do timeout 60 $V --stats --variant $v --only 4096,8192,16384 > $R/vk-$v.txt 2>&1; echo "$v rc=$?"; done
for f in $R/vk-*.txt; do echo "== $f"; grep -vE "^(device|key|elements)" $f | cut -c1-250; done
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
E='cufft,cudaMemcpy,fftmux:vulkan/*,fftmux:cuda/native'
timeout 170 $B/fftmux_bench --class gpu --engines "$E" --variants all --set shapes --shapes 4096,8192,16384 --precision f32 --repeats 7 --phase-budget 0.05 --budget 160 --gpu-warmup 0.3 $P --out $R/var > $R/var.log 2>&1; echo "var rc=$?"
grep -hE ",(forward|copy)," $R/var/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}' | sort -n -k1,1 -k3,3
tail -3 $R/var.log
cat $R/smi.txt
pack c1
