set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
P=$PWD/.h200/proto2; cd $P
S=fftmux_pass0; L=$S:16384:256:67592
./bench2 32768 c2c g32.cu:$L:g32.tab g32g.cu:$L:g32.tab g32.cu:$L:g32.tab g32g.cu:$L:g32.tab 2>&1 | tee -a $R/c4_gather.txt
./bench2 65536 c2c b8v1.cu:$L:k8192c8.tab b8g.cu:$L:k8192c8.tab 2>&1 | tee -a $R/c4_gather.txt
./bench2 16384 c2c b2v1.cu:$L:k8192c2.tab b2g.cu:$L:k8192c2.tab g16.cu:$S:1:512:198672:g16.tab:85 2>&1 | tee -a $R/c4_gather.txt
G=""; H=""
for c in 0 57 71 72 85 100; do G="$G g2401.cu:$S:55900:49:19816:g2401.tab:$c"; H="$H g2187.cu:$S:61370:81:18048:g2187.tab:$c"; done
./bench2 2401 c2c $G 2>&1 | tee -a $R/c4_carveout.txt
./bench2 2187 c2c $H 2>&1 | tee -a $R/c4_carveout.txt
pack c4
