// What one execution of an FFTW plan costs beyond the customary 5 N log2 N
// flops at the rate of short 1D lines, which the host's device model is
// fitted to (docs/routing.md): a factor on the flops the query reports.
#pragma once

#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>

namespace fftmux::fftw {

// FFTW's codelets end here; a larger prime factor runs Rader's algorithm.
constexpr int64_t largest_codelet = 16;
// One transform that overflows this stays out of the cache in its strided
// passes.
constexpr double cache_bytes = 512 * 1024;

inline int64_t largest_prime_factor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p)
    for (; n % p == 0; n /= p)
      largest = p;
  return n > 1 ? n : largest;
}

// 1 + log2(p) / 2 an axis with a prime factor p above the codelets (H200
// machine, 16 threads, 4.2M points: 4093 6x the time a point of 4096,
// 10007 15x), times 1 + log2(bytes / cache_bytes) a strided axis of a
// transform larger than the cache (1024x1024 F32 6x, 4096x4096 14x).
inline double effort(const fftmux_desc& d) {
  double f = 1, bytes = double(plugin::points(d)) * (d.precision == FFTMUX_F64 ? 16 : 8);
  for (uint32_t i = 0; i < d.rank; ++i) {
    int64_t p = largest_prime_factor(d.n[i]);
    if (p > largest_codelet)
      f *= 1 + std::log2(double(p)) / 2;
  }
  int strided = 0;
  for (uint32_t i = 0; i + 1 < d.rank; ++i)
    strided += d.n[i] > 1;
  return f * (1 + strided * std::clamp(std::log2(bytes / cache_bytes), 0.0, 10.0));
}

} // namespace fftmux::fftw
