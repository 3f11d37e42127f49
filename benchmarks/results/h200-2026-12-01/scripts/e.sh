#!/bin/bash
# Call E (2026-12-01): Vulkan with and without spirv-opt again (speed and
# cold plans, 13 shapes); the rest of the batched 1D set (2^19 .. 2^24 and
# the odd sizes) on Vulkan and OpenGL beside cuFFT and the copy.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
S=64,256,1024,4096,8192,16384,32768,65536,262144,1048576,4093,4097,10007
for o in false true; do
  printf '[backends.fftw]\nplanner = "estimate"\n[backends.vulkan]\nspirv_opt = %s\n' $o > /tmp/fx_$o.toml
  FFTMUX_CONFIG=/tmp/fx_$o.toml timeout 130 $B/fftmux_bench --class gpu --engines "cufft,fftmux:vulkan" --set 1d --shapes $S --precision f32 --repeats 9 --phase-budget 0.05 --budget 110 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/vk_$o > $R/vk_$o.log 2>&1; echo "opt=$o rc=$?"
  pack e
done
for o in false true; do grep -E ",(forward|plan_cold)," $R/vk_$o/bench.csv | grep vulkan | awk -F, -v o=$o '{printf "opt=%s %s %s %.3f ms %.0f GB/s\n", o, $7, $14, $17*1000, 16*$10/$17/1e9}'; done
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl'
timeout 230 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes 524288,1048576,2097152,4194304,8388608,16777216,1000,1536,2187,2401,3125,6000 --precision f32 --repeats 9 --phase-budget 0.1 --budget 210 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/rest > $R/rest.log 2>&1; echo "rest rc=$?"
pack e
grep -E ",(forward|copy)," $R/rest/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s\n", $7, $12, $17*1000, 16*$10/$17/1e9}'
