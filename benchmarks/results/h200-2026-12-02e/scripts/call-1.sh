set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
P=$PWD/.h200/proto; cd $P
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $R/c1-gpu.txt
b() { ./bench "$@" 2>&1 | tee -a $R/c1.txt; }
for rep in 1 2; do
b 8192 k8192.cu:fftmux_pass0:16384:256:67592:k8192c2.tab
b 16384 k16384.cu:fftmux_pass0:8192:512:135176:k16384c1.tab c2v1.cu:fftmux_pass0:16384:256:67592:k8192c2.tab c2v2.cu:fftmux_pass0:16384:256:67592:k8192c2.tab d2.cu:fftmux_pass0:16384:256:67592:k8192c2.tab
b 32768 k32768.cu:fftmux_pass0:4096:1024:135172:k32768c1.tab c4v1.cu:fftmux_pass0:16384:256:67592:k8192c4.tab c4v2.cu:fftmux_pass0:16384:256:67592:k8192c4.tab d4.cu:fftmux_pass0:16384:256:67592:k8192c4.tab
b 65536 c8v1.cu:fftmux_pass0:16384:256:67592:k8192c8.tab c8v2.cu:fftmux_pass0:16384:256:67592:k8192c8.tab d8.cu:fftmux_pass0:16384:256:67592:k8192c8.tab
done
cd - >/dev/null
for n in 16384 32768 65536; do for v in native cufft; do echo "$n $v $(one $n $((134217728 / n)) $v cuda)" | tee -a $R/c1.txt; done; done
pack c1
