#!/usr/bin/env bash
# The main job: install what is missing, build, list the backends, then run
# and verify a real transform on the embedded default backend, FFTW.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
build/bin/fftmux backends
build/bin/fftmux run --backend fftw --shape 1024x1024 --precision f32 --repeat 20 --verify
