#!/bin/bash
# Call 4 (2026-12-01d): the carveout capped at 72 % (164 KiB) in the code;
# one process per plan, native against fftmux's cufft on the 1D set; then
# narrow/wide at 1000 and 2187.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { timeout 60 $B/fftmux run --shape $1 --batch $2 --placement device --backend cuda --variant $3 --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2}'; }
for nb in 4096:32768 8192:16384 1000:134217 2187:61370 16384:8192 32768:4096 65536:2048 1048576:128 4093:32792 10007:13412 4097:32760 1024:131072; do n=${nb%:*}; b=${nb#*:}
  echo "$n cufft $(one $n $b cufft) native $(one $n $b native)" | tee -a $R/procs.txt
done
pack n4a
for nb in 1000:134217 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n narrow $(one $n $b native-narrow) wide $(one $n $b native-wide)" | tee -a $R/procs.txt
done
pack n4
