set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c9.txt >> $OUT/c9.txt; }
for rep in 1 2; do
for p in "65536 2048" "16777216 8" "2401 55900" "6000 22369" "16384 8192"; do t $p native cuda; done
done
for p in "65536 2048" "16777216 8" "2401 55900" "6000 22369" "16384 8192"; do t $p cufft cuda; done
