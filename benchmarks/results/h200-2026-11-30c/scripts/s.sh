#!/bin/bash
# Call S (2026-11-30, third session): OpenGL per-call latency with the last
# pass's barrier as it is (all bits), narrowed to storage, buffer update and
# mapped access (c), or left out (d).
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
  for v in after c d; do cp .h200/$v/*.so $P/; lat $v$round; done
done | tee $R/latency.txt
pack s
