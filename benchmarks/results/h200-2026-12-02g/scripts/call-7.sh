set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
OLD=$PWD/.h200/old/fftmux/plugins; MID=$PWD/.h200/mid/fftmux/plugins
t() { echo "new $* $(one "$@")" | tee -a $R/c7.txt >> $OUT/c7.txt; }
o() { echo "old $* $(FFTMUX_PLUGIN_PATH=$OLD one "$@")" | tee -a $R/c7.txt >> $OUT/c7.txt; }
m() { echo "mid $* $(FFTMUX_PLUGIN_PATH=$MID one "$@")" | tee -a $R/c7.txt >> $OUT/c7.txt; }
for rep in 1 2 3; do
for p in "65536 2048" "16777216 8" "2401 55900" "16384 8192"; do t $p native cuda; o $p native cuda; m $p native cuda; done
done
pack c7
