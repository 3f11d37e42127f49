#!/bin/bash
# Call P (2026-11-30, third session): per-call latency with the fence polled
# (after) against the driver's sleeping wait (before: the same code but the
# wait); plan creation after live plans share scratch and pipelines are made
# side by side; the thesis set.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P=.h200/lib/fftmux/plugins
lat() {
  for s in 128x128 256x256 512x512 1024x1024; do for b in vulkan opengl; do
    echo "$1 $b $s: $($B/fftmux run --backend $b --shape $s --placement device --repeat 400 --warmup 20 2>&1 | grep -E '^execute' )"
  done; done
}
for round in 1 2; do
  cp .h200/before/*.so $P/; lat before$round
  cp .h200/after/*.so $P/; lat after$round
done | tee $R/latency.txt
for s in 128x128 1024x1024; do echo "cuda $s: $($B/fftmux run --backend cuda --shape $s --placement device --repeat 400 --warmup 20 2>&1 | grep -E '^execute' )"; done | tee -a $R/latency.txt
pack p
E='cufft,cudaMemcpy,fftmux:vulkan,fftmux:opengl,fftmux:cuda/native'
timeout 60 $B/fftmux_bench --class gpu --engines "$E" --set thesis --precision f32 --repeats 11 --phase-budget 0.1 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/thesis > $R/thesis.log 2>&1; echo "thesis rc=$?"
pack p
grep -E ",forward," $R/thesis/bench.csv | awk -F, '{printf "%s %s %.2f us\n", $7, $12, $17*1e6}'
E='fftmux:vulkan,fftmux:opengl'
timeout 150 $B/fftmux_bench --class gpu --engines "$E" --set 1d --shapes 256,4096,16384,65536,1048576,4097,10007 --precision f32 --repeats 5 --phase-budget 0.05 --budget 130 --peer-dir $PWD/.h200/lib/fftmux-bench --out $R/plans > $R/plans.log 2>&1; echo "plans rc=$?"
pack p
grep -E ",plan_(cold|warm)," $R/plans/bench.csv | awk -F, '{printf "%s %s %s %.2f ms\n", $7, $12, $14, $17*1000}'
