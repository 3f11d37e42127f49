#!/bin/bash
# Call 3: is Vulkan's long-line speed (2^21: 500 or 1110 GB/s in two runs)
# a matter of what the process allocated before? Fresh processes, then
# sequences; Vulkan's variants at 4096-16384.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
run() { echo "== $*"; timeout 100 $B/vulkan_bench --repeat 10 "$@" 2>&1 | grep -vE "^#|^$" | tail -12; }
run --only 2097152
run --only 2097152
run --only 16777216,2097152,2097152
run --only 2097152,2097152,16777216,4194304,2097152
run --only 16384,32768,2097152,16384,32768
pack s3
for v in default wide small-groups two-groups narrow; do run --only 4096,8192,16384 --variant $v; done
pack s3
