#!/bin/bash
# Call 3 (2026-12-01h): Vulkan 2^19-2^21 with the column length forced
# (FX_COL: a short column pass, a long row pass) and at most 4 lines a
# group for lines of 1024 points and more (FX_TEAMS); passes one by one.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
for e in "X=0" "FX_TEAMS=4" "FX_COL=512" "FX_COL=512 FX_TEAMS=4" "FX_COL=1024" "FX_COL=1024 FX_TEAMS=4" "FX_COL=256 FX_TEAMS=4"; do
  echo "== $e" >> $R/h3_passes.txt
  env $e timeout 120 $B/vulkan_bench --only 524288,1048576,2097152 --stats --repeat 20 >> $R/h3_passes.txt 2>&1
done
pack c3
for c in "524288 X=0" "524288 FX_TEAMS=4" "524288 FX_COL=256 FX_TEAMS=4" "1048576 X=0" "1048576 FX_TEAMS=4" "1048576 FX_COL=512 FX_TEAMS=4" "2097152 X=0" "2097152 FX_COL=1024 FX_TEAMS=4"; do set -- $c
  echo "$1 $2 $(env $2 one $1 $(( (1<<27) / $1 )) default vulkan)" | tee -a $R/h3_times.txt
done
pack c3
