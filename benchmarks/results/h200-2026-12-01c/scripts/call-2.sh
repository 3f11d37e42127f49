#!/bin/bash
# Call 2 (2026-12-01c): is the spread of identical kernels (call 1: native
# and native-wide, the same source, 0.651 and 0.561 ms at 8192) the process
# / the plan's allocations? Separate processes of one plan each, alternating
# native and x-cs (experiment: input read with __ldcs, evict-first, so that
# the stream does not push the twiddle table out of L1); cuda_bench twice;
# Vulkan composites against prime-radices on the odd lines.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
for n in 8192:16384 2187:61370 3125:42949; do for i in 1 2 3 4; do for v in native x-cs; do
  s=${n%:*}; b=${n#*:}
  t=$(timeout 60 $B/fftmux run --shape $s --batch $b --placement device --backend cuda --variant $v --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2, $3}')
  echo "$s $v run$i $t"
done; done; done | tee $R/procs.txt
M="c2c f32 1000 x|c2c f32 1536 x|c2c f32 2187 x|c2c f32 3125 x|c2c f32 6000 x|c2c f32 8192 x|c2c f32 16384 x|c2c f32 1048576 x|c2c f32 1024x1024 x"
for k in 1 2; do
timeout 150 $B/cuda_bench --variants native-wide,native-x-cs,native-small-groups --repeats 9 --warmup 0.3 --match "$M" > $R/cuda$k.txt 2>&1; echo "cuda_bench rc=$?"
grep -E "^(1d|2d)" $R/cuda$k.txt | grep -v shift | sed 's/  */ /g' | awk '{n=$4; e=""; for(i=6;i<=NF;i++){if($i ~ /^[0-9.]+$/ && $(i+1)=="ms"){ms=$i; break}; e=e $i " "} print n, e, ms}' | paste -sd' ' | sed 's/ \([0-9]*\) cuFFT/\n\1 cuFFT/g'
done
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 250 $B/fftmux_bench --class gpu --engines 'cufft,cudaMemcpy,fftmux:vulkan/default,fftmux:vulkan/prime-radices' --variants all --set 1d --shapes 1536,2187,3125,6000 --precision f32 --repeats 9 --phase-budget 0.05 --budget 240 --gpu-warmup 0.3 $P --out $R/vk > $R/vk.log 2>&1; echo "vk rc=$?"
grep -hE ",(forward|copy)," $R/vk/bench.csv | awk -F, '{printf "%s %s %.3f ms %.0f GB/s %s\n", $7, $12, $17*1000, 16*$10/$17/1e9, $28}' | sort -n -k1,1 -k3,3
pack c2
