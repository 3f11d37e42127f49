set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
which ncu nsys 2>&1 | tee $R/c2_tools.txt; ls /usr/local/cuda/bin >> $R/c2_tools.txt
P=$PWD/.h200/proto2; cd $P
S=fftmux_pass0
./bench2 16384 c2c g16.cu:$S:1:512:198672:g16.tab g16.cu:$S:1:512:198672:g16.tab:86 g16.cu:$S:1:512:198672:g16.tab:100 g16.cu:$S:1:512:198672:g16.tab:0 k16384.cu:$S:8192:512:135176:k16384.tab k16384b.cu:$S:8192:512:135176:k16384.tab 2>&1 | tee -a $R/c2_stream.txt
cd - >/dev/null
t() { echo "$* $(one "$@")" | tee -a $R/c2.txt; }
for rep in 1 2; do
t 16384 8192 native cuda; t 16384 8192 native-unstreamed cuda; t 16384 8192 cufft cuda
t 8192 8192 native cuda --precision f64; t 8192 8192 native-unstreamed cuda --precision f64; t 8192 8192 cufft cuda --precision f64
done
$B/fftmux run --shape 8192 --batch 100 --placement device --backend cuda --variant native --precision f64 --verify 2>&1 | tail -3 | tee -a $R/c2.txt
pack c2
