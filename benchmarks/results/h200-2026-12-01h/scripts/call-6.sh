#!/bin/bash
# Call 6 (2026-12-01h): generator v17 (a quarter of the register file for a
# Vulkan group's values) against v16's half (FX_HALF=1, a hook of the staged
# build) on the problems whose Vulkan plans v17 changed.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for c in "1048576 128 c2c" "1024x1024 128 c2c" "1024x1024 64 c2c" "1048576 128 r2c" "524288 256 c2c"; do set -- $c
  h=$( (export FX_HALF=1; one $1 $2 default vulkan --kind $3) ); q=$(one $1 $2 default vulkan --kind $3)
  echo "$1 x$2 $3 vulkan half $h quarter $q" | tee -a $R/h6_times.txt
done
pack c6
