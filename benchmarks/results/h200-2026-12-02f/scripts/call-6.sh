set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
P=$PWD/.h200/proto2; cd $P
S=fftmux_pass0
./bench2 16384 c2c k16384.cu:$S:8192:512:135176:k16384.tab p16_tma.cu:$S:1:512:198672:k16384.tab s16.cu:$S:1:512:198672:s16.tab s16.cu:$S:0:512:198672:s16.tab s16b.cu:$S:1:512:198672:s16.tab s16n.cu:$S:1:512:198672:s16.tab 2>&1 | tee -a $R/c6_stream.txt
cd - >/dev/null
t() { echo "$* $(one "$@")" | tee -a $R/c6.txt; }
for rep in 1 2; do
for p in "64 2097152" "128 1048576" "256 524288" "1024 131072"; do t $p native cuda --kind r2c; t $p cufft cuda --kind r2c; done
for p in "64 2097152" "128 1048576" "256 524288"; do t $p native cuda --kind c2r; t $p cufft cuda --kind c2r; done
done
t 16384 8192 native cuda; t 16384 8192 cufft cuda
pack c6
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c6_gpu_check.txt
pack c6
