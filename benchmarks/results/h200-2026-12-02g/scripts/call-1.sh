set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
P=$PWD/.h200/proto2; cd $P
S=fftmux_pass0
./bench2 16384 c2c k16384.cu:$S:8192:512:135176:k16384.tab p16_tma.cu:$S:1:512:198672:k16384.tab s16b.cu:$S:1:512:198672:s16.tab g16.cu:$S:1:512:198672:g16.tab s16a.cu:$S:1:512:198672:s16.tab s16z.cu:$S:1:512:198672:s16.tab 2>&1 | tee -a $R/c1_stream.txt
./bench2 32768 c2c g32.cu:$S:16384:256:67592:g32.tab g32c.cu:$S:16384:256:67592:g32.tab g32.cu:$S:16384:256:67592:g32.tab 2>&1 | tee -a $R/c1_cluster.txt
cd - >/dev/null
t() { echo "$* $(one "$@")" | tee -a $R/c1.txt; }
for rep in 1 2; do
t 16384 8192 native cuda; t 16384 8192 unstreamed cuda; t 16384 8192 cufft cuda
done
pack c1
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c1_gpu_check.txt
pack c1
