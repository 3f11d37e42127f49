// The numpy shifts of a distributed transform, moved by the shift theorem to
// the other side of the transform, where each is a phase per element that
// needs no data of another rank: transforming ifftshift(x) multiplies the
// result by e^(-i 2 pi dir (n/2) k / n) along the shifted axes, and
// fftshift of the result is the transform of x times the same phase. The
// norm's scale rides along. A real side takes only real phases: even n.
#pragma once

#include <fftmux/fftmux.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace fftmux::fftw_mpi {

// The phase of the global indices [lower, upper) of an axis of length n.
inline std::vector<std::complex<double>> phases(int64_t n, int64_t lower, int64_t upper, int dir,
                                                bool shifted) {
  std::vector<std::complex<double>> p(size_t(upper - lower), 1.0);
  for (int64_t k = lower; shifted && k < upper; ++k) {
    int64_t m = (n / 2) * k % n; // exact, for large k too
    p[size_t(k - lower)] = std::polar(1.0, -2 * M_PI * dir * double(m) / double(n));
  }
  return p;
}

// Where an axis is shifted on both sides, the phases of the two shifts
// commute with a constant e^(i 2 pi dir (n/2)^2 / n) (+-1 for even n): the
// product of the axes' in the bit set both.
inline std::complex<double> commuted(const fftmux_desc& d, unsigned both, int dir) {
  std::complex<double> c = 1.0;
  for (uint32_t i = 0; i < d.rank; ++i)
    if (both >> i & 1) {
      int64_t s = d.n[i] / 2;
      c *= std::polar(1.0, 2 * M_PI * dir * double(s * s % d.n[i]) / double(d.n[i]));
    }
  return c;
}

// Multiplies the box of one side (complex or real elements, the batch
// innermost) by scale and the phases of the axes in the bit set axes.
template <class T>
void modulate(T* data, bool complex, const fftmux_box& box, const fftmux_desc& d, unsigned axes,
              int dir, std::complex<double> scale) {
  std::vector<std::complex<double>> p[FFTMUX_MAX_RANK];
  int64_t stride[FFTMUX_MAX_RANK] = {0, 0, 0};
  for (uint32_t i = 0; i < FFTMUX_MAX_RANK; ++i) {
    bool axis = i < d.rank;
    p[i] = axis ? phases(d.n[i], box.lower[i], box.upper[i], dir, axes >> i & 1)
                : std::vector<std::complex<double>>(1, 1.0);
    stride[i] = axis ? box.strides[i] : 0;
  }
  int w = complex ? 2 : 1;
  for (size_t a = 0; a < p[0].size(); ++a)
    for (size_t b = 0; b < p[1].size(); ++b) {
      std::complex<double> ab = p[0][a] * p[1][b] * scale;
      for (size_t c = 0; c < p[2].size(); ++c) {
        std::complex<double> f = ab * p[2][c];
        T* e =
            data + (int64_t(a) * stride[0] + int64_t(b) * stride[1] + int64_t(c) * stride[2]) * w;
        for (int64_t h = 0; h < d.batch; ++h, e += w) {
          if (!complex) {
            e[0] *= T(f.real());
            continue;
          }
          std::complex<double> v = std::complex<double>(e[0], e[1]) * f;
          e[0] = T(v.real());
          e[1] = T(v.imag());
        }
      }
    }
}

} // namespace fftmux::fftw_mpi
