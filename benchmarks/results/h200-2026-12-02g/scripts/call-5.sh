set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c5.txt >> $OUT/c5.txt; }
for e in 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
  n=$((1 << e)); b=$(((1 << 27) / n)); t $n $b native cuda; t $n $b cufft cuda
done
for n in 1000 1536 2187 2401 3125 4093 4097 6000 10007 12800; do
  b=$(((1 << 27) / n)); t $n $b native cuda; t $n $b cufft cuda
done
for p in "1024 65536" "8192 8192" "1048576 64"; do t $p native cuda --precision f64; t $p cufft cuda --precision f64; done
for p in "1024 131072" "2048 65536" "16384 8192" "1048576 128"; do t $p native cuda --kind r2c; t $p cufft cuda --kind r2c; done
t 1024 131072 native cuda --kind c2r; t 1024 131072 cufft cuda --kind c2r
for p in "1024x1024 64" "4096x4096 8" "256x256x256 8" "512x512x512 1"; do t $p native cuda; t $p cufft cuda; done
pack c5
