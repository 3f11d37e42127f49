#!/bin/bash
# Call 2 (2026-12-01h): Vulkan's passes at 2^20 and 2^21 one by one
# (vulkan_bench, registers) as they are and with the hooks of call 1; the
# single-pass composites on Vulkan with composites above 16 from 2048 or
# 4096 points (FX_LCF), CUDA's 2187 as 9 x 9 x 9 x 3; cuFFT beside.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for e in "X=0" "FX_CT=4" "FX_SM=65536" "FX_CT=4 FX_SM=65536"; do
  echo "== $e" >> $R/h2_passes.txt
  env $e timeout 120 $B/vulkan_bench --only 1048576,2097152 --stats --repeat 20 >> $R/h2_passes.txt 2>&1
done
pack c2
for nv in "1000 2048" "1536 2048" "2187 4096" "3125 4096"; do set -- $nv
  b=$(( (1<<27) / $1 ))
  c=$(one $1 $b cufft cuda); v=$(one $1 $b default vulkan); l=$(FX_LCF=$2 one $1 $b default vulkan)
  echo "$1 cufft $c vulkan $v lcf$2 $l" | tee -a $R/h2_times.txt
done
b=$(( (1<<27) / 2187 ))
echo "2187 cuda-native $(one 2187 $b native cuda) lcf4096 $(FX_LCF=4096 one 2187 $b native cuda)" | tee -a $R/h2_times.txt
b=$(( (1<<27) / 2401 ))
echo "2401 cufft $(one 2401 $b cufft cuda) cuda-native $(one 2401 $b native cuda)" | tee -a $R/h2_times.txt
echo "1048576 sm65536-radix16 $(FX_SM=65536 one 1048576 128 radix16 vulkan) ct4-radix16 $(FX_CT=4 one 1048576 128 radix16 vulkan)" | tee -a $R/h2_times.txt
pack c2
