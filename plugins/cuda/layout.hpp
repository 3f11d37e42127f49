// One side of a transform as the CUDA backend moves it: the batch as a
// fourth axis in front of the three right-aligned transform axes, so every
// index computation (kernels, callbacks, cuFFT's embeds) is one loop.
#pragma once

#include <fftmux/plugin_support.hpp>

#include <optional>
#include <vector>

namespace fftmux::cuda {

constexpr int kAxes = FFTMUX_MAX_RANK + 1; // [0] batch, [1..3] transform axes

struct Side {
  bool complex = true;
  int64_t extent[kAxes] = {1, 1, 1, 1};
  int64_t stride[kAxes] = {1, 1, 1, 1}; // elements of the side's type
  int64_t period[kAxes] = {1, 1, 1, 1}; // logical length: the real n on a halved axis
  unsigned shift_axes = 0;              // bit a: a SHIFT flag moves axis a of this side

  int64_t count() const; // logical elements
  int64_t span() const;  // elements from the first to one past the last
  int64_t element_bytes(bool f64) const { return (complex ? 2 : 1) * (f64 ? 8 : 4); }
};

// The caller's layout of one side of a resolved descriptor. Strides of axes
// of extent 1 are normalized (they never multiply an index).
Side user_side(const fftmux_desc& d, bool input);

// The same side laid out contiguously, batch-major and row-major.
Side packed(const Side& s);

// True when ordering the axes by stride, each stride exceeds the span of the
// smaller ones: offsets then decode into indices by successive division,
// and no two elements share an address.
bool nested(const Side& s);

// cuFFT's advanced layout of a side: n, embed, stride, distance.
struct Embed {
  long long embed[FFTMUX_MAX_RANK];
  long long stride, distance;
};

// The embed of axes (Side indices, increasing) of s, when cuFFT can
// address them.
std::optional<Embed> cufft_embed(const Side& s, const std::vector<int>& axes);

// Axes of s (Side indices) in decreasing stride order, extent-1 axes left out.
int axes_by_stride(const Side& s, int order[kAxes]);

} // namespace fftmux::cuda
