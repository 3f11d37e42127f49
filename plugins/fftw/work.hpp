// What one execution of an FFTW plan costs beyond the customary 5 N log2 N
// flops at the rate of short 1D lines, which the host's device model is
// fitted to (docs/routing.md): a factor on the flops the query reports.
#pragma once

#include "transposed.hpp"

#include <fftmux/desc_geometry.hpp>
#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>

namespace fftmux::fftw {

// FFTW's codelets end here; a larger prime factor runs Rader's algorithm.
constexpr int64_t largest_codelet = 16;
// One transform that overflows this stays out of the cache in its strided
// passes.
constexpr double cache_bytes = 512 * 1024;

// log2(p) / 2 for each prime factor p of n above the codelets, which FFTW
// runs by Rader's algorithm (a cyclic convolution of p - 1 points).
inline double rader_effort(int64_t n) {
  double e = 0;
  auto add = [&](int64_t p) {
    if (p > largest_codelet)
      e += std::log2(double(p)) / 2;
  };
  for (int64_t p = 2; p * p <= n; ++p)
    for (; n % p == 0; n /= p)
      add(p);
  if (n > 1)
    add(n);
  return e;
}

// The bytes of one complex transform of d.
inline double transform_bytes(const fftmux_desc& d) {
  return double(plugin::points(d)) * (d.precision == FFTMUX_F64 ? 16 : 8);
}

// Rows of odd length, where FFTW cannot keep its vectors aligned: smooth F32 rows lose the SIMD
// codelets (1.5x: 225x225 F32 took 1.6x the time of its F64 of as many bytes, 224x224 1.26x;
// Rader's primes have it in their effort) and R2C or C2R the half-length complex line (1.5x
// more: R2C 45x45x45 F32 took C2C's time, not half). Development machine, one measurement each,
// `fftmux run --backend fftw`.
inline double odd_rows(const fftmux_desc& d) {
  int64_t row = d.n[d.rank - 1];
  if (row % 2 == 0)
    return 1;
  bool simd = d.precision == FFTMUX_F32 && rader_effort(row) == 0;
  return (simd ? 1.5 : 1.0) * (geometry::halved_kind(d) ? 1.5 : 1.0);
}

// An R2R plan costs about a real DFT of its logical sizes N' (twice the points, and Rader's primes
// of N', which are weighed in effort), and its pre- and post-passes half as much again: the flops
// reported (2.5 n log2 n) times 1.5 (N' log2 N') / (n log2 n). Development machine, 1024 x1024
// F32: DCT-II 2.0 ms, DCT-IV 2.0, DCT-I (N' = 2046 = 2 x 3 x 11 x 31) 7.5, C2C 0.62.
inline double r2r_effort(const fftmux_desc& d) {
  if (d.kind != FFTMUX_R2R)
    return 1;
  double n = 1, logical = 1;
  for (uint32_t i = 0; i < d.rank; ++i) {
    n *= double(d.n[i]);
    logical *= double(geometry::logical_size(d.r2r[i], d.n[i]));
  }
  return 1.5 * logical * std::log2(std::max(2.0, logical)) / (n * std::log2(std::max(2.0, n)));
}

// Whether a strided axis's step is a multiple of 4 KiB: every element of a column then falls in
// one set of a 4 KiB-way cache, which holds few of them (1024x1024 F32: an 8 KiB step). Other
// steps spread over the sets: 45x45x45 F64 (steps of 720 B and 32400 B) ran in 9.5 ms where
// the strided effort priced 32 ms on the development machine. R2C and C2R step over the
// complex rows (513 elements for 1024).
inline bool critical_step(double bytes) {
  return std::fmod(bytes, 4096) == 0;
}

// 1 + rader_effort an axis, times 1 + log2(bytes / cache_bytes) a strided axis of critical step
// in a transform larger than the cache (estimated plans of such steps ran 3-16x their measured
// ones; what runs transposed weighs none: transposed.hpp). Time a point over
// 4096's, FFTW 3.3.10: on an H200 machine's 16 threads, 4.2M points, 4093 6x and 10007 15x; on
// the 2-core development machine, one thread, 2^20 points F32, 4093 4.9x, 4097 = 17 x 241 8.2x,
// 10007 9.7x, and F64 in the cache 8.6x, 6.2x and 7.4x. The prices: 7, 7 and 7.6 (each prime of
// 4097 weighs: 4.96 were its largest alone). Then odd_rows.
inline double effort(const fftmux_desc& d) {
  double f = r2r_effort(d);
  for (uint32_t i = 0; i < d.rank; ++i)
    f *= 1 + rader_effort(d.kind == FFTMUX_R2R ? geometry::logical_size(d.r2r[i], d.n[i]) : d.n[i]);
  // The step in bytes over a row: complex, of n / 2 + 1 for R2C and C2R, real for R2R.
  int64_t row = d.n[d.rank - 1];
  double step = d.kind == FFTMUX_C2C   ? double(row) * 8
                : d.kind == FFTMUX_R2R ? double(row) * 4
                                       : double(row / 2 + 1) * 8;
  if (d.precision == FFTMUX_F64)
    step *= 2;
  double strided = 0, over = std::clamp(std::log2(transform_bytes(d) / cache_bytes), 0.0, 10.0);
  for (uint32_t i = d.rank - 1; i-- > 0; step *= double(d.n[i])) // axis i steps over those after
    strided += d.n[i] > 1 && critical_step(step);
  if (rows_transposed(d) && !(geometry::halved_kind(d) && (d.flags & FFTMUX_IN_PLACE)))
    strided = 0; // transposed.hpp: contiguous lines and transposes, priced by the spill
  return f * (1 + strided * over) * odd_rows(d);
}

// Passes over memory beyond the flops' own: a transform larger than a core's
// first-level cache streams its sides through the caches below once a
// doubling past it (FFTW's recursive passes; the development machine's 2^20
// points took 3.8x their flops' time, 16384 points 1.9x, 4096 1.25x). The
// device model's byte cost, fitted to a probe of 2^20 points, prices them.
constexpr double first_cache_bytes = 32 * 1024;

inline double spill(const fftmux_desc& d) {
  return std::max(0.0, std::log2(transform_bytes(d) / first_cache_bytes));
}

} // namespace fftmux::fftw
