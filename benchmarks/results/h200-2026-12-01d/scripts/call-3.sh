#!/bin/bash
# Call 3 (2026-12-01d): the carveout policy. Per process, native with the
# carveout hint as committed (groups the occupancy API allows), without it
# (FFTMUX_TMP_CARVE=off, the driver's choice), and capped at 164 and 132 KiB
# (fewer groups, more L1); narrow/wide at 1000 and 2187; cuda_bench
# --plans 3 at 8192 and 2187 with the hint (does the in-process spread stay?).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { timeout 60 $B/fftmux run --shape $1 --batch $2 --placement device --backend cuda --variant $3 --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2}'; }
for nb in 4096:32768 8192:16384 1000:134217 2187:61370 16384:8192 65536:2048 1048576:128 10007:13412 1024:131072; do n=${nb%:*}; b=${nb#*:}
  echo "$n hint $(one $n $b native) off $(FFTMUX_TMP_CARVE=off one $n $b native) c164 $(FFTMUX_TMP_CARVE=164 one $n $b native) c132 $(FFTMUX_TMP_CARVE=132 one $n $b native) hint $(one $n $b native)"
done | tee $R/carve.txt
for nb in 1000:134217 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n narrow $(one $n $b native-narrow) wide $(one $n $b native-wide) narrow-c164 $(FFTMUX_TMP_CARVE=164 one $n $b native-narrow)"
done | tee $R/vpt.txt
pack n3a
M="c2c f32 8192 x|c2c f32 2187 x|c2c f32 4096 x"
timeout 100 $B/cuda_bench --plans 3 --repeats 9 --warmup 0.3 --match "$M" > $R/plans1.txt 2>&1
grep -E "^1d" $R/plans1.txt | sed 's/  */ /g' | cut -c1-110
pack n3
