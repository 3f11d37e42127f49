set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
P=$PWD/.h200/proto2; cd $P
b() { ./bench2 "$@" 2>&1 | tee -a $R/c2.txt; }
S=fftmux_pass0
for rep in 1 2; do
b 16384 c2c k16384.cu:$S:8192:512:135176:k16384.tab p16_tma.cu:$S:1:512:198672:k16384.tab p16_split.cu:$S:1:512:198672:k16384.tab
done
cd - >/dev/null
t() { echo "$* $(one "$@")" | tee -a $R/c2_r2c.txt; }
for rep in 1 2; do
for p in "64 2097152" "256 524288" "512 262144" "1024 131072" "2048 65536"; do t $p native cuda --kind r2c; t $p cufft cuda --kind r2c; done
t 256 262144 native cuda --kind r2c --precision f64; t 256 262144 cufft cuda --kind r2c --precision f64
done
pack c2
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c2_gpu_check.txt
pack c2
