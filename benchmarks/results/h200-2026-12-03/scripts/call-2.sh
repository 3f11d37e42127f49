#!/bin/bash
# Call 2 (2026-12-03): each pass's carveout swept alone (the others at the
# plugin's choice) on plans of several passes, experimental CUDA plugin.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
X=$PWD/.h200/exp/plugins
x() { # n batch [env...]
  local n=$1 b=$2; shift 2
  local v=$(env "$@" FFTMUX_PLUGIN_PATH=$X FFTMUX_X_LOG=1 timeout 90 $B/fftmux run --shape $n --batch $b --placement device --backend cuda --variant native --repeat 30 --warmup 10 2>/tmp/xlog | awk '/^execute/ {print $2}')
  echo "$n $b $* $v | $(grep -h '^xpass' /tmp/xlog | sort -u | awk '{printf "p%s t%s s%s g%s c%s%s; ", $2,$4,$6,$8,$10, ($14==1?" st":"")}')" | tee -a $R/c2.txt >> $OUT/c2.txt
}
sweep() { # n batch passes
  local n=$1 b=$2 P=$3
  x $n $b
  for ((i = 0; i < P; i++)); do
    for p in 14 28 43 57 71 85; do
      l=""; for ((j = 0; j < P; j++)); do [ $j = $i ] && l="$l$p," || l="$l-1,"; done
      x $n $b FFTMUX_X_CARVEOUT=${l%,}
    done
  done
}
# OpenGL: Bluestein lines chunked (the planner's lean() no longer skips
# kernels that multiply), against the committed plugin; variants on 1536,
# 2187 and 8; the copies.
G=$PWD/.h200/gl/plugins
g() { echo "$* $(FFTMUX_PLUGIN_PATH=$G one "$@")" | tee -a $R/c2gl.txt >> $OUT/c2gl.txt; }
t() { echo "$* $(one "$@")" | tee -a $R/c2gl.txt >> $OUT/c2gl.txt; }
for n in 4093 4097; do b=$(((1 << 27) / n)); echo chunked >> $OUT/c2gl.txt; g $n $b default opengl; t $n $b default opengl; t $n $b default vulkan; done
for n in 1536 2187 8; do b=$(((1 << 27) / n)); for v in default radix8 radix16 wide narrow small-groups prime-radices slot-addresses; do t $n $b $v opengl; done; t $n $b default vulkan; done
timeout 120 $B/opengl_bench --only copy > $R/c2glcopy.txt 2>&1; cp $R/c2glcopy.txt $OUT/
timeout 120 $B/vulkan_bench --only 1024,16384 --repeat 10 > $R/c2vkcopy.txt 2>&1; cp $R/c2vkcopy.txt $OUT/
pack c2
sweep 65536 2048 2
sweep 16777216 8 3
sweep 1024x1024 64 2
sweep 131072 1024 2
sweep 262144 512 2
sweep 524288 256 2
sweep 4096x4096 8 2
sweep 4194304 32 2
sweep 8388608 16 2
sweep 256x256x256 8 3
pack c2
