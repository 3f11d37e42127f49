set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
P=$PWD/.h200/proto; cd $P
b() { ./bench "$@" 2>&1 | grep -v ptxas | tee -a $R/c6.txt; }
L=fftmux_pass0:16384:256:67592
for rep in 1 2; do
b 16384 k16384.cu:fftmux_pass0:8192:512:135176:k16384c1.tab b2v2.cu:$L:k8192c2.tab s2.cu:$L:k8192c2.tab
b 32768 k32768.cu:fftmux_pass0:4096:1024:135172:k32768c1.tab b4v1.cu:$L:k8192c4.tab s4.cu:$L:k8192c4.tab
b 65536 b8v1.cu:$L:k8192c8.tab s8.cu:$L:k8192c8.tab
done
pack c6
