#!/bin/bash
# Call B (2026-12-01): GL copies by size in fresh processes (GL's buffers and
# Vulkan memory imported, random data); Vulkan with and without spirv-opt on
# a 1D subset beside cuFFT; CUDA 10007 with radix 8 at 1024 threads.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for s in 128 256 512 768 1024; do timeout 30 $B/glvk_copy 20 $s 2>&1 | grep "^|" | grep -v "buffers\|---"; done | tee $R/glvk_copy.txt
echo "order 1024 512 128:"; timeout 60 $B/glvk_copy 20 1024 512 128 2>&1 | grep "^| [GV]" | tee -a $R/glvk_copy.txt
pack b
timeout 60 $B/cuda_bench --all-variants --repeats 9 --match "c2c f32 10007 x" > $R/cuda_10007.txt 2>&1; echo "rc=$?"
grep -E "native  |native-radix8|cuFFT direct" $R/cuda_10007.txt | cut -c1-150
pack b
S=64,256,1024,4096,8192,16384,65536,1048576,4093,4097,10007
for o in true false; do
  printf '[backends.fftw]\nplanner = "estimate"\n[backends.vulkan]\nspirv_opt = %s\n' $o > /tmp/fx_$o.toml
  FFTMUX_CONFIG=/tmp/fx_$o.toml timeout 170 $B/fftmux_bench --class gpu --engines "cufft,fftmux:vulkan" --set 1d --shapes $S --precision f32 --repeats 9 --phase-budget 0.05 --budget 150 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/vk_$o > $R/vk_$o.log 2>&1; echo "opt=$o rc=$?"
  grep -E ",(forward|plan_cold|plan_warm)," $R/vk_$o/bench.csv | awk -F, '{printf "%s %s %s %.3f ms %.0f GB/s\n", $7, $12, $14, $17*1000, 16*$10/$17/1e9}' | grep -v "cufft plan"
  pack b
done
