#!/bin/bash
# Call 2 (2026-12-02a): process stages (hook FX_STAGES; FX_CACHED stages
# Vulkan copies in HOST_CACHED memory); every CUDA native variant at
# 16384..2^24 against cuFFT; 2D singles of issue 5; GL variants at 2187
# and 4097.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
TIMEFORMAT=%R
st() { # label env-assignment args...
  local l=$1 e=$2; shift 2
  echo "== $l" >> $R/a2_stages.txt
  { time env FX_STAGES=1 $e timeout 90 $B/fftmux run --shape 1024 --batch 131072 --repeat 30 --warmup 10 "$@" >> $R/a2_stages.txt 2>&1 ; } 2>> $R/a2_stages.txt
}
st vulkan-1 X=0 --backend vulkan --placement device
st vulkan-cached FX_CACHED=1 --backend vulkan --placement device
st vulkan-2 X=0 --backend vulkan --placement device
st opengl X=0 --backend opengl --placement device
st cuda-native X=0 --backend cuda --variant native --placement device
st cuda-cufft X=0 --backend cuda --variant cufft --placement device
st vulkan-host-cached FX_CACHED=1 --backend vulkan --placement host
st vulkan-host X=0 --backend vulkan --placement host
st opengl-host X=0 --backend opengl --placement host
st cuda-host X=0 --backend cuda --variant native --placement host
echo "== backends" >> $R/a2_stages.txt
{ time $B/fftmux backends > /dev/null 2>&1 ; } 2>> $R/a2_stages.txt
pack c2
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 128x128 256x256 512x512 1024x1024; do
  echo "$n cufft $(one $n 1 cufft cuda) native $(one $n 1 native cuda) vulkan $(one $n 1 default vulkan) opengl $(one $n 1 default opengl)" | tee -a $R/a2_2d.txt
done
pack c2
for n in 16384 32768 65536 131072 262144 1048576 4194304 16777216; do
  b=$(( (1<<27) / n ))
  for v in cufft native native-radix8 native-radix4 native-wide native-narrow native-radix8-narrow native-small-groups native-two-pass native-wide-strides native-two-groups native-radix16 native-prime-radices native-slot-addresses native-unchunked; do
    echo "$n $v $(one $n $b $v cuda)" | tee -a $R/a2_cuda.txt
  done
  pack c2
done
for n in 4097 2187; do
  b=$(( (1<<27) / n ))
  echo "$n vulkan default $(one $n $b default vulkan)" | tee -a $R/a2_gl.txt
  for v in default radix8 radix4 wide narrow radix8-narrow small-groups two-pass wide-strides two-groups radix16 prime-radices slot-addresses unchunked; do
    echo "$n opengl $v $(one $n $b $v opengl)" | tee -a $R/a2_gl.txt
  done
  pack c2
done
