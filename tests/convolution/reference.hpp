// Direct convolution and correlation in double, O(N*M), as scipy.signal
// defines them: the full linear result cut to a mode's window, or circular.
#pragma once

#include <fftmux/fftmux.h>

#include <array>
#include <complex>
#include <cstdint>
#include <vector>

namespace conv_ref {

using cd = std::complex<double>;
using Dims = std::array<int64_t, 3>;

inline int64_t points(const Dims& d) {
  return d[0] * d[1] * d[2];
}

inline int64_t at(const Dims& d, int64_t i, int64_t j, int64_t k) {
  return (i * d[1] + j) * d[2] + k;
}

// One signal x (sizes n) with one filter h (sizes m); out has sizes `out`.
inline std::vector<cd> direct(const std::vector<cd>& x, const Dims& n, const std::vector<cd>& h,
                              const Dims& m, const Dims& out, uint32_t mode, bool correlate) {
  bool circular = mode == FFTMUX_CONV_CIRCULAR;
  Dims start{};
  for (int a = 0; a < 3; ++a)
    start[a] = mode == FFTMUX_CONV_SAME ? (m[a] - 1) / 2 : mode == FFTMUX_CONV_VALID ? m[a] - 1 : 0;
  std::vector<cd> y(points(out));
  for (int64_t o0 = 0; o0 < out[0]; ++o0)
    for (int64_t o1 = 0; o1 < out[1]; ++o1)
      for (int64_t o2 = 0; o2 < out[2]; ++o2) {
        Dims t{o0 + start[0], o1 + start[1], o2 + start[2]};
        cd sum = 0;
        for (int64_t j0 = 0; j0 < m[0]; ++j0)
          for (int64_t j1 = 0; j1 < m[1]; ++j1)
            for (int64_t j2 = 0; j2 < m[2]; ++j2) {
              // Correlation: the filter reversed and conjugated (scipy.signal.correlate);
              // circular correlation: sum_j x[t + j] conj(h[j]).
              Dims j{j0, j1, j2}, s;
              cd hv = h[at(m, j0, j1, j2)];
              bool inside = true;
              for (int a = 0; a < 3; ++a) {
                s[a] =
                    correlate ? (circular ? t[a] + j[a] : t[a] - (m[a] - 1) + j[a]) : t[a] - j[a];
                if (circular)
                  s[a] = ((s[a] % n[a]) + n[a]) % n[a];
                inside = inside && s[a] >= 0 && s[a] < n[a];
              }
              if (inside)
                sum += x[at(n, s[0], s[1], s[2])] * (correlate ? std::conj(hv) : hv);
            }
        y[at(out, o0, o1, o2)] = sum;
      }
  return y;
}

} // namespace conv_ref
