#!/usr/bin/env bash
# Every test: install what is missing, build, run the whole ctest suite
# (FFTW, the Mesa-backed Vulkan and OpenGL backends, the CUDA backend's
# no-driver path, the Python binding, the CLI, the install tree, the Debian
# packages), then the same unit tests under AddressSanitizer +
# UndefinedBehaviorSanitizer and
# under ThreadSanitizer, and each fuzzer for FFTMUX_FUZZ_SECONDS (default
# 10) (scripts/sanitize.sh). FFTMUX_SANITIZE_TESTS=0 leaves the sanitized
# runs out, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/setup.sh
# Prefix /usr: Debian's layout (the multiarch library folder) for the install and package tests;
# -O2, as Debian builds its packages, and quicker to build than -O3.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
cmake --build build
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 900)
main=$((SECONDS - start))
if [ "${FFTMUX_SANITIZE_TESTS:-1}" = 0 ]; then
  echo "test.sh: sanitized builds and fuzzers left out (FFTMUX_SANITIZE_TESTS=0)"
else
  scripts/sanitize.sh
fi
echo "test.sh: main suite ${main} s, sanitizers and fuzzers $((SECONDS - start - main)) s," \
  "total $((SECONDS - start)) s"
