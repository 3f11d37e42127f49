#include "layout.hpp"

namespace fftmux::fftw {

Map strided_map(const int64_t* extent, const int64_t* stride, int64_t distance, unsigned shifted) {
  Map m;
  m.distance = distance;
  for (int d = 0; d < FFTMUX_MAX_RANK; ++d) {
    int64_t n = extent[d];
    int64_t by = (shifted >> d & 1u) ? n / 2 : 0;
    m.axis[d].resize(size_t(n));
    for (int64_t i = 0; i < n; ++i)
      m.axis[d][size_t(i)] = (i + by) % n * stride[d];
  }
  return m;
}

Map packed_map(const int64_t* extent) {
  int64_t stride[FFTMUX_MAX_RANK];
  int64_t step = 1;
  for (int d = FFTMUX_MAX_RANK - 1; d >= 0; --d) {
    stride[d] = step;
    step *= extent[d];
  }
  return strided_map(extent, stride, step, 0);
}

} // namespace fftmux::fftw
