#!/bin/bash
# Call 2 (2026-12-01f): CUDA 10007 at 512/640 threads (TMP_P) and 4093/4097
# as they are; GL with a smaller shared-memory budget per group
# (FFTMUX_TMP_GL_SHARED: split/chunked exchanges so that more groups fit the
# 64 KiB GL leaves an SM) and GL's narrow; Vulkan 2^20's variants with
# pipeline statistics.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
one() { local n=$1 b=$2 v=$3 be=$4; shift 4; timeout 60 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v --repeat 30 --warmup 10 "$@" 2>&1 | grep execute | awk '{print $2}'; }
T0=$(date +%s)
echo "10007 native-p640 $(FFTMUX_TMP_P=640 one 10007 13412 native cuda)" | tee -a $R/b10007.txt
echo "10007 native-p512 $(FFTMUX_TMP_P=512 one 10007 13412 native cuda)" | tee -a $R/b10007.txt
echo "4097 cufft $(one 4097 32760 cufft cuda) native $(one 4097 32760 native cuda)" | tee -a $R/b10007.txt
echo "t=$(( $(date +%s) - T0 ))"
pack c2a
for nb in 4096:32768 8192:16384 16384:8192 2048:65536 1048576:128 1024:131072 1000:134217 2187:61370; do n=${nb%:*}; b=${nb#*:}
  echo "$n gl-s17408 $(FFTMUX_TMP_GL_SHARED=17408 one $n $b default opengl)" | tee -a $R/glshared.txt
done
echo "t=$(( $(date +%s) - T0 ))"
pack c2b
for nb in 4096:32768 16384:8192 1048576:128; do n=${nb%:*}; b=${nb#*:}
  echo "$n gl-s24576 $(FFTMUX_TMP_GL_SHARED=24576 one $n $b default opengl)" | tee -a $R/glshared.txt
done
for nb in 8192:16384 1048576:128; do n=${nb%:*}; b=${nb#*:}
  echo "$n gl-default $(one $n $b default opengl)" | tee -a $R/glshared.txt
done
for nb in 4096:32768 2048:65536 1024:131072; do n=${nb%:*}; b=${nb#*:}
  echo "$n gl-narrow $(one $n $b narrow opengl)" | tee -a $R/glshared.txt
done
echo "t=$(( $(date +%s) - T0 ))"
pack c2c
for v in radix16 slot-addresses narrow radix8-narrow; do
  timeout 60 $B/vulkan_bench --stats --only 1048576 --repeat 10 --variant $v 2>&1 | grep -A4 "^1d" | tee -a $R/vk2p20.txt
done
echo "t=$(( $(date +%s) - T0 ))"
pack c2
