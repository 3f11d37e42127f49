#!/bin/bash
# Fifth call: launch bounds (FFTMUX_EXP_RESIDENT) and lines a group
# (FFTMUX_EXP_TEAMS) on the long chains (2^20-2^24), from .h200/exp
# (HEAD + .h200/exp3.patch); Nsight Compute of C2C 2^20.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c5; OLD=$PWD/.h200/exp
export PATH=$PATH:/usr/local/cuda/bin
sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables"
prof() { # tag variant regex count
  timeout 100 ncu --clock-control none -k "$3" --launch-count $4 $sections $B/fftmux run --shape 1048576 --batch 128 --placement device --backend cuda --variant $2 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1
}
prof c2c1048576-native native regex:fftmux 2
prof c2c1048576-cufft cufft 'regex:^[^f]' 2
pack c5
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c5.txt >> $OUT/c5.txt; }
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c5_verify.txt; }
for x in FFTMUX_EXP_RESIDENT=3 FFTMUX_EXP_TEAMS=4 "FFTMUX_EXP_TEAMS=4 FFTMUX_EXP_RESIDENT=6"; do
  v "$x" --shape 1048576 --batch 3 --shift both; v "$x" --shape 2097152 --batch 2 --kind r2c
done
for rep in 1 2; do
  for spec in "1048576 c2c" "2097152 c2c" "2097152 r2c" "4194304 r2c"; do
    set -- $spec; n=$1; k=$2; b=$(((1 << 27) / n))
    t $n $b native cuda --kind $k
    for x in FFTMUX_EXP_RESIDENT=3 FFTMUX_EXP_TEAMS=4 "FFTMUX_EXP_TEAMS=4 FFTMUX_EXP_RESIDENT=6"; do e "$x" $n $b native cuda --kind $k; done
    t $n $b cufft cuda --kind $k
  done
  t 16777216 8 native cuda; e FFTMUX_EXP_TEAMS=4 16777216 8 native cuda; t 16777216 8 cufft cuda
done
pack c5
