set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
FIX=$PWD/.h200/fix/fftmux/plugins; MID=$PWD/.h200/mid/fftmux/plugins
f() { echo "fix $* $(FFTMUX_PLUGIN_PATH=$FIX one "$@")" | tee -a $R/c8.txt >> $OUT/c8.txt; }
m() { echo "mid $* $(FFTMUX_PLUGIN_PATH=$MID one "$@")" | tee -a $R/c8.txt >> $OUT/c8.txt; }
for rep in 1 2; do
for p in "65536 2048" "16777216 8" "2401 55900" "6000 22369" "16384 8192"; do f $p native cuda; m $p native cuda; done
done
pack c8
