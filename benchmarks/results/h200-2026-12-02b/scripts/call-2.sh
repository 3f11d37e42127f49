#!/bin/bash
# Call 2 (2026-12-02b, staged build with hook FX_CHEAP_TW: the four-step
# column pass multiplies every element by one broadcast table value, not
# its twiddle; wrong results, for timing only): what the twiddle lookups
# of the column pass cost at 2^18-2^24 (CUDA) and 2^20, 2^22 (Vulkan).
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
t() { local e=$1; shift; echo "$* [$e] $(export $e; one "$@")" | tee -a $R/b2.txt; }
for k in 1 2; do
  for n in 262144 1048576 4194304 16777216; do
    b=$(( (1<<27) / n ))
    t X=0 $n $b cufft cuda
    for c in X=0 FX_CHEAP_TW=1; do t $c $n $b native cuda; done
  done
  t "FX_CHEAP_TW=1 FX_COL_RES=3" 1048576 128 native cuda
  for n in 1048576 4194304; do
    for c in X=0 FX_CHEAP_TW=1; do t $c $n $(( (1<<27) / n )) default vulkan; done
  done
  pack c2
done
