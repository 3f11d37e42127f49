#!/usr/bin/env bash
# Bundles a Release build of fftmux for benchmarking and testing on another
# machine, one that has a GPU and its driver but no package manager: the
# binaries (the fftmux command, the tests and the benchmarks), libfftmux with
# its plugins, and the Debian run-time libraries such a machine lacks (the
# Vulkan, EGL and OpenGL loaders, FFTW).
#
#   scripts/bundle.sh [BUNDLE [BUILD]]     # default: bundle/, from a fresh build-release/
#
# BUILD, when given, is an existing build tree, bundled as it is. BUNDLE is a
# folder git ignores:
#
#   bin/, lib/       the binaries; libfftmux.so, lib/fftmux/plugins, lib/fftmux-bench
#   deps/            FFTW's shared libraries, unpacked from Debian's packages here
#   debs/            the loaders' Debian packages, unpacked into / on the target
#   setup.sh         sourced on the target
#
# On the target, from the folder that holds the bundle (e.g. a copy of the
# repository with it):
#
#   . bundle/setup.sh                   # the loaders in place, LD_LIBRARY_PATH, caches
#   $B/fftmux backends
#   one 4096 32768 native cuda          # median execute time (us) of one process, one plan
#   tests/cuda/gpu_check.sh bundle      # the CUDA suites
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-bundle}
build=${2:-}
scripts/setup.sh

exclude=.git/info/exclude
mkdir -p "$(dirname "$exclude")"
grep -qxF "/$bundle/" "$exclude" 2>/dev/null || echo "/$bundle/" >>"$exclude"

if [ -z "$build" ]; then
  build=build-release
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build"
fi

# download FOLDER PACKAGES...: the packages' .deb files, once.
download() {
  local dir=$1
  shift
  mkdir -p "$dir"
  for p in "$@"; do
    ls "$dir/${p}_"*.deb >/dev/null 2>&1 || (cd "$dir" && apt-get download -q "$p" 2>/dev/null)
  done
}
download "$bundle/debs" libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
download "$bundle/cache" libfftw3-single3 libfftw3-double3

rm -rf "$bundle/bin" "$bundle/lib" "$bundle/deps" "$bundle/unpacked"
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/deps"
for f in "$bundle"/cache/*.deb; do dpkg -x "$f" "$bundle/unpacked"; done
cp -a "$bundle"/unpacked/usr/lib/*/libfftw3*.so* "$bundle/deps/"
rm -rf "$bundle/unpacked"

for b in fftmux fftmux_correctness fftmux_cuda_gpu_test fftmux_convolution_test fftmux_bench cuda_bench vulkan_bench route_quality \
  opengl_bench codegen_dump conv_device_bench; do
  if [ -x "$build/bin/$b" ]; then
    cp "$build/bin/$b" "$bundle/bin/"
  else
    echo "bundle: $build/bin/$b not built (its dependencies are missing here); left out"
  fi
done
cp -a "$build"/lib/fftmux "$build"/lib/libfftmux.so* "$bundle/lib/"
# The peer modules (cuFFT, VkFFT) sit in the build's library folder (lib/<multiarch> under Debian's layout).
for peers in "$build"/lib/fftmux-bench "$build"/lib/*/fftmux-bench; do
  [ -d "$peers" ] && rm -rf "$bundle/lib/fftmux-bench" && cp -a "$peers" "$bundle/lib/"
done

cat >"$bundle/setup.sh" <<'EOF'
# Sourced on the target machine: the run-time libraries in place and the
# environment for the bundle's binaries. The loaders go into / (unpacked
# Debian packages, so that they find the driver's ICD and vendor files where
# the driver installed them); needs root.
bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in "$bundle"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$bundle/lib:$bundle/deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Fresh caches and a config of the bundle's own: FFTW plans with its estimate
# planner, since its measurements would cost minutes at benchmark sizes.
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/fftmux-cache}
export FFTMUX_CONFIG=${FFTMUX_CONFIG:-/tmp/fftmux-bundle.toml}
[ -f "$FFTMUX_CONFIG" ] || printf '[backends.fftw]\nplanner = "estimate"\n' >"$FFTMUX_CONFIG"
B=$bundle/bin
# one N BATCH VARIANT BACKEND [fftmux run options...]: the median execute time in
# us of one process running one plan on device data, as benchmarks/results/h200
# reports it.
one() {
  local n=$1 b=$2 v=$3 be=$4
  shift 4
  timeout 90 "$B/fftmux" run --shape "$n" --batch "$b" --placement device --backend "$be" \
    --variant "$v" --repeat 30 --warmup 10 "$@" 2>&1 | awk '/^execute/ {print $2}'
}
EOF
du -sh "$bundle"
