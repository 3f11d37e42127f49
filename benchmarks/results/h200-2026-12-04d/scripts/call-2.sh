#!/bin/bash
# Second call: v43 (the pre/post pass in mirror pairs by default, mirror
# chunks gone): gpu_check.sh, `--verify` of changed problems, OpenGL and
# Vulkan against v42 ($OLD) where call 1 did not time the pairs, and the
# rows' fused post step against the (now cheaper) pass: variant mirror-pass
# under CUDA R2C 2^20-2^23 and Vulkan F64.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c2; OLD=$PWD/.h200/old/plugins
OUT=$OUT/gpu-logs timeout 240 bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 > $OUT/c2_gpu_check.txt
grep -h "FAILED\|Failure" -A3 $OUT/gpu-logs/*.log 2>/dev/null | head -60 > $OUT/c2_failures.txt
rm -rf $OUT/gpu-logs
v() { echo "== $* $(timeout 60 $B/fftmux run --verify "$@" 2>&1 | tail -1)" >> $OUT/c2_verify.txt; }
v --backend cuda --shape 16777216 --batch 2 --kind r2c --shift both
v --backend cuda --shape 4194304 --batch 3 --kind c2r --norm ortho --in-place
v --backend cuda --shape 1048576 --batch 3 --kind c2r --precision f64 --shift output
v --backend vulkan --shape 2097152 --batch 3 --kind r2c --shift input
v --backend vulkan --shape 65536 --batch 5 --kind c2r --in-place
v --backend opengl --shape 65536 --batch 5 --kind r2c --norm ortho
v --backend opengl --shape 1048576 --batch 3 --kind c2r --shift both
s() { local a=$(date +%s); "$@"; echo "  ($(( $(date +%s) - a )) s)" >> $OUT/$CALL.txt; }
for rep in 1 2; do
  for p in "opengl 65536 2048 r2c" "opengl 65536 2048 c2r" "opengl 1048576 128 c2r" \
    "vulkan 65536 2048 c2r" "vulkan 262144 512 r2c" "vulkan 4194304 32 c2r"; do
    read be n b k <<< "$p"
    t $n $b default $be --kind $k; o $n $b $be default --kind $k
  done
  for p in "1048576 128" "2097152 64" "4194304 32" "8388608 16"; do
    read n b <<< "$p"
    t $n $b native cuda --kind r2c; t $n $b native-mirror-pass cuda --kind r2c
  done
  for p in "1048576 128" "4194304 32"; do
    read n b <<< "$p"
    t $n $b native cuda --kind r2c --precision f64; t $n $b native-mirror-pass cuda --kind r2c --precision f64
  done
  for p in "524288 256" "1048576 128"; do
    read n b <<< "$p"
    t $n $b default vulkan --kind r2c --precision f64; t $n $b mirror-pass vulkan --kind r2c --precision f64
  done
done
s t 16777216 8 native cuda --kind r2c; s o 16777216 8 cuda native --kind r2c; s t 16777216 8 cufft cuda --kind r2c
s t 2097152 64 native cuda --kind c2r; s o 2097152 64 cuda native --kind c2r
pack c2
