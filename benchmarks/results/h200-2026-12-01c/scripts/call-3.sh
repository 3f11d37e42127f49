#!/bin/bash
# Call 3 (2026-12-01c): where the in-process spread comes from (cuda_bench
# --plans 4: the native plan made four more times, each timed twice in
# turn); one process per plan (fftmux run) for cufft, native and
# native-prime-radices on the odd lines and 8192/16384, and native-x-cs.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 150 $B/cuda_bench --plans 4 --variants native-x-cs --repeats 9 --warmup 0.3 --match "c2c f32 8192 x|c2c f32 2187 x|c2c f32 1536 x" > $R/spread.txt 2>&1; echo "spread rc=$?"
grep -E "^1d" $R/spread.txt | grep -v shift | sed 's/  */ /g' | cut -c1-110
one() { timeout 60 $B/fftmux run --shape $1 --batch $2 --placement device --backend cuda --variant $3 --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2}'; }
for nb in 1000:134217 1536:87381 2187:61370 2401:55902 3125:42949 6000:22369 8192:16384 16384:8192; do
  n=${nb%:*}; b=${nb#*:}
  echo "$n cufft $(one $n $b cufft) native $(one $n $b native) prime $(one $n $b native-prime-radices) native $(one $n $b native)"
done | tee $R/procs.txt
for nb in 8192:16384 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n native $(one $n $b native) x-cs $(one $n $b native-x-cs) native $(one $n $b native) x-cs $(one $n $b native-x-cs)"
done | tee -a $R/procs.txt
pack c3
