set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
P=$PWD/.h200/proto; cd $P
b() { ./bench "$@" 2>&1 | grep -v ptxas | tee -a $R/c3.txt; }
L=fftmux_pass0:16384:256:67592
for rep in 1 2; do
b 16384 k16384.cu:fftmux_pass0:8192:512:135176:k16384c1.tab g4.cu:fftmux_pass0:32768:256:33800:k4096c4.tab
b 32768 k32768.cu:fftmux_pass0:4096:1024:135172:k32768c1.tab b4v1.cu:$L:k8192c4.tab g8.cu:fftmux_pass0:32768:256:33800:k4096c8.tab e2.cu:fftmux_pass0:8192:512:135176:k16384c2.tab
b 65536 e4.cu:fftmux_pass0:8192:512:135176:k16384c4.tab
done
pack c3
