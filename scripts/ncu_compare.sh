#!/usr/bin/env bash
# On a GPU machine (after `. bundle/setup.sh`, scripts/bundle.sh): Nsight Compute on one
# problem's generated CUDA kernels and on cuFFT's kernels for the same
# problem, two launches each, summarised side by side (launch shape,
# registers, shared memory, occupancy, duration, DRAM throughput, bank
# conflicts). The full reports stay in OUT/ncu-<tag>-{native,cufft}.txt.
#
#   scripts/ncu_compare.sh OUT SHAPE BATCH [VARIANT]   # e.g. /tmp/ncu 1024x1024 64 native
#
# The clocks are left alone (--clock-control none): the kernels run at the
# clocks the driver gives them, as in the timed runs.
set -u
out=$1 shape=$2 batch=$3 variant=${4:-native}
bin=${B:-bundle/bin}
export PATH=$PATH:/usr/local/cuda/bin
sections="--section SpeedOfLight --section Occupancy --section LaunchStats"
sections+=" --section WarpStateStats --section MemoryWorkloadAnalysis_Tables"
tag=$shape-$variant
profile() { # which backend-variant kernel-regex
  timeout 120 ncu --clock-control none -k "$3" --launch-count 2 $sections \
    "$bin/fftmux" run --shape "$shape" --batch "$batch" --placement device --backend cuda \
    --variant "$2" --repeat 1 --warmup 0 >"$out/ncu-$tag-$1.txt" 2>&1
  echo "== $1 ($2), rc $?"
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Dynamic Shared|Theoretical Occ|bank conflicts" \
    "$out/ncu-$tag-$1.txt" | sed 's/  */ /g' | cut -c1-150
}
profile native "$variant" regex:fftmux # the generated kernels are named fftmux_pass<i>
profile cufft cufft 'regex:^[^f]'      # cuFFT's (vector_fft, regular_fft_factor, ...)
