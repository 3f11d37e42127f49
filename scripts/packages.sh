#!/usr/bin/env bash
# Builds fftmux's Debian packages from a build tree (cmake/fftmux_packages.cmake:
# libfftmux0, libfftmux-dev, fftmux, python3-fftmux, fftmux-backend-<name>)
# and checks them with lintian, which must report no error.
#
#   scripts/packages.sh [BUILD [OUT]]      # default: build/, into BUILD/packages
#
# BUILD is configured with CMAKE_INSTALL_PREFIX=/usr (scripts/test.sh does),
# so that libraries go to Debian's multiarch folder.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-$build/packages}
scripts/setup.sh
rm -rf "$out"
cpack --config "$build/CPackConfig.cmake" -B "$out" >/dev/null
rm -rf "$out/_CPack_Packages"
ls "$out"/*.deb
# Errors fail; warnings and notes are printed (an unofficial package draws some).
lintian --no-tag-display-limit --suppress-tags no-copyright-file,no-changelog,unstripped-binary-or-object \
  "$out"/*.deb | tee "$out/lintian.txt"
if grep -q '^E:' "$out/lintian.txt"; then
  echo "packages.sh: lintian reports errors" >&2
  exit 1
fi
