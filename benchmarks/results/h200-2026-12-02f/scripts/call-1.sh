set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
P=$PWD/.h200/proto2; cd $P
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $R/c1-gpu.txt
b() { ./bench2 "$@" 2>&1 | tee -a $R/c1.txt; }
S=fftmux_pass0
for rep in 1 2; do
b 16384 c2c k16384.cu:$S:8192:512:135176:k16384.tab p16_loop.cu:$S:1:512:135184:k16384.tab p16_half.cu:$S:1:512:200720:k16384.tab p16_split.cu:$S:1:512:198672:k16384.tab p16_nolo.cu:$S:1:512:198672:k16384.tab
b 1024 r2c r1024.cu:$S:65536:64:8488:r1024.tab r1024s.cu:$S:65536:64:8488:r1024.tab r1024s12.cu:$S:65536:64:8488:r1024.tab r1024s16.cu:$S:65536:64:8488:r1024.tab r1024w.cu:$S:32768:64:17920:r1024w.tab
done
cd - >/dev/null
pack c1
$B/fftmux_cuda_gpu_test --gtest_filter='CudaErrors.*' 2>&1 | tail -6 | tee $R/c1_errors.txt
pack c1
