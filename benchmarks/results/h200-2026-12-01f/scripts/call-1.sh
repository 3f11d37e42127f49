#!/bin/bash
# Call 1 (2026-12-01f): CUDA 10007's convolution kernel at 512 threads x 40
# values (no spills) against the default's 1024 x 20 (652 bytes spilled);
# the GL occupancy probe; GL's variants at 4096, 2048 and 10007 beside
# Vulkan's; Vulkan's pipeline statistics at 2^20 and 4096.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
T0=$(date +%s)
echo "10007 cufft $(one 10007 13412 cufft cuda)" | tee -a $R/b10007.txt
echo "10007 native $(one 10007 13412 native cuda)" | tee -a $R/b10007.txt
echo "10007 native-512x40 $(FFTMUX_TMP_OPTS=vpt=20,radix=8 one 10007 13412 native cuda)" | tee -a $R/b10007.txt
echo "10007 native $(one 10007 13412 native cuda)" | tee -a $R/b10007.txt
echo "10007 native-512x40 $(FFTMUX_TMP_OPTS=vpt=20,radix=8 one 10007 13412 native cuda)" | tee -a $R/b10007.txt
echo "10007 native-512x40-verify: $(FFTMUX_TMP_OPTS=vpt=20,radix=8 timeout 90 $B/fftmux run --shape 10007 --batch 64 --placement device --backend cuda --variant native --verify 2>&1 | grep verify)" | tee -a $R/b10007.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c1a
timeout 120 $B/opengl_bench --only occupancy > $R/occupancy.txt 2>&1; tail -45 $R/occupancy.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c1b
for v in default wide radix8-narrow radix8 default; do echo "4096 gl $v $(one 4096 32768 $v opengl)" | tee -a $R/glvar.txt; done
for v in default radix8-narrow default; do echo "4096 vk $v $(one 4096 32768 $v vulkan)" | tee -a $R/glvar.txt; done
echo "t=$(( $(date +%s) - T0 ))"
pack c1c
for v in default narrow wide; do echo "10007 gl $v $(one 10007 13412 $v opengl)" | tee -a $R/glvar.txt; done
echo "10007 vk default $(one 10007 13412 default vulkan)" | tee -a $R/glvar.txt
for v in default radix8-narrow; do echo "2048 gl $v $(one 2048 65536 $v opengl)" | tee -a $R/glvar.txt; done
echo "2048 vk default $(one 2048 65536 default vulkan)" | tee -a $R/glvar.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c1d
timeout 100 $B/vulkan_bench --stats --only 1048576,4096 --repeat 10 > $R/vkstats.txt 2>&1; tail -30 $R/vkstats.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c1
