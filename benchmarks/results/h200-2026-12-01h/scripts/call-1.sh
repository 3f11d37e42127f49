#!/bin/bash
# Call 1 (2026-12-01h): Vulkan's pow2 2^17-2^24 as they are, with GL's
# lean shapes (FX_SM=65536) and with 4 lines a strided group (FX_CT=4:
# 2^21 and 2^22 in two passes); cuFFT in the same call.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for k in 17 18 19 20 21 22 23 24; do
  n=$((1<<k)); b=$((1<<(27-k)))
  c=$(one $n $b cufft cuda)
  v=$(one $n $b default vulkan)
  s=$(FX_SM=65536 one $n $b default vulkan)
  t=$(FX_CT=4 one $n $b default vulkan)
  echo "$n cufft $c vulkan $v sm65536 $s ct4 $t" | tee -a $R/h1_times.txt
done
pack c1
for s in "2097152 --batch 4" "4194304 --batch 2" "1048576 --batch 4"; do
  FX_CT=4 FX_SM=65536 timeout 60 $B/fftmux run --shape $s --placement device --backend vulkan --verify --repeat 3 2>&1 | grep -E "verify|execute" | tr '\n' ' ' | sed "s/^/ct4+sm $s: /" | tee -a $R/h1_times.txt; echo
done
pack c1
