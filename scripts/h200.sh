#!/usr/bin/env bash
# Prepares a run on the lent GPU machine (../shared/GPU-MACHINE.md), which
# has CUDA but no apt, no internet and no Vulkan/GL loaders: builds the
# Release tree build-h200 here, stages its binaries in .h200/bin and
# .h200/lib, downloads the Debian packages the machine lacks into .gl (the
# loaders, unpacked into / there) and .gpu/debs (FFTW, unpacked into
# /opt/fx), and writes .h200/setup.sh, which a device command sources:
#
#   scripts/h200.sh                      # here, before the device call
#   device: bash .h200/cN.sh             # carry [".gl", ".gpu", ".h200"]
#
# where cN.sh starts with `. .h200/setup.sh` and then has $B (the binaries),
# $R (a results folder), `pack NAME` (tars $R into $OUT), `one N BATCH
# VARIANT BACKEND` (one timed process), and `t` and `o`, which record `one`'s
# times in $CALL.txt (`o` with the plugins in $OLD). The folders are
# git-excluded: a fresh checkout runs this again.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

exclude=.git/info/exclude
mkdir -p "$(dirname "$exclude")"
for d in /.gl/ /.gpu/ /.h200/; do
  grep -qxF "$d" "$exclude" 2>/dev/null || echo "$d" >>"$exclude"
done

download() { # folder packages...
  local dir=$1
  shift
  mkdir -p "$dir"
  for p in "$@"; do
    ls "$dir/${p}_"*.deb >/dev/null 2>&1 || (cd "$dir" && apt-get download -q "$p" 2>/dev/null)
  done
}
download .gl libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
download .gpu/debs libfftw3-single3 libfftw3-double3

cmake -S . -B build-h200 -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-h200

rm -rf .h200/bin .h200/lib
mkdir -p .h200/bin .h200/lib
cp build-h200/bin/{cuda_bench,fftmux,fftmux_correctness,fftmux_bench,fftmux_cuda_gpu_test,opengl_bench,vulkan_bench,codegen_dump} \
  .h200/bin/
cp -a build-h200/lib/fftmux build-h200/lib/fftmux-bench build-h200/lib/libfftmux.so* .h200/lib/

cat >.h200/setup.sh <<'EOF'
# sourced: loaders and FFTW unpacked, environment for the fftmux binaries
for f in .gl/*.deb; do dpkg -x $f /; done
mkdir -p /opt/fx && for f in .gpu/debs/*.deb; do dpkg -x $f /opt/fx; done
ldconfig
export LD_LIBRARY_PATH=/opt/fx/usr/lib/x86_64-linux-gnu:$PWD/.h200/lib
export XDG_CACHE_HOME=/tmp/fxcache FFTMUX_CONFIG=/tmp/fx.toml
printf '[backends.fftw]\nplanner = "estimate"\n' > /tmp/fx.toml
B=$PWD/.h200/bin
R=/tmp/res; mkdir -p $R
pack() { tar czf $OUT/$1.tgz -C /tmp res; }
# one N BATCH VARIANT BACKEND [run options...]: the median execute time in
# us of one process per plan, device data, as the session READMEs report.
one() {
  local n=$1 b=$2 v=$3 be=$4
  shift 4
  timeout 90 $B/fftmux run --shape $n --batch $b --placement device --backend $be --variant $v \
    --repeat 30 --warmup 10 "$@" 2>&1 | awk '/^execute/ {print $2}'
}
# t N BATCH VARIANT BACKEND [options]: `one`'s time as a line "ARGS TIME"
# of $CALL.txt in $OUT and $R (CALL: the call's name, c1, c2, ...).
t() { echo "$* $(one "$@")" | tee -a $R/$CALL.txt >> $OUT/$CALL.txt; }
# o N BATCH BACKEND VARIANT [options]: the same with the plugins in $OLD
# (an earlier build's plugin folder), the line tagged old.
o() {
  local n=$1 b=$2 be=$3 v=$4
  shift 4
  echo "$n $b old $be $v $* $(FFTMUX_PLUGIN_PATH=$OLD one $n $b $v $be "$@")" |
    tee -a $R/$CALL.txt >> $OUT/$CALL.txt
}
EOF
du -sh .gl .gpu .h200
