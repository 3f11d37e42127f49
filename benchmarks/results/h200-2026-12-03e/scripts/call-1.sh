#!/bin/bash
# Next session's first call (generator v36 as committed, aabfbc0): long
# R2C lines under the variants that reshape the chain's rows (default's 1024-point rows with the
# post step take 102 registers, 512 threads a group: one group an SM;
# narrow and radix8-narrow make 512-point rows of 40 registers; 2^16 and
# 2^18's 128-point columns take 128 registers as 4 threads a line, 71 as
# narrow's 8). .h200/c2.sh: the checks.
set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
rm -f $R/*
CALL=c1
for n in 1048576 262144 2097152 65536; do
  b=$(((1 << 27) / n))
  for v in native native-narrow native-radix8-narrow native-radix8 native-wide native-mirror-pass cufft; do
    t $n $b $v cuda --kind r2c
  done
  pack c1
done
for n in 1048576 2097152; do for v in native native-narrow cufft; do t $n $(((1 << 27) / n)) $v cuda --kind c2r; done; done
pack c1
