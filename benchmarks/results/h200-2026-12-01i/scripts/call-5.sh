#!/bin/bash
# Call 5 (2026-12-01i): the committed code on one-pass and two-pass sizes,
# Vulkan and cuFFT one process per plan.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 64 1024 8192 16384 32768 65536; do
  b=$(( (1<<27) / n ))
  echo "$n vulkan $(one $n $b default vulkan) cufft $(one $n $b cufft cuda)" | tee -a $R/i5_times.txt
  pack c5
done
