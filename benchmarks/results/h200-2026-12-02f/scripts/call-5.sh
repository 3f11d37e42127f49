set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c5.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c5_verify.txt; }
v --shape 16384 --batch 8192 --backend cuda --variant native
v --shape 16384 --batch 133 --backend cuda --variant native --in-place --shift both --norm ortho
v --shape 16384 --batch 5 --backend cuda --variant native --direction inverse
v --shape 3x16384 --batch 7 --backend cuda --variant native --shift output
v --shape 8192 --batch 300 --backend cuda --variant native --precision f64
for rep in 1 2; do
t 16384 8192 native cuda; t 16384 8192 cufft cuda
t 8192 8192 native cuda --precision f64; t 8192 8192 cufft cuda --precision f64
done
t 16384 8192 native cuda --direction inverse; t 16384 8192 cufft cuda --direction inverse
t 4x16384 2048 native cuda; t 4x16384 2048 cufft cuda
for rep in 1 2; do
for p in "64 2097152" "128 1048576" "256 524288" "1024 131072"; do t $p native cuda --kind r2c; t $p cufft cuda --kind r2c; done
for p in "64 2097152" "128 1048576" "256 524288"; do t $p native cuda --kind c2r; t $p cufft cuda --kind c2r; done
done
for v in native-narrow native-radix16; do t 2048 65536 $v cuda --kind r2c; done
t 2048 65536 native cuda --kind r2c; t 2048 65536 cufft cuda --kind r2c
pack c5
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c5_gpu_check.txt
pack c5
