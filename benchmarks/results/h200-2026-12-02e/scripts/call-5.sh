set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c5_gpu_check.txt
t() { echo "$* $(one "$@")" | tee -a $R/c5.txt; }
for k in 1 2; do t 32768 4096 native cuda; t 32768 4096 cufft cuda; done
pack c5
