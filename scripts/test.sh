#!/usr/bin/env bash
# Every test: install what is missing, build, run the whole ctest suite
# (FFTW, the Mesa-backed Vulkan and OpenGL backends, the CUDA backend's
# no-driver path, the Python binding, the CLI, the install tree).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 900
