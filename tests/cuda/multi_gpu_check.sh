#!/usr/bin/env bash
# The CUDA backend's plans across GPUs (cuFFT's multi-GPU plans), on a
# machine with 2 to 4 NVIDIA GPUs of one architecture, in one command:
#
#   tests/cuda/multi_gpu_check.sh BUILD_DIR [GPUS]
#
# Not run by ctest: CI machines and one-GPU machines lack the devices (there
# the host-side plumbing is tested by tests/plugins/devices_test.cpp). GPUS
# defaults to every GPU nvidia-smi lists, at most 4. Each case runs
# `fftmux run --backend cuda --devices GPUS --verify` (against the
# double-precision reference), writes its result, and is compared with the
# same problem on one GPU (python3 with numpy). Covers 2D and 3D, C2C and
# R2C/C2R, F32 and F64, host placement (cufftXtMemcpy scatters and gathers)
# and device placement in natural and permuted order, and the declines:
# primes, sizes below 32, strides, 1D R2C, out-of-place DEVICE plans. Logs
# go to $OUT (or BUILD_DIR/multi-gpu-logs); the last lines are the summary.
set -u
build=$(cd "${1:?usage: multi_gpu_check.sh BUILD_DIR [GPUS]}" && pwd)
available=$(nvidia-smi --list-gpus 2>/dev/null | wc -l)
gpus=${2:-$((available < 4 ? available : 4))}
out=${OUT:-$build/multi-gpu-logs}
mkdir -p "$out"
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export FFTMUX_PLUGINS_DISABLE=${FFTMUX_PLUGINS_DISABLE:-vulkan,opengl}
fftmux=$build/bin/fftmux
if ((gpus < 2)); then
  echo "multi_gpu_check: $available GPU(s) here; plans across devices need 2 to 4" >&2
  exit 2
fi
passed=0
failed=()

# same A.npy B.npy BOUND: the results of several GPUs and of one agree.
same() {
  python3 - "$@" <<'PY'
import sys, numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
err = np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)
sys.exit(0 if a.shape == b.shape and err <= float(sys.argv[3]) else 1)
PY
}

# check NAME BOUND ARGS...: several GPUs verified, then compared with one.
check() {
  local name=$1 bound=$2
  shift 2
  if "$fftmux" run --backend cuda --devices "$gpus" --verify --output "$out/$name.many.npy" "$@" \
    >"$out/$name.log" 2>&1 &&
    "$fftmux" run --backend cuda --output "$out/$name.one.npy" "$@" >>"$out/$name.log" 2>&1 &&
    same "$out/$name.many.npy" "$out/$name.one.npy" "$bound"; then
    passed=$((passed + 1))
  else
    failed+=("$name")
  fi
}

# declines NAME REASON ARGS...: the plan (on $devices GPUs, else GPUS) is
# refused with the reason.
declines() {
  local name=$1 reason=$2
  shift 2
  if ! "$fftmux" run --backend cuda --devices "${devices:-$gpus}" "$@" >"$out/$name.log" 2>&1 &&
    grep -q "$reason" "$out/$name.log"; then
    passed=$((passed + 1))
  else
    failed+=("$name")
  fi
}

"$fftmux" backends | tee "$out/backends.txt"
for precision in f32 f64; do
  bound=$([ $precision = f32 ] && echo 1e-5 || echo 1e-12)
  for shape in 256x256 96x160 64x64x64 48x80x96; do
    check "c2c-$shape-$precision" "$bound" --shape $shape --precision $precision
    check "c2c-$shape-$precision-inverse" "$bound" --shape $shape --precision $precision \
      --direction inverse --norm backward
    check "c2c-$shape-$precision-batch" "$bound" --shape $shape --precision $precision --batch 3
    check "r2c-$shape-$precision" "$bound" --shape $shape --precision $precision --kind r2c \
      --in-place
    check "c2r-$shape-$precision" "$bound" --shape $shape --precision $precision --kind c2r \
      --in-place
    for order in natural permuted; do
      check "device-$order-$shape-$precision" "$bound" --shape $shape --precision $precision \
        --placement device --in-place --order $order
      check "device-$order-r2c-$shape-$precision" "$bound" --shape $shape \
        --precision $precision --kind r2c --placement device --in-place --order $order
    done
  done
  check "c2c-1d-$precision" "$bound" --shape 1048576 --precision $precision
done
declines prime-2d "prime factor above 7" --shape 1009x64
declines prime-3d "prime factor above 7" --shape 64x64x97
declines small "at least 32 points" --shape 16x64
declines strides "take no strides" --shape 64x64 --in-strides 128x1
declines r2c-1d "a 1D plan across devices is a C2C" --shape 4096 --kind r2c --in-place
declines out-of-place-device "runs in place" --shape 64x64 --placement device
devices=$((available + 1)) declines more-than-here "this machine has $available CUDA device" \
  --shape 64x64

echo "== multi-GPU ($gpus GPUs): $passed passed, ${#failed[@]} failed"
for f in "${failed[@]}"; do
  echo "   failed: $f ($out/$f.log)"
done
[ ${#failed[@]} -eq 0 ]
