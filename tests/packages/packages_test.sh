#!/usr/bin/env bash
# Builds the Debian packages (scripts/packages.sh: lintian reports no error)
# and checks them: what each holds and depends on; that the command runs a
# verified transform from a fresh root holding libfftmux0, fftmux and one
# backend; that adding a backend package adds that backend alone and removing
# it takes it away again; the Python binding and pkg-config from the root.
#
#   packages_test.sh SOURCE BUILD WORK PYTHON
set -euo pipefail
src=$1 build=$2 work=$3 python=$4
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$arch
fail() {
  echo "packages_test: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
"$src/scripts/packages.sh" "$build" "$work/debs" >"$work/packages.log" 2>&1 ||
  fail "scripts/packages.sh failed: $(tail -20 "$work/packages.log")"
deb() { ls "$work"/debs/"$1"_*.deb; }
files() { dpkg-deb -c "$1" | awk '{print $6}' | grep -v '/$' | sed 's|^\./||' | sort; }

# Each backend package holds its module and manifest alone (and CUDA its
# lintian override), and depends on the library of its version.
backends=()
for b in fftw fftw-mpi vulkan opengl cuda; do
  f=$(ls "$work"/debs/fftmux-backend-"$b"_*.deb 2>/dev/null) || continue
  backends+=("$b")
  want=$(printf '%s\n' "$libdir/fftmux/plugins/$b.toml" "$libdir/fftmux/plugins/libfftmux_${b//-/_}.so" |
    sort)
  [ "$(files "$f" | grep -v lintian)" = "$want" ] || fail "fftmux-backend-$b holds $(files "$f")"
  dpkg-deb -f "$f" Depends | grep -q "libfftmux0 (= " || fail "fftmux-backend-$b: no libfftmux0"
done
[ ${#backends[@]} -gt 0 ] || fail "no backend package was built"
files "$(deb libfftmux0)" | grep -q "^$libdir/libfftmux.so.0$" || fail "libfftmux0 lacks its soname"
! files "$(deb libfftmux0)" | grep -q plugins || fail "libfftmux0 holds a plugin"
for f in include/fftmux/plugin.h "$libdir/pkgconfig/fftmux.pc" "$libdir/libfftmux.so" \
  "$libdir/cmake/fftmux/fftmuxPlugin.cmake"; do
  files "$(deb libfftmux-dev)" | grep -qx "usr/$f\|$f" || fail "libfftmux-dev lacks $f"
done

# A fresh root: the library, the command and FFTW.
root=$work/root
for p in libfftmux0 fftmux fftmux-backend-fftw python3-fftmux libfftmux-dev; do
  dpkg -x "$(deb $p)" "$root"
done
unset FFTMUX_PLUGIN_PATH FFTMUX_ADD_PLUGIN_PATH
listed() { "$root/usr/bin/fftmux" backends | awk 'NR > 1 && $1 !~ /^(variants|spans|note)/ {print $1}' | sort; }
[ "$(listed)" = fftw ] || fail "a root with FFTW alone lists: $(listed)"
"$root/usr/bin/fftmux" run --shape 64 --batch 4 --backend fftw --verify >/dev/null ||
  fail "the packaged command's verified transform failed"

# Adding a backend package adds that backend alone; removing it takes it away.
for b in "${backends[@]}"; do
  [ "$b" = fftw ] && continue
  dpkg -x "$(deb fftmux-backend-$b)" "$root"
  [ "$(listed)" = "$(printf '%s\n' fftw "$b" | sort)" ] || fail "adding $b lists: $(listed)"
  files "$(deb fftmux-backend-$b)" | sed "s|^|$root/|" | xargs rm -f
  [ "$(listed)" = fftw ] || fail "removing $b lists: $(listed)"
done

# The binding and pkg-config, from the root (Debian's multiarch library folder).
PYTHONPATH=$root/usr/lib/python3/dist-packages FFTMUX_LIBRARY=$root/$libdir/libfftmux.so.0 \
  "$python" -c 'import numpy as np, fftmux
x = np.random.default_rng(1).standard_normal(256) + 0j
assert np.allclose(fftmux.fft(x), np.fft.fft(x)), "fftmux.fft differs from numpy"' ||
  fail "the packaged binding failed"
export PKG_CONFIG_PATH=$root/$libdir/pkgconfig
[ "$(realpath "$(pkg-config --variable=plugindir fftmux)")" = "$root/$libdir/fftmux/plugins" ] ||
  fail "fftmux.pc: plugindir $(pkg-config --variable=plugindir fftmux)"
[ "$(realpath "$(pkg-config --variable=libdir fftmux)")" = "$root/$libdir" ] ||
  fail "fftmux.pc: libdir $(pkg-config --variable=libdir fftmux)"
echo "packages_test: ${#backends[@]} backend packages (${backends[*]}) and 4 more checked"
