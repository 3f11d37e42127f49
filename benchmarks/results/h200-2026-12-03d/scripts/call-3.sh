#!/bin/bash
# Call 3: v36 with real_columns and real_chain on Vulkan's real lines
# (unmeasured sizes) against mirror-pass.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3
for n in 65536 131072 262144; do b=$(((1 << 27) / n)); for v in default mirror-pass; do t $n $b $v vulkan --kind r2c; done; done
for v in default mirror-pass; do t 65536 2048 $v vulkan --kind c2r; done
t 2097152 64 native cuda --kind c2r
pack c3
