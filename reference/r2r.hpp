// The real-to-real part of the oracle: FFTW's DCT and DST definitions
// summed naively in long double or run by FFTW's r2r in double, the norms
// and scipy's orthogonal weights applied by index arithmetic.
#pragma once

#include "reference.hpp"

namespace fftmux::ref {

// The expected output of one batch of an R2R desc (resolved) in direction,
// for x packed row-major; naive: the O(N^2) sums, else FFTW.
std::vector<long double> r2r_expected(const fftmux_desc& d, int direction,
                                      std::vector<long double> x, bool naive);

} // namespace fftmux::ref
