set -u; cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
./bench 16384 orig16.cu:fftmux_pass0:0:512:135176 split16.cu:fftmux_pass0:0:512:67588 pers16.cu:k_pers16:1:512:198672 pers16h.cu:k_pers16:1:512:133136 pers16o.cu:k_pers16o:1:512:229392 pers16.cu:k_pers16:1:512:198672 orig16.cu:fftmux_pass0:0:512:135176
./bench 32768 k32.cu:fftmux_pass0:0:1024:135172 pers32.cu:k_pers32:1:1024:225296 k32.cu:fftmux_pass0:0:1024:135172
./bench 8192 orig8.cu:fftmux_pass0:0:256:67592 split8.cu:fftmux_pass0:0:256:33796 pers8.cu:k_pers8:2:256:99344 pers8o.cu:k_pers8o:1:256:133136
