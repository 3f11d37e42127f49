#!/bin/bash
# Call 1 (2026-12-01b): Nsight Compute on CUDA native kernels beside cuFFT's
# (occupancy, stalls, memory); Vulkan's driver IR; Vulkan `pointers` against
# the default in alternating processes.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin:$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | tail -1)
uname -r; command -v ncu; ncu --version 2>&1 | tail -1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 500 > $R/clock.txt 2>&1 &
SMI=$!
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section SchedulerStats"
for n in 8192 16384 32768 1048576 2187; do
  timeout 80 ncu --clock-control none -k regex:fftmux --launch-count 2 $S $B/cuda_bench --match "c2c f32 $n x" --repeats 1 --warmup 0 > $R/ncu-native-$n.txt 2>&1; echo "ncu native $n rc=$?"
  timeout 80 ncu --clock-control none -k 'regex:^[^f]' --launch-count 2 $S $B/cuda_bench --match "c2c f32 $n x" --repeats 1 --warmup 0 > $R/ncu-cufft-$n.txt 2>&1; echo "ncu cufft $n rc=$?"
done
timeout 40 $B/vulkan_bench --ir $R/ir --only 1024,4096 --elements 2^20 --repeat 1 --warmup 0 2>&1 | tail -4
ls -la $R/ir | head
printf '[backends.fftw]\nplanner = "estimate"\n[backends.vulkan]\npointers = true\n' > /tmp/fxp.toml
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
run() { timeout 50 $B/fftmux_bench --class gpu --engines "$1" --variants all --set 1d --shapes 512,1024,4096,8192,16384,1048576 --precision f32 --repeats 9 --phase-budget 0.05 --budget 45 --gpu-warmup 0.3 $P --out $R/$2 > $R/$2.log 2>&1; echo "== $2 rc=$?"
  grep -hE ",(forward|copy)," $R/$2/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3; }
for i in 1 2; do
  run 'cufft,fftmux:vulkan/default' default$i
  FFTMUX_CONFIG=/tmp/fxp.toml run 'cufft,fftmux:vulkan/default' pointers$i
done
kill $SMI
awk -F, '{print $2}' $R/clock.txt | sort | uniq -c | sort -rn | head -5
pack c1
