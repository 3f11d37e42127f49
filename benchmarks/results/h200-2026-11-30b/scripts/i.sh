#!/bin/bash
# Call I (2026-11-30, second session): Vulkan and OpenGL on generator v5 beside
# cuFFT and a copy: the 1D set, the thesis set, plan creation cold and warm.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 330 $B/fftmux_bench --class gpu --engines "$E" --set 1d --precision f32 --repeats 11 --phase-budget 0.1 --budget 290 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-1d > $R/gpu-1d.log 2>&1; echo "1d rc=$?"
pack i
timeout 120 $B/fftmux_bench --class gpu --engines "$E" --set thesis --precision f32 --repeats 11 --phase-budget 0.1 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/gpu-thesis > $R/gpu-thesis.log 2>&1; echo "thesis rc=$?"
pack i
for b in vulkan opengl; do for s in 128,128 1024,1024; do
  echo "$b $s: $($B/fftmux run --backend $b --shape $s --placement device --repeat 200 --warmup 5 2>&1 | grep -E 'execute' )"
done; done | tee $R/latency.txt
pack i
tail -c 2000 $R/gpu-1d.log
