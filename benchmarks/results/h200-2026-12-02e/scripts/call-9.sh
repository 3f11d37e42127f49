set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c9.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c9_verify.txt; }
for k in 1 2; do
for p in "1024 131072" "16384 8192" "1048576 128"; do t $p native cuda --kind r2c; t $p cufft cuda --kind r2c; done
for p in "1024 131072" "1048576 128"; do t $p native cuda --kind c2r; t $p cufft cuda --kind c2r; done
done
v --shape 1024 --batch 131072 --backend cuda --variant native --kind r2c
v --shape 1024 --batch 7 --backend cuda --variant native --kind c2r --in-place --shift both
pack c9
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c9_gpu_check.txt
pack c9
