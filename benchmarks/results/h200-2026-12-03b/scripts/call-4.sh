#!/bin/bash
# Call 4 (2026-12-03b): Nsight Compute on R2C 2048 x65536: v32 (one output
# a slot at 32 values), the all-pairs build (.h200/pairs) and cuFFT; then
# v32's R2C rows against cuFFT, one process each.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
export PATH=$PATH:/usr/local/cuda/bin
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section InstructionStats"
prof() { # tag variant regex [env]
  local tag=$1 v=$2 k=$3; shift 3
  env "$@" timeout 120 ncu --clock-control none -k "$k" --launch-count 1 $S \
    $B/fftmux run --shape 2048 --batch 65536 --kind r2c --placement device --backend cuda \
    --variant $v --repeat 1 --warmup 0 > $R/ncu-r2c2048-$tag.txt 2>&1
  echo "== $tag rc $?" >> $OUT/c4.txt
  grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occ|Theoretical Occ|Executed Ipc|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|Block Limit" $R/ncu-r2c2048-$tag.txt | sed 's/  */ /g' >> $OUT/c4.txt
}
prof v32 native regex:fftmux
prof pairs native regex:fftmux FFTMUX_PLUGIN_PATH=$PWD/.h200/pairs/plugins
prof cufft cufft 'regex:^[^f]'
cp $R/ncu-*.txt $OUT/
t() { echo "$* $(one "$@")" | tee -a $R/c4.txt >> $OUT/c4.txt; }
for k in r2c c2r; do
  for n in 1024 2048 4096 8192 16384 1048576; do
    b=$(((1 << 27) / n)); t $n $b native cuda --kind $k; t $n $b cufft cuda --kind $k
  done
done
# R2C with the upper slots stored in ascending order (.h200/pairsasc, every
# even count paired) against the all-pairs build and v32.
for rep in 1 2; do
  for n in 2048 1024 128; do
    b=$(((1 << 27) / n))
    for d in pairs pairsasc; do echo "$n $b $d r2c $(FFTMUX_PLUGIN_PATH=$PWD/.h200/$d/plugins one $n $b native cuda --kind r2c)" >> $OUT/c4.txt; done
    t $n $b native cuda --kind r2c
  done
done
pack c4
# 2187 under every CUDA variant whose kernel differs (one process each).
for v in native native-narrow native-radix8-narrow native-prime-radices native-two-groups cufft native; do t 2187 61370 $v cuda; done
pack c4
