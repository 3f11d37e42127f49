#!/usr/bin/env bash
# The CUDA backend's checks on a machine with an NVIDIA GPU, in one command:
#
#   tests/cuda/gpu_check.sh BUILD_DIR [--bench|--bench-quick]
#
# BUILD_DIR holds bin/ and lib/ of a build (or a copy of them, with deps/
# for libraries the machine lacks). Runs, each sharded over the CPU cores:
# the CUDA suite (both variants, callbacks and passes), the backend-
# parametrized correctness matrix on cuda/cufft and cuda/native, and beside
# them the random sweep (tests/sweep, where python3 has numpy); then the
# warm-plan timing alone, a few CLI runs, and with --bench the CUDA
# benchmark (benchmarks/cuda_bench.cpp). Logs go to $OUT (or BUILD_DIR/gpu-logs); the last lines
# printed are the summary.
set -u
build=$(cd "${1:?usage: gpu_check.sh BUILD_DIR [--bench|--bench-quick]}" && pwd)
mode=${2:-}
out=${OUT:-$build/gpu-logs}
mkdir -p "$out"
export LD_LIBRARY_PATH=$build/lib:$build/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/fftmux-gpu-cache}
export FFTMUX_PLUGINS_DISABLE=${FFTMUX_PLUGINS_DISABLE:-vulkan,opengl}
shards=${SHARDS:-$(nproc)}
summary=()

note() { summary+=("$1"); echo "== $1"; }

# start NAME SHARDS TIMEOUT COMMAND...: gtest shards in the background.
start() {
  local name=$1 n=$2 limit=$3
  shift 3
  for ((i = 0; i < n; i++)); do
    GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i timeout "$limit" "$@" --gtest_brief=1 \
      >"$out/$name.$i.log" 2>&1 &
  done
}

# report NAME: totals of passed, failed and skipped tests over its shards.
report() {
  local name=$1
  cat "$out/$name".*.log >"$out/$name.log"
  rm -f "$out/$name".*.log
  local passed failed skipped finished
  finished=$(grep -c '^\[==========\] .* ran' "$out/$name.log")
  passed=$(grep -h '^\[  PASSED  \]' "$out/$name.log" | awk '{s += $4} END {print s + 0}')
  failed=$(grep -o '^\[  FAILED  \] [^ ,]*\.[^ ,]*' "$out/$name.log" | sort -u | wc -l)
  skipped=$(grep -h '^\[  SKIPPED \] [0-9]' "$out/$name.log" | awk '{s += $4} END {print s + 0}')
  note "$name: $passed passed, $failed failed, $skipped skipped ($finished shards finished)"
  grep -o '^\[  FAILED  \] [^ ,]*\.[^ ,]*' "$out/$name.log" | sort -u | head -20
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  >"$out/nvidia-smi.csv" 2>&1
"$build/bin/fftmux" backends | tee "$out/backends.txt"

# The three suites at once, the shards spread over the cores.
third=$(((shards + 2) / 3))
limit=${TEST_TIMEOUT:-300}
begin=$SECONDS
warm=CudaNative.WarmPlanCreationIsFast
here=$(cd "$(dirname "$0")" && pwd)
if python3 -c "import numpy" 2>/dev/null; then
  (FFTMUX_LIBRARY=$build/lib/libfftmux.so PYTHONPATH=$here/../../bindings/python timeout "$limit" \
    python3 "$here/../sweep/sweep.py" --backend cuda --trials "${SWEEP_TRIALS:-100}" --verbose \
    >"$out/sweep.log" 2>&1
  echo "exit $?" >>"$out/sweep.log") &
else
  echo "skipped: python3 has no numpy" >"$out/sweep.log"
fi
start cuda_gpu "$third" "$limit" "$build/bin/fftmux_cuda_gpu_test" --gtest_filter=-$warm
for variant in cufft native; do
  start "correctness.cuda.$variant" "$third" "$limit" env FFTMUX_TEST_BACKEND=cuda \
    FFTMUX_TEST_VARIANT=$variant "$build/bin/fftmux_correctness"
done
start convolution 1 "$limit" "$build/bin/fftmux_convolution_test" \
  --gtest_filter='*OnCuda*:*OnTheGpuBackends*'
wait
note "suites took $((SECONDS - begin)) s"
# The warm-plan timing alone: beside the shards it timed the scheduler (H200:
# 7-12 ms a creation there, 0.5-0.8 ms alone).
start warm_plans 1 "$limit" "$build/bin/fftmux_cuda_gpu_test" --gtest_filter=$warm
wait
for name in cuda_gpu warm_plans correctness.cuda.cufft correctness.cuda.native convolution; do
  report "$name"
done
note "sweep.cuda: $(grep -v '^trial ' "$out/sweep.log" | tail -2 | tr '\n' ' ')"
grep '^FAIL' "$out/sweep.log" | head -20

for args in "--variant cufft --shape 1024 --batch 8 --verify" \
  "--variant native --shape 4096x4096 --placement device --shift both --verify" \
  "--variant native --shape 10007 --batch 64 --kind r2c --precision f64 --verify" \
  "--variant cufft --shape 512x512 --kind c2r --in-place --shift input --verify"; do
  if timeout 40 "$build/bin/fftmux" run --backend cuda $args >>"$out/cli.log" 2>&1; then
    note "fftmux run $args: ok"
  else
    note "fftmux run $args: FAILED (see cli.log)"
  fi
done

if [[ $mode == --bench* ]]; then
  quick=$([[ $mode == --bench-quick ]] && echo --quick)
  timeout "${BENCH_TIMEOUT:-420}" "$build/bin/cuda_bench" $quick --json "$out/bench.json" | tee "$out/bench.txt"
  note "cuda_bench: exit ${PIPESTATUS[0]}"
fi

echo "==== summary"
printf '%s\n' "${summary[@]}"
