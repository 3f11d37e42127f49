#!/bin/bash
# Call 3 (2026-12-01e): chunked exchanges are now the default (variant
# `unchunked` keeps two passes). One process per plan: F64 8192 and 6000
# (newly one chunked kernel on 48 KiB) and F32 12288, default against
# unchunked on Vulkan and OpenGL, cuFFT beside; cuFFT at 12800, 16384, 4093
# for calls 1-2's ratios; then OpenGL's radix cap 16 against 32
# (FFTMUX_TMP_GL_RADIX) at 1024-8192.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for nbp in 8192:16384:f64 6000:22369:f64 12288:10922:f32; do IFS=: read n b p <<< "$nbp"
  echo "$n $p cufft $(one $n $b cufft cuda --precision $p) vk $(one $n $b default vulkan --precision $p) vk-un $(one $n $b unchunked vulkan --precision $p) gl $(one $n $b default opengl --precision $p) gl-un $(one $n $b unchunked opengl --precision $p)" | tee -a $R/chunked.txt
done
for nb in 12800:10485 16384:8192 4093:32792; do n=${nb%:*}; b=${nb#*:}
  echo "$n f32 cufft $(one $n $b cufft cuda)" | tee -a $R/chunked.txt
done
pack c3a
for nb in 1024:131072 2048:65536 4096:32768 8192:16384; do n=${nb%:*}; b=${nb#*:}
  echo "$n gl-r16 $(FFTMUX_TMP_GL_RADIX=16 one $n $b default opengl) gl-r32 $(FFTMUX_TMP_GL_RADIX=32 one $n $b default opengl) gl-r16 $(FFTMUX_TMP_GL_RADIX=16 one $n $b default opengl)" | tee -a $R/glradix.txt
done
pack c3
