set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
t() { echo "$* $(one "$@")" | tee -a $R/c7.txt; }
p() { t "$@" native cuda $EXTRA; t "$@" cufft cuda $EXTRA; }
EXTRA="--kind r2c"; p 1024 131072; p 1048576 128; p 16384 8192
EXTRA="--kind c2r"; p 1024 131072; p 1048576 128
EXTRA="--precision f64"; p 1024 65536; p 1048576 64
EXTRA=""; p 1024x1024 64; p 4096x4096 1; p 256x256x256 1; p 512x512x512 1
pack c7
