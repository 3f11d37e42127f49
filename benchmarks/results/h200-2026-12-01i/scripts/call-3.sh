#!/bin/bash
# Call 3 (2026-12-01i): chain columns of 128 points on 32 values a thread
# (2^21, 2^22), verified; the fence's polling window (hook FX_POLL_US, 100
# us as committed against 3000); spirv-opt on and off (config), one
# process per plan.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for n in 2097152 4194304; do
  timeout 120 $B/fftmux run --shape $n --batch 2 --placement device --backend vulkan --verify 2>&1 | grep verify | sed "s/^/$n /" | tee -a $R/i3_times.txt
done
for k in 21 22 20 12; do
  n=$((1<<k)); b=$((1<<(27-k)))
  echo "$n vulkan poll100 $(one $n $b default vulkan) poll3000 $(export FX_POLL_US=3000; one $n $b default vulkan) cufft $(one $n $b cufft cuda)" | tee -a $R/i3_times.txt
done
pack c3
printf '[backends.fftw]\nplanner = "estimate"\n[backends.vulkan]\nspirv_opt = false\n' > /tmp/fx_noopt.toml
for n in 64 1024 4096 8192 1000 2187 1048576; do
  b=$(( (1<<27) / n ))
  echo "$n vulkan opt $(one $n $b default vulkan) noopt $(export FFTMUX_CONFIG=/tmp/fx_noopt.toml; one $n $b default vulkan)" | tee -a $R/i3_opt.txt
done
pack c3
