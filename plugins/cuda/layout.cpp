#include "layout.hpp"

#include <algorithm>

namespace fftmux::cuda {

int64_t Side::count() const {
  int64_t n = 1;
  for (int64_t e : extent)
    n *= e;
  return n;
}

int64_t Side::span() const {
  int64_t last = 0;
  for (int a = 0; a < kAxes; ++a)
    last += (extent[a] - 1) * stride[a];
  return last + 1;
}

namespace {

// An axis of extent 1 gets the stride that makes it look contiguous with the
// axes inside it, so cuFFT's embeds and the nesting test ignore it.
void normalize(Side& s) {
  for (int a = kAxes - 1; a >= 0; --a)
    if (s.extent[a] == 1)
      s.stride[a] = a == kAxes - 1 ? 1 : s.stride[a + 1] * s.extent[a + 1];
}

} // namespace

Side user_side(const fftmux_desc& d, bool input) {
  plugin::Shape p = plugin::shape(d, input);
  Side s;
  s.complex = p.complex;
  s.extent[0] = d.batch;
  s.stride[0] = p.distance;
  int offset = FFTMUX_MAX_RANK - int(d.rank);
  for (int a = 0; a < FFTMUX_MAX_RANK; ++a) {
    s.extent[a + 1] = p.extent[a];
    s.stride[a + 1] = p.stride[a];
    s.period[a + 1] = a >= offset ? d.n[a - offset] : 1;
  }
  s.shift_axes = p.shift_axes << 1;
  normalize(s);
  return s;
}

Side packed(const Side& s) {
  Side p = s;
  int64_t step = 1;
  for (int a = kAxes - 1; a >= 0; --a) {
    p.stride[a] = step;
    step *= s.extent[a];
  }
  return p;
}

int axes_by_stride(const Side& s, int order[kAxes]) {
  int n = 0;
  for (int a = 0; a < kAxes; ++a)
    if (s.extent[a] > 1)
      order[n++] = a;
  // Stable: equal strides (which nested() rejects) keep axis order.
  std::stable_sort(order, order + n, [&](int x, int y) { return s.stride[x] > s.stride[y]; });
  return n;
}

bool nested(const Side& s) {
  int order[kAxes];
  int n = axes_by_stride(s, order);
  int64_t inner_span = 0; // span of the axes after position i, minus one
  for (int i = n - 1; i >= 0; --i) {
    int a = order[i];
    if (s.stride[a] <= inner_span)
      return false;
    inner_span += (s.extent[a] - 1) * s.stride[a];
  }
  return true;
}

std::optional<Embed> cufft_embed(const Side& s, const std::vector<int>& axes) {
  if (!nested(s) || axes.empty())
    return std::nullopt;
  Embed e{};
  e.stride = s.stride[axes.back()];
  e.distance = s.stride[0];
  e.embed[0] = s.extent[axes[0]];
  for (size_t j = 0; j + 1 < axes.size(); ++j) {
    // cuFFT addresses axis j with stride[j+1] * embed[j+1].
    int a = axes[j], b = axes[j + 1];
    if (s.stride[a] % s.stride[b] != 0 || s.stride[a] / s.stride[b] < s.extent[b])
      return std::nullopt;
    e.embed[j + 1] = s.stride[a] / s.stride[b];
  }
  return e;
}

} // namespace fftmux::cuda
