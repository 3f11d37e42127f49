#!/bin/bash
# Call 4 (2026-12-01c): one process per plan (fftmux run, 30 timed runs
# after 10): cuda native against fftmux's cufft variant over the rest of
# the 1D set at v10; vulkan default in fresh processes (is its spread the
# in-process one too?).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { timeout 60 $B/fftmux run --shape $1 --batch $2 --placement device --backend $3 --variant $4 --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2}'; }
for nb in 8:16777216 64:2097152 512:262144 1024:131072 2048:65536 4096:32768 32768:4096 65536:2048 1048576:128 16777216:8 4093:32792 4097:32760 10007:13412; do
  n=${nb%:*}; b=${nb#*:}
  echo "$n cufft $(one $n $b cuda cufft) native $(one $n $b cuda native)"
done | tee $R/procs.txt
for nb in 1024:131072 4096:32768 8192:16384 16384:8192 2187:61370 6000:22369; do
  n=${nb%:*}; b=${nb#*:}
  echo "$n vulkan $(one $n $b vulkan default) $(one $n $b vulkan default) $(one $n $b vulkan default)"
done | tee $R/procs-vk.txt
pack c4
