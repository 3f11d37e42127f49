#!/usr/bin/env bash
# The sanitized builds and the fuzzers (README.md, "Reliability"), which
# scripts/test.sh runs after the main suite. Each build is clang's:
#   asan  build-asan: AddressSanitizer + UndefinedBehaviorSanitizer, every
#         unit test
#   fuzz  build-asan: each libFuzzer harness, first on its seeds and
#         regression inputs, then fuzzing for FFTMUX_FUZZ_SECONDS (default
#         10) from seed FFTMUX_FUZZ_SEED (default 1; 0: random), two at a
#         time on two cores
#   tsan  build-tsan: ThreadSanitizer, the unit tests that run threads (all
#         but the single-threaded correctness matrices, the GPU backends' and
#         the kernel generator's own suites, the convolution's cases on the
#         GPU backends, the command line's and the examples, which the asan
#         step runs) and the fuzz harnesses' replay of their inputs; only
#         their programs and the plugin modules are built
# The GPU backends on Mesa's CPU drivers run one case in 4 to 25 of their
# suites there (fftmux_sanitized_shard); CUDA, which has no device in CI, is left
# out (its no-driver path runs in the main suite). Both builds read and fill
# the main build's Mesa shader cache.
# Usage: scripts/sanitize.sh [asan] [fuzz] [tsan]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
# Mesa's shader cache of the main build (tests/CMakeLists.txt): the GPU suites'
# shaders compiled there are not compiled again here.
shader_cache=$PWD/build/test-home/mesa-shader-cache
fuzz_seconds=${FFTMUX_FUZZ_SECONDS:-10}
fuzz_seed=${FFTMUX_FUZZ_SEED:-1} # 0: a new seed each run

# configure <dir> <sanitizers> [cmake options...]
configure() {
  local dir=$1 sanitizers=$2
  shift 2
  # -O1 with line tables: the usual sanitizer trade of speed, stack traces
  # and build time.
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DFFTMUX_SANITIZE="$sanitizers" -DFFTMUX_BUILD_BENCHMARKS=OFF -DFFTMUX_WITH_CUDA=OFF \
    -DFFTMUX_TEST_SHADER_CACHE="$shader_cache" \
    "$@" >/dev/null
}

# configure_and_build <dir> <sanitizers> [cmake options...]
configure_and_build() {
  configure "$@"
  cmake --build "$1" -j "$jobs"
}

unit_tests() {
  ctest --test-dir "$1" --output-on-failure -j "$jobs" --timeout 900 "${@:2}"
}

# timed <name> <command...>: runs it and records how long it took.
report=()
timed() {
  local name=$1 start=$SECONDS
  shift
  echo "== sanitize.sh: $name"
  "$@"
  report+=("$name $((SECONDS - start)) s")
}

# fftw.quirks gives layouts to the installed FFTW alone, in 3000 child
# processes: no code of ours runs there for a sanitizer to check.
fftw_alone='^fftw\.quirks$'

asan() {
  configure_and_build build-asan address,undefined -DFFTMUX_FUZZ=ON \
    -DFFTMUX_FUZZ_SECONDS="$fuzz_seconds" -DFFTMUX_FUZZ_SEED="$fuzz_seed"
  echo "sanitize.sh: asan leaves out $fftw_alone, FFTW's own"
  unit_tests build-asan -LE fuzz -E "$fftw_alone"
}

fuzz() {
  configure_and_build build-asan address,undefined -DFFTMUX_FUZZ=ON \
    -DFFTMUX_FUZZ_SECONDS="$fuzz_seconds" -DFFTMUX_FUZZ_SEED="$fuzz_seed"
  unit_tests build-asan -L fuzz
}

# Suites that start no thread of their own: ThreadSanitizer has nothing to
# look at there that the asan step does not run. The command line's suite
# runs the fftmux program, whose threads are the library's that the core,
# tuning and reliability suites run under ThreadSanitizer themselves.
single_threaded='^(correctness\.|vulkan\.backend$|opengl$|convolution\.gpu$|codegen$|example\.|fftw\.quirks$|cli$)'

# The programs of the suites ThreadSanitizer runs and every plugin module they may load: the
# single-threaded suites' programs are not built. (A test's program is the first word of its
# add_test in the CTestTestfile.cmake files: ctest names none that is not built yet.)
tsan_targets() {
  find build-tsan -name CTestTestfile.cmake -exec cat {} + |
    sed -n "s|^add_test(\[=\[\([^]]*\)\]=\] \"$PWD/build-tsan/\([^\"]*\)\".*|\1 \2|p" |
    re=$single_threaded awk '$1 !~ ENVIRON["re"] {print $2}'
  ninja -C build-tsan -t targets all | sed -n 's|^\([^:]*\.so\): C[X]*_MODULE_LIBRARY.*|\1|p'
}

tsan() {
  configure build-tsan thread
  mapfile -t targets < <(tsan_targets | sort -u)
  cmake --build build-tsan -j "$jobs" --target "${targets[@]}"
  echo "sanitize.sh: tsan leaves out the single-threaded suites $single_threaded"
  unit_tests build-tsan -E "$single_threaded"
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(asan fuzz tsan)
for step in "${steps[@]}"; do
  case $step in
  asan | fuzz | tsan) timed "$step" "$step" ;;
  *) echo "sanitize.sh: unknown step '$step' (asan, fuzz, tsan)" >&2 && exit 2 ;;
  esac
done
printf 'sanitize.sh: %s\n' "${report[@]}"
