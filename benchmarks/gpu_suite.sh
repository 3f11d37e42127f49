#!/usr/bin/env bash
# The GPU suite: every figure of verified kernels, in one command on a machine
# with an NVIDIA GPU.
#
#   benchmarks/gpu_suite.sh BUILD_DIR OUT [SETS [OPTION...]]
#
# SETS: fftmux_bench sets, default all; OPTIONs go to fftmux_bench as they are
# (--precision f32, --shapes 1024,4096, --gpu-warmup 0.1: a part of the suite).
#
# BUILD_DIR holds bin/ and lib/ of a Release build (or a bundle from
# scripts/bundle.sh, after `. bundle/setup.sh`). In order:
#   1. verify: tests/cuda/gpu_check.sh (the CUDA suites, the correctness
#      matrix on cuda/cufft and cuda/native, the random sweep) and the
#      correctness matrix on vulkan and opengl, on the GPU;
#   2. bench: fftmux_bench --class gpu on SETS: each GPU backend at its own
#      pick of variant and cuda's generated kernels (cuda/native) beside
#      cuFFT, VkFFT (where its module is built) and the copy limit, in one
#      process, plan creation cold and warm;
#   3. report: plots and a table (benchmarks/plots/bench_plots.py).
# OUT receives verify/ (logs, summary.txt), bench.csv, bench.json, img/ and
# table.md; benchmarks/results/<class>/ keeps each part's bench.json as
# suite-PART.json (benchmarks/results.py renders them, docs/performance.md).
# VERIFY=0 or BENCH=0 leave a step out; BUDGET (seconds, default none) stops
# the benchmark from starting new problems; PYTHON (default python3) draws
# the plots.
set -u
build=$(cd "${1:?usage: gpu_suite.sh BUILD_DIR OUT [SETS [OPTION...]]}" && pwd)
out=$(mkdir -p "${2:?usage: gpu_suite.sh BUILD_DIR OUT [SETS [OPTION...]]}" && cd "$2" && pwd)
sets=${3:-all}
shift $(($# < 3 ? $# : 3))
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$build/lib:$build/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/fftmux-suite-cache}
status=0

if [ "${VERIFY:-1}" != 0 ]; then
  mkdir -p "$out/verify"
  OUT=$out/verify "$here/../tests/cuda/gpu_check.sh" "$build" >"$out/verify/gpu_check.txt" 2>&1
  sed -n '/^==== summary/,$p' "$out/verify/gpu_check.txt" | tail -n +2 >"$out/verify/summary.txt"
  for backend in vulkan opengl; do
    log=$out/verify/correctness.$backend.log
    FFTMUX_TEST_BACKEND=$backend timeout "${TEST_TIMEOUT:-300}" "$build/bin/fftmux_correctness" \
      --gtest_brief=1 >"$log" 2>&1
    passed=$(grep -h '^\[  PASSED  \]' "$log" | awk '{s += $4} END {print s + 0}')
    failed=$(grep -c '^\[  FAILED  \] [^ ]*\.' "$log")
    echo "correctness.$backend: $passed passed, $failed failed" >>"$out/verify/summary.txt"
  done
  cat "$out/verify/summary.txt"
  grep -q -E 'FAILED|[1-9][0-9]* failed' "$out/verify/summary.txt" && status=1
fi

if [ "${BENCH:-1}" != 0 ]; then
  extra=()
  [ -n "${BUDGET:-}" ] && extra+=(--budget "$BUDGET")
  # A bundle keeps the peer modules in lib/fftmux-bench; a build tree where its own binaries find them.
  [ -d "$build/lib/fftmux-bench" ] && extra+=(--peer-dir "$build/lib/fftmux-bench")
  # Each backend at its own pick, and cuda's generated kernels (variant native) beside cuFFT.
  engines='fftmux:cuda,fftmux:cuda/native,fftmux:vulkan,fftmux:opengl,cufft,vkfft,cudaMemcpy'
  "$build/bin/fftmux_bench" --class gpu --set "$sets" --variants all --engines "$engines" --out "$out" \
    "${extra[@]}" "$@" | tail -n 5 || status=1
  "${PYTHON:-python3}" "$here/plots/bench_plots.py" "$out/bench.json" --out "$out/img" --prefix gpu_ \
    --table "$out/table.md" || status=1
fi
exit $status
