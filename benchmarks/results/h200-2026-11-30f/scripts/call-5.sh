#!/bin/bash
# Call 5: Vulkan per-pass times of the 2D problems (4096^2 now three passes).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 100 $B/vulkan_bench --only 2d --repeat 10 --warmup 0.5 > $R/vk2d.txt 2>&1; echo "rc=$?"
cat $R/vk2d.txt | cut -c1-220
pack c9
