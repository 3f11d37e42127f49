set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c8.txt; }
t 1024 131072 cufft cuda --kind r2c
for v in native native-narrow native-wide native-two-groups native-radix4 native-small-groups; do t 1024 131072 $v cuda --kind r2c; done
t 16384 8192 cufft cuda --kind r2c
for v in native native-narrow native-two-groups native-radix16; do t 16384 8192 $v cuda --kind r2c; done
t 1024 131072 cufft cuda --kind r2c
t 1024 131072 native cuda --kind r2c
pack c8
