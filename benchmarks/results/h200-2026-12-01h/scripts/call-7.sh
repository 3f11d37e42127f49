#!/bin/bash
# Call 7 (2026-12-01h): the device tool's command line, run on the machine
# call 6 left warm (the order of the two generators reversed): 2^20 R2C and
# 2^19, where call 6 put v17 behind v16.
. .h200/setup.sh; one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 40 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }; for c in "1048576 128 r2c" "524288 256 c2c"; do set -- $c; q=$(one $1 $2 default vulkan --kind $3); h=$( (export FX_HALF=1; one $1 $2 default vulkan --kind $3) ); echo "$1 x$2 $3 vulkan quarter $q half $h" | tee -a $R/h6_times.txt; done; pack c7
