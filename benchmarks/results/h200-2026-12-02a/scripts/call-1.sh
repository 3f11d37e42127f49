#!/bin/bash
# Call 1 (2026-12-02a): where an fftmux run process spends its time on the
# H200 (hook FX_STAGES prints each stage's time since start; FX_CACHED
# stages Vulkan copies in HOST_CACHED memory); CUDA native variants at
# 2187 and 2401 against cuFFT; the 2D singles of issue 5 on GL, Vulkan,
# cuFFT.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
TIMEFORMAT=%R
st() { # label, env..., -- args
  local l=$1; shift
  echo "== $l" >> $R/a1_stages.txt
  { time env FX_STAGES=1 "$@" timeout 90 $B/fftmux run --shape 1024 --batch 131072 --placement device --repeat 30 --warmup 10 >> $R/a1_stages.txt 2>&1 ; } 2>> $R/a1_stages.txt
}
nproc > $R/a1_machine.txt; free -g >> $R/a1_machine.txt; grep -m1 "model name" /proc/cpuinfo >> $R/a1_machine.txt
st vulkan-1 --backend vulkan
st vulkan-cached FX_CACHED=1 --backend vulkan
st vulkan-2 --backend vulkan
st opengl --backend opengl
st cuda-native --backend cuda --variant native
st cuda-cufft --backend cuda --variant cufft
st vulkan-host-cached FX_CACHED=1 --backend vulkan --placement host
st vulkan-host --backend vulkan --placement host
{ time $B/fftmux backends > /dev/null 2>&1 ; } 2>> $R/a1_stages.txt
pack c1
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 2187 2401; do
  b=$(( (1<<27) / n ))
  for v in cufft native native-wide-strides native-unchunked native-wide native-two-groups native-radix16; do
    echo "$n $v $(one $n $b $v cuda)" | tee -a $R/a1_cuda.txt
  done
  pack c1
done
for n in 128,128 256,256 512,512 1024,1024; do
  echo "$n cufft $(one $n 1 cufft cuda) vulkan $(one $n 1 default vulkan) opengl $(one $n 1 default opengl)" | tee -a $R/a1_2d.txt
done
pack c1
