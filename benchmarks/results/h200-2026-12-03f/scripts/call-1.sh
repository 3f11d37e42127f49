#!/bin/bash
# Next session's first call. .h200/bin and lib: 80add7f (generator v38,
# as committed). .h200/exp: plugins of 80add7f with .h200/c2r-dsmem.patch
# (8afb73d: a cluster's C2R reads X[h - l] through distributed shared
# memory) and .h200/colteams.patch (FFTMUX_EXP_COLTEAMS: lines a group
# of strided passes) applied; .h200/old: aabfbc0's (v36).
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1; OLD=$PWD/.h200/exp
v() { echo "== $* $(FFTMUX_PLUGIN_PATH=$OLD timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c1_verify.txt; }
v --kind c2r --shape 65536 --batch 2048 --placement device
v --kind c2r --shape 65536 --batch 3 --shift input
v --kind c2r --shape 65536 --batch 5 --shift output --in-place
v --kind c2r --shape 4x65536 --batch 2 --shift both --norm ortho
t 65536 2048 native cuda --kind c2r; o 65536 2048 cuda native --kind c2r; t 65536 2048 cufft cuda --kind c2r
pack c1
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c1.txt >> $OUT/c1.txt; }
for spec in "1048576 c2c" "2097152 r2c" "4194304 r2c" "2097152 c2c" "524288 c2c" "65536 c2c" "16777216 c2c"; do
  set -- $spec; n=$1; k=$2; b=$(((1 << 27) / n))
  for c in 8 16; do e FFTMUX_EXP_COLTEAMS=$c $n $b native cuda --kind $k; done
  t $n $b cufft cuda --kind $k
done
pack c1
