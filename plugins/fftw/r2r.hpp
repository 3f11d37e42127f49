// Real-to-real kinds on FFTW: its r2r kinds, and the weights scipy's
// orthogonalized ORTHO norm puts on the first and last terms of an axis.
#pragma once

#include <fftmux/fftmux.h>

#include <fftw3.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace fftmux::fftw {

// FFTW's kind of an fftmux_r2r_kind (FFTW_REDFT00 is DCT-I, and so on).
inline fftw_r2r_kind fftw_kind(uint32_t k) {
  static const fftw_r2r_kind kinds[] = {FFTW_REDFT00, FFTW_REDFT00, FFTW_REDFT10,
                                        FFTW_REDFT01, FFTW_REDFT11, FFTW_RODFT00,
                                        FFTW_RODFT10, FFTW_RODFT01, FFTW_RODFT11};
  return kinds[k < 9 ? k : 0];
}

// One hyperplane of an axis and the factor its elements take.
struct Plane {
  int64_t index;
  double factor;
};

// The planes of an axis of n points that ORTHO weighs on the input (x[0] of
// DCT-I and III, x[n-1] of DCT-I and DST-III times sqrt 2) or on the output
// (y[0] of DCT-I and II, y[n-1] of DCT-I and DST-II over sqrt 2), so that
// with the scale 1/sqrt(N') each axis is orthogonal, as in scipy.fft.
inline std::vector<Plane> ortho_planes(uint32_t kind, int64_t n, bool input) {
  double f = input ? std::sqrt(2.0) : std::sqrt(0.5);
  bool first = kind == FFTMUX_DCT1 || kind == (input ? FFTMUX_DCT3 : FFTMUX_DCT2);
  bool last = kind == FFTMUX_DCT1 || kind == (input ? FFTMUX_DST3 : FFTMUX_DST2);
  std::vector<Plane> planes;
  if (first)
    planes.push_back({0, f});
  if (last)
    planes.push_back({n - 1, f});
  return planes;
}

} // namespace fftmux::fftw
