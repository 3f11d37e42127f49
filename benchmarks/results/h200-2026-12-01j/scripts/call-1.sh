#!/bin/bash
# Call 1 (2026-12-01j): cold Vulkan plans in fresh processes (open, plan,
# execute) under four SPIR-V treatments: spirv-opt's performance passes
# (default), hook FX_OPT_SET=1 (inline, scalar replacement, SSA, ADCE),
# FX_OPT_SET=3 (1 + CCP, simplification), spirv-opt off (config); the
# GLSL/driver split; one-pass composites against cuFFT; GL's 1D set.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
cold() { local n=$1 b=$2; rm -rf /tmp/fxcache; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend vulkan --repeat 30 --warmup 10 2>&1 | awk '/^open/{o=$2} /^plan/{p=$2} /^execute/{e=$2} END{printf "open %s plan %s exec %s", o, p, e}'; }
printf '[backends.fftw]\nplanner = "estimate"\n[backends.vulkan]\nspirv_opt = false\n' > /tmp/fx_noopt.toml
for rep in 1 2; do
  for k in 6 10 12 13 14 16 20 21; do
    n=$((1<<k)); b=$((1<<(27-k)))
    echo "$n full $(cold $n $b) | set1 $(export FX_OPT_SET=1; cold $n $b) | set3 $(export FX_OPT_SET=3; cold $n $b) | off $(export FFTMUX_CONFIG=/tmp/fx_noopt.toml; cold $n $b)" | tee -a $R/j1_cold.txt
  done
  pack c1
done
for s in 0 1; do
  rm -rf /tmp/fxcache
  echo "== FX_OPT_SET=$s" >> $R/j1_split.txt
  (export FX_OPT_SET=$s; timeout 120 $B/vulkan_bench --elements 2^24 --only 1024,16384,1048576,8192 --repeat 3 --warmup 0.2 >> $R/j1_split.txt 2>&1)
done
pack c1
for n in 1000 1536 2187 2401 3125 4093 4097 6000 10007; do
  b=$(( (1<<27) / n ))
  echo "$n vulkan $(one $n $b default vulkan) cufft $(one $n $b cufft cuda)" | tee -a $R/j1_composites.txt
done
pack c1
for k in $(seq 3 24); do
  n=$((1<<k)); b=$((1<<(27-k)))
  echo "$n opengl $(one $n $b default opengl)" | tee -a $R/j1_gl.txt
done
for n in 1000 1536 2187 2401 3125 4093 4097 6000 10007; do
  b=$(( (1<<27) / n ))
  echo "$n opengl $(one $n $b default opengl)" | tee -a $R/j1_gl.txt
done
pack c1
