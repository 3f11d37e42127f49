#!/usr/bin/env bash
# Installs the Debian packages fftmux builds and tests with, when missing.
# Idempotent and quiet: nothing is installed when everything is there.
set -euo pipefail

packages=(
  # build
  g++ cmake ninja-build pkg-config
  # sanitized builds and libFuzzer (scripts/sanitize.sh): clang and its runtimes
  clang-14 libclang-rt-14-dev
  # core, FFTW backend, CLI, tests, benchmarks
  libboost-dev libtomlplusplus-dev libfftw3-dev libcli11-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # fftw-mpi backend (distributed transforms), its tests and the Python binding's fftmux.mpi
  libfftw3-mpi-dev libopenmpi-dev openmpi-bin python3-mpi4py
  # Vulkan backend and its CPU driver (lavapipe) for the tests
  libvulkan-dev libshaderc-dev glslc glslang-dev spirv-tools mesa-vulkan-drivers
  # OpenGL backend: EGL, GL, Mesa's llvmpipe, the glad loader generator
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri python3-glad
  # Python binding, examples, plots
  python3 python3-numpy python3-scipy python3-pytest python3-matplotlib
  # pip install of the binding, offline (its test builds a venv)
  python3-pip python3-venv python3-setuptools
  # Debian packages (scripts/packages.sh) and their checks
  dpkg-dev fakeroot lintian
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "fftmux setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
