#!/bin/bash
# Call 2 (2026-12-01d): why v11 lost at 4096 (ncu: native against
# slot-addresses) and why 1000 trails cuFFT (ncu beside cuFFT's kernel);
# per process: 4096 alternated, 1000/2187 with full-warps (lines a group
# that fill whole warps) and fw4 (same, launch bound of 4 groups);
# fftmux_bench Vulkan and OpenGL at v11 on the 1D set.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
export PATH=$PATH:/usr/local/cuda/bin
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis_Tables"
prof() { # tag shape batch variant regex
  timeout 90 ncu --clock-control none -k "$5" --launch-count 2 $S $B/fftmux run --shape $2 --batch $3 --placement device --backend cuda --variant $4 --repeat 1 --warmup 0 > $R/ncu-$1.txt 2>&1
  echo "== $1 rc $?"; grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occ|Theoretical Occ|Block Limit|Issued Ipc|Warp Cycles Per Issued|Shared Memory Configuration Size|Bank" $R/ncu-$1.txt | sed 's/  */ /g' | sort | uniq | cut -c1-120
}
prof 4096-native 4096 32768 native regex:fftmux
prof 4096-slot 4096 32768 native-slot-addresses regex:fftmux
prof 1000-native 1000 134217 native regex:fftmux
prof 1000-cufft 1000 134217 cufft 'regex:^[^f]'
one() { timeout 60 $B/fftmux run --shape $1 --batch $2 --placement device --backend cuda --variant $3 --repeat 30 --warmup 10 2>&1 | grep execute | awk '{print $2}'; }
{
echo "4096 native $(one 4096 32768 native) slot $(one 4096 32768 native-slot-addresses) native $(one 4096 32768 native) slot $(one 4096 32768 native-slot-addresses) cufft $(one 4096 32768 cufft)"
for nb in 1000:134217 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n cufft $(one $n $b cufft) native $(one $n $b native) full-warps $(one $n $b native-full-warps) fw4 $(one $n $b native-fw4) fw3 $(one $n $b native-fw3)"
done; } | tee $R/procs.txt
pack n2a
P="--peer-dir $PWD/.h200/lib/fftmux-bench"
timeout 170 $B/fftmux_bench --class gpu --engines 'cufft,fftmux:vulkan/default,fftmux:opengl/default' --set 1d --shapes 1000,2187,1024,4096,8192,16384,65536,1048576,4093,10007 --precision f32 --repeats 9 --phase-budget 0.05 --budget 160 --gpu-warmup 0.3 $P --out $R/gx > $R/gx.log 2>&1; echo "gx rc=$?"
grep -hE ",(forward|copy)," $R/gx/bench.csv | awk -F, '{printf "%s %s %.3f ms\n", $7, $12, $17*1000}' | sort -n -k1,1 -k3,3
pack n2
