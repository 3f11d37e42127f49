#!/bin/bash
# Call 5 (2026-12-01f): v14 (the lean rule as in call 4) at sizes not yet
# measured this session: GL and Vulkan at 65536, 2^22, 2^24; GL's narrow at
# 4093 and 4097 (the default's one-pass convolutions run 1.27-1.33x Vulkan).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for nb in 65536:2048 4194304:32 16777216:8; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 vk $(one $n $b default vulkan) gl $(one $n $b default opengl)" | tee -a $R/v14b.txt
done
for nb in 4093:32792 4097:32760; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 gl-narrow $(one $n $b narrow opengl) gl-wide $(one $n $b wide opengl)" | tee -a $R/v14b.txt
done
pack c5
