#!/bin/bash
# Call R (2026-11-30, third session): OpenGL per-call latency: glGetError
# after every dispatch (before) or only at synchronize (after), and the
# NVIDIA driver's wait and threading settings.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
P=.h200/lib/fftmux/plugins
lat() {
  for s in 128x128 1024x1024; do
    echo "$1 $s: $($B/fftmux run --backend opengl --shape $s --placement device --repeat 400 --warmup 20 2>&1 | grep -E '^execute' )"
  done
}
for round in 1 2; do
  cp .h200/before/*.so $P/; lat before$round
  cp .h200/after/*.so $P/; lat after$round
  __GL_YIELD=NOTHING lat after-yield-nothing$round
  __GL_THREADED_OPTIMIZATIONS=1 lat after-threaded$round
  __GL_THREADED_OPTIMIZATIONS=0 lat after-unthreaded$round
done | tee $R/latency.txt
pack r
