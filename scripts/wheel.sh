#!/usr/bin/env bash
# Builds the Python package as a wheel that bundles libfftmux and the backends
# of a build tree, installable with no FFTMUX_LIBRARY or LD_LIBRARY_PATH:
#
#   scripts/wheel.sh BUILD OUT       # prints OUT/fftmux-<version>-py3-none-<platform>.whl
#
# The libraries are BUILD's install (cmake --install, stripped), so they carry
# the install's RUNPATH rather than the build tree's. They link the build
# machine's libstdc++ and FFTW, hence the plain platform tag (linux_x86_64),
# not manylinux: bindings/python/README.md, "Install". Works offline with
# Debian 12's python3-pip, python3-setuptools and python3-wheel.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD OUT" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The runtime components: the library and each backend built (one manifest each).
components=(lib)
for m in "$build"/lib/fftmux/plugins/*.toml; do
  [ -e "$m" ] && components+=("$(basename "$m" .toml)")
done
for c in "${components[@]}"; do
  DESTDIR=$stage/root cmake --install "$build" --component "$c" --strip >/dev/null
done

# A copy of the package sources, then the bundle in fftmux/lib laid out as the
# install's libdir: the library under its SONAME (a wheel holds no symlinks),
# the plugins and their manifests in fftmux/plugins next to it.
pkg=$stage/pkg
mkdir "$pkg"
cp -r "$repo"/bindings/python/{pyproject.toml,setup.py,README.md,fftmux} "$pkg/"
rm -rf "$pkg/fftmux/lib"
lib=$(dirname "$(find "$stage/root" -name libfftmux.so.0 -print -quit)")
mkdir -p "$pkg/fftmux/lib/fftmux"
cp -L "$lib/libfftmux.so.0" "$pkg/fftmux/lib/"
cp -r "$lib/fftmux/plugins" "$pkg/fftmux/lib/fftmux/"

/usr/bin/python3 -m pip wheel --no-build-isolation --no-deps --no-index --quiet \
  -w "$stage/dist" "$pkg"
mkdir -p "$out"
wheel=$(basename "$stage"/dist/*.whl)
mv "$stage/dist/$wheel" "$out/"
echo "$out/$wheel"
