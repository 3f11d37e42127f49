#!/usr/bin/env bash
# Instructions per forward C2C call, FFTW direct against fftmux's FFTW
# backend on the same FFTW plan (FFTW_ESTIMATE on both sides), counted by
# callgrind: (count at 2R repeats - count at R repeats) / R. Deterministic,
# so it shows what fftmux adds where timings on a shared machine cannot.
#   benchmarks/overhead_count.sh [build dir]
set -euo pipefail
build=${1:-build}
cfg=$(mktemp -d)
printf '[backends.fftw]\nplanner = "estimate"\nthreads = 1\n' > "$cfg/fftmux.toml"
export FFTMUX_CONFIG=$cfg/fftmux.toml XDG_CACHE_HOME=$cfg/cache
count() { # mode precision n repeats
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$build/bin/overhead_count" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_call() { # mode precision n
  local r=200
  echo $(( ($(count "$1" "$2" "$3" $((2 * r))) - $(count "$1" "$2" "$3" $r)) / r ))
}
echo "| precision | n | FFTW direct (instructions/call) | fftmux (instructions/call) | added | ratio |"
echo "|---|---:|---:|---:|---:|---:|"
for p in f32 f64; do
  for n in 16 256 1024 4096 16384 65536; do
    d=$(per_call direct $p $n); m=$(per_call fftmux $p $n)
    echo "| $p | $n | $d | $m | $((m - d)) | $(awk "BEGIN{printf \"%.4f\", $m/$d}") |"
  done
done
rm -rf "$cfg"
