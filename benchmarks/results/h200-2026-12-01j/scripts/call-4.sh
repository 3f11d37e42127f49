#!/bin/bash
# Call 4 (2026-12-01j): GL at 8 points with 8-point lines spread over 4
# threads that load them directly (hook FX_SPREAD_FROM=8, never committed)
# against the staged default, verified; GL 2187 under four variants; GL
# 4097 under slot-addresses.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
b=$(( 1<<24 ))
echo "8 opengl default $(one 8 $b default opengl) spread8 $(export FX_SPREAD_FROM=8; one 8 $b default opengl) default $(one 8 $b default opengl) spread8 $(export FX_SPREAD_FROM=8; one 8 $b default opengl) vulkan $(one 8 $b default vulkan)" | tee -a $R/j4.txt
(export FX_SPREAD_FROM=8; timeout 60 $B/fftmux run --shape 8 --batch 4096 --placement device --backend opengl --verify 2>&1 | grep verify | sed 's/^/spread8 8 x 4096 /' | tee -a $R/j4.txt)
pack c4
b=$(( (1<<27) / 2187 ))
for v in slot-addresses small-groups wide-strides narrow; do
  echo "2187 opengl $v $(one 2187 $b $v opengl)" | tee -a $R/j4.txt
done
pack c4
b=$(( (1<<27) / 4097 ))
echo "4097 opengl slot-addresses $(one 4097 $b slot-addresses opengl)" | tee -a $R/j4.txt
pack c4
