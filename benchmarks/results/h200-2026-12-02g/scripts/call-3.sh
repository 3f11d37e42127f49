set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
OLD=$PWD/.h200/old/fftmux/plugins
t() { echo "new $* $(one "$@")" | tee -a $R/c3.txt; }
o() { echo "old $* $(FFTMUX_PLUGIN_PATH=$OLD one "$@")" | tee -a $R/c3.txt; }
FFTMUX_PLUGIN_PATH=$OLD $B/fftmux backends 2>&1 | head -3 >> $R/c3.txt
for rep in 1 2; do
t 16384 8192 native cuda; t 16384 8192 native-unstreamed cuda; o 16384 8192 native cuda; t 16384 8192 cufft cuda
t 8192 8192 native cuda --precision f64; t 8192 8192 native-unstreamed cuda --precision f64; o 8192 8192 native cuda --precision f64; t 8192 8192 cufft cuda --precision f64
for p in "65536 2048" "2401 55901" "16777216 8" "8 16777216"; do t $p native cuda; o $p native cuda; t $p cufft cuda; done
t 256 524288 native cuda --precision f64; o 256 524288 native cuda --precision f64; t 256 524288 cufft cuda --precision f64
done
for a in "8192 --batch 100 --precision f64" "8192 --batch 7 --precision f64 --direction inverse --norm ortho" "16384 --batch 50" "2401 --batch 33" "65536 --batch 9"; do
  echo "verify $a: $($B/fftmux run --backend cuda --variant native --placement device --shape $a --verify 2>&1 | grep -E '^verify|rror' | head -2)" | tee -a $R/c3.txt
done
pack c3
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c3_gpu_check.txt
pack c3
