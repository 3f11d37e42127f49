#!/bin/bash
# Third call: strided column passes of 1024, 512 and 256 F32 points with
# more lines a group under launch bounds (FFTMUX_EXP_BN/BT/BR, BT1/BR1,
# from .h200/exp: HEAD + exp7.patch), against v39 and cuFFT.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c3; OLD=$PWD/.h200/exp/plugins
e() { local env=$1; shift; echo "$env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; one "$@")" | tee -a $R/c3.txt >> $OUT/c3.txt; }
v() { local env=$1; shift; echo "== $env $* $(export $env FFTMUX_PLUGIN_PATH=$OLD; timeout 60 $B/fftmux run --backend cuda --variant native --verify "$@" 2>&1 | tail -1)" >> $OUT/c3_verify.txt; }
F="FFTMUX_EXP_BT1=16 FFTMUX_EXP_BR1=1"
G="FFTMUX_EXP_BN=512 FFTMUX_EXP_BT=16 FFTMUX_EXP_BR=2"
H="FFTMUX_EXP_BN=512 FFTMUX_EXP_BT=32 FFTMUX_EXP_BR=1"
I="FFTMUX_EXP_BN=512 FFTMUX_EXP_BT=16 FFTMUX_EXP_BR=1"
J="FFTMUX_EXP_BN=256 FFTMUX_EXP_BT=16 FFTMUX_EXP_BR=4"
K="FFTMUX_EXP_BN=256 FFTMUX_EXP_BT=32 FFTMUX_EXP_BR=2"
v "$F" --shape 2097152 --batch 2 --kind r2c --shift both; v "$F" --shape 2097152 --batch 2 --kind c2r --norm ortho
for x in "$G" "$H" "$I"; do v "$x" --shape 524288 --batch 3 --shift both; v "$x" --shape 1048576 --batch 2 --kind c2r; done
for x in "$J" "$K"; do v "$x" --shape 262144 --batch 3 --shift both; v "$x" --shape 131072 --batch 3 --kind r2c; done
run() { # n kind configs...
  local n=$1 k=$2 b=$(((1 << 27) / $1)); shift 2
  t $n $b native cuda --kind $k
  for x in "$@"; do e "$x" $n $b native cuda --kind $k; done
  t $n $b cufft cuda --kind $k
}
for rep in 1 2; do
  for spec in "1048576 c2c" "524288 r2c" "2097152 r2c" "2097152 c2r"; do run $spec "$F"; done
  for spec in "524288 c2c" "1048576 r2c" "1048576 c2r"; do run $spec "$G" "$H" "$I"; done
  for spec in "262144 c2c" "65536 c2c" "131072 r2c"; do run $spec "$J" "$K"; done
done
pack c3
