#include "work.hpp"

#include "native.hpp"
#include "route.hpp"

#include <fftmux/gpu/generation.hpp>

#include <cmath>

namespace fftmux::cuda {

namespace {

// Passes over the data of one smooth axis by length, read off cuFFT 12's
// throughput on an H200 against one read and one write of the data
// (GPU-MACHINE.md's table: 8..8192 points one pass, 16384 1.4, to 65536 2,
// to 2^21 2.3, above 3.2).
struct Step {
  int64_t up_to;
  double passes;
};
constexpr Step smooth_passes[] = {{8192, 1.0}, {16384, 1.4}, {65536, 2.0}, {int64_t(1) << 21, 2.3}};
constexpr double longest_passes = 3.2;
// cuFFT runs lengths with a prime factor above this by Bluestein's algorithm.
constexpr int64_t largest_radix = 127;

int64_t largest_prime_factor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p)
    for (; n % p == 0; n /= p)
      largest = p;
  return n > 1 ? n : largest;
}

double smooth(int64_t n) {
  for (const Step& s : smooth_passes)
    if (n <= s.up_to)
      return s.passes;
  return longest_passes;
}

// Bluestein: three transforms of a power of two M >= 2n - 1 over M/n times
// the data, and the chirp products (4093 on the H200: 5 passes' time).
double passes(int64_t n) {
  if (largest_prime_factor(n) <= largest_radix)
    return smooth(n);
  int64_t m = 1;
  while (m < 2 * n - 1)
    m *= 2;
  return double(m) / double(n) * 2 * smooth(m) + 1;
}

} // namespace

codegen::Work cufft_work(const fftmux_desc& d) {
  Route r = plan_route(d, true);
  double total = 0;
  for (int axis : r.engine_axes)
    total += passes(r.user_in.period[axis]);
  int slot = Route::slot(d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD);
  double copies = (r.in_stage ? 1 : 0) + (r.out_stage ? 1 : 0) + (r.ops[slot].post_pass ? 1 : 0);
  double sides = double(plugin::side_bytes(d, true) + plugin::side_bytes(d, false));
  codegen::Work w;
  w.launches = std::ceil(total) + copies;
  w.device_bytes = (total + copies) * sides;
  w.flops = plugin::fft_flops(d) * std::max(1.0, total);
  if (d.placement == FFTMUX_HOST)
    w.host_bytes = sides;
  w.fingerprint = "cufft";
  return w;
}

codegen::Work native_work(const fftmux_desc& d, const codegen::Device& limits,
                          const codegen::Options& options) {
  return codegen::work({codegen::Chunk{0, d.batch, native_generated(d, limits, options)}}, d);
}

} // namespace fftmux::cuda
