// The real-to-real part of the oracle: FFTW's DCT and DST definitions
// summed naively in long double or run by FFTW's r2r in double, the norms
// and scipy's orthogonal weights applied by index arithmetic.
#pragma once

#include "reference.hpp"

#include <fftw3.h>

namespace fftmux::ref {

// The expected output of one batch of an R2R desc (resolved) in direction,
// for x packed row-major; naive: the O(N^2) sums, else FFTW.
std::vector<long double> r2r_expected(const fftmux_desc& d, int direction,
                                      std::vector<long double> x, bool naive);

// FFTW's kind of an fftmux_r2r_kind (1..8): FFTW_REDFT00 for DCT-I and so on.
fftw_r2r_kind fftw_kind(uint32_t kind);

} // namespace fftmux::ref
