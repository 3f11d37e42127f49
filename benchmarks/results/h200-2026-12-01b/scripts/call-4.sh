#!/bin/bash
# Call 4 (2026-12-01b): strided passes exchange one component at a time (the
# new default) against the old rule (x-old), two-groups and x-split, on the
# multi-pass and multi-axis problems.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
M="c2c f32 32768 x|c2c f32 65536 x|c2c f32 131072 x|c2c f32 1048576 x|c2c f32 4194304 x|c2c f32 16777216 x|c2c f32 1024x1024 x|c2c f32 4096x4096 x|x256x256 x|x512x512 x|f64 1024x1024|r2c f32 4096x4096|r2c f32 1048576"
timeout 330 $B/cuda_bench --all-variants --repeats 9 --warmup 0.3 --match "$M" > $R/cuda.txt 2>&1; echo "cuda_bench rc=$?"
grep -E "^(1d|2d|3d|f64|r2c)" $R/cuda.txt | grep -v shift | sed 's/  */ /g' | awk '{n=$4; e=""; for(i=6;i<=NF;i++){if($i ~ /^[0-9.]+$/ && $(i+1)=="ms"){ms=$i; break}; e=e $i " "} print $2, $3, n, e, ms}' | grep -E "cuFFT|native( |-x-old |-x-split |-two-groups |-small-groups )" | sort -k3,3 -k6,6n
pack c4
