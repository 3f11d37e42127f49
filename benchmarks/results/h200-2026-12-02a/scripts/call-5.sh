#!/bin/bash
# Call 5 (2026-12-02a, HEAD without hooks): the spread of one process per
# plan at 16384 and 32768 points, where call 2 had native-slot-addresses
# (16384) and native-wide (32768, one pass) ahead of the default; each
# process verified against FFTW.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 v=$2; timeout 90 $B/fftmux run --shape $n --batch $(( (1<<27) / n )) --placement device --backend cuda --variant $v --repeat 30 --warmup 10 --verify 2>&1 | grep -E "execute|verify" | awk '{print $2, $NF}' | tr '\n' ' '; }
for n in 32768 16384; do
  for v in cufft native native-wide native-slot-addresses; do
    for k in 1 2 3; do echo "$n $v $(one $n $v)" | tee -a $R/a5_spread.txt; done
  done
  pack c5
done
