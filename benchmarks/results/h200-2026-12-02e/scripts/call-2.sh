set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
P=$PWD/.h200/proto; cd $P
b() { ./bench "$@" 2>&1 | grep -v ptxas | tee -a $R/c2.txt; }
L=fftmux_pass0:16384:256:67592
for rep in 1 2; do
b 16384 k16384.cu:fftmux_pass0:8192:512:135176:k16384c1.tab b2v1.cu:$L:k8192c2.tab b2v2.cu:$L:k8192c2.tab b2v2s.cu:$L:k8192c2.tab
b 32768 k32768.cu:fftmux_pass0:4096:1024:135172:k32768c1.tab b4v1.cu:$L:k8192c4.tab b4v2.cu:$L:k8192c4.tab
b 65536 b8v1.cu:$L:k8192c8.tab b8v2.cu:$L:k8192c8.tab b8v2s.cu:$L:k8192c8.tab
done
pack c2
