#!/bin/bash
# Call 1 (2026-12-03): per-pass carveout and launch-bound sweeps through an
# experimental CUDA plugin (FFTMUX_X_CARVEOUT / FFTMUX_X_LB, comma lists by
# pass index, -1/0 = the plugin's own choice), then a fresh Vulkan and OpenGL
# table of the batched 1D set at generator v29 with cuFFT beside each.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
X=$PWD/.h200/exp/plugins
x() { # label n batch [env...]
  local l=$1 n=$2 b=$3; shift 3
  local v=$(env "$@" FFTMUX_PLUGIN_PATH=$X FFTMUX_X_LOG=1 timeout 90 $B/fftmux run --shape $n --batch $b --placement device --backend cuda --variant native --repeat 30 --warmup 10 2>/tmp/xlog | awk '/^execute/ {print $2}')
  echo "$l $n $* $v | $(grep -h '^x' /tmp/xlog | tr '\n' ';')" | tee -a $R/c1x.txt >> $OUT/c1x.txt
}
t() { echo "$* $(one "$@")" | tee -a $R/c1.txt >> $OUT/c1.txt; }
N20=1048576; N21=2097152
for c in -1 0 44 57 71 85 100; do x co $N20 128 FFTMUX_X_CARVEOUT=$c,$c; done
for l in 2,0 0,2 2,2; do x lb $N20 128 FFTMUX_X_LB=$l; done
for c in -1 0 44 71,-1 -1,71 71 85 100; do x co 65536 2048 FFTMUX_X_CARVEOUT=$c,$c; done
x co 65536 2048 FFTMUX_X_CARVEOUT=71,-1; x co 65536 2048 FFTMUX_X_CARVEOUT=-1,71
for l in 2,0 3,0 0,3 4,4; do x lb 65536 2048 FFTMUX_X_LB=$l; done
for c in -1 0 44 71 100; do x co $N21 64 FFTMUX_X_CARVEOUT=$c,$c,$c; done
for l in 0,0,2 2,2,0; do x lb $N21 64 FFTMUX_X_LB=$l; done
for c in -1 0 44 57 85 100; do x co 32768 4096 FFTMUX_X_CARVEOUT=$c,$c; done
for l in 2 3 4; do x lb 32768 4096 FFTMUX_X_LB=$l,$l; done
for c in -1 57 71 85; do x co 2187 61370 FFTMUX_X_CARVEOUT=$c; done
for l in 2 3 4 6 8; do x lb 2187 61370 FFTMUX_X_LB=$l; done
for c in -1 85 100; do x co 16384 8192 FFTMUX_X_CARVEOUT=$c; done
for c in -1 44 71 100; do x co 16777216 8 FFTMUX_X_CARVEOUT=$c,$c,$c; done
pack c1
for e in 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
  n=$((1 << e)); b=$(((1 << 27) / n)); t $n $b default vulkan; t $n $b default opengl; t $n $b cufft cuda
done
pack c1
for n in 1000 1536 2187 2401 3125 4093 4097 6000 10007 12800; do
  b=$(((1 << 27) / n)); t $n $b default vulkan; t $n $b default opengl; t $n $b cufft cuda
done
pack c1
