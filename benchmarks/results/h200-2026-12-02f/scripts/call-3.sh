set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c3.txt; }
for rep in 1 2; do
for p in "64 2097152" "128 1048576" "256 524288" "512 262144" "1024 131072" "2048 65536"; do t $p native cuda --kind r2c; t $p cufft cuda --kind r2c; done
done
for p in "64 2097152" "256 524288" "1024 131072" "2048 65536"; do t $p native cuda --kind c2r; t $p cufft cuda --kind c2r; done
for p in "64 2097152" "256 524288"; do t $p native cuda; t $p cufft cuda; done
pack c3
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c3_gpu_check.txt
pack c3
