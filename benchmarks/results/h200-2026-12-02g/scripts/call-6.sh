set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
OLD=$PWD/.h200/old/fftmux/plugins
t() { echo "new $* $(one "$@")" | tee -a $R/c6.txt >> $OUT/c6.txt; }
o() { echo "old $* $(FFTMUX_PLUGIN_PATH=$OLD one "$@")" | tee -a $R/c6.txt >> $OUT/c6.txt; }
for rep in 1 2 3; do
for p in "65536 2048" "16777216 8" "1048576 128" "2187 61370" "6000 22369" "2401 55900"; do t $p native cuda; o $p native cuda; t $p cufft cuda; done
done
pack c6
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c6_gpu_check.txt
pack c6
