// The geometry of a resolved descriptor: the shape of each side, its span and bytes,
// its points and the scale of a direction. Header-only and free of the
// plugin ABI, so that the generator and the plugins share one copy
// (plugin_support.hpp names these in fftmux::plugin too).
#pragma once

#include "fftmux.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace fftmux::geometry {

// One side of a transform, axes right-aligned to FFTMUX_MAX_RANK (rank 1
// uses the last slot) so loops over three axes serve every rank.
struct Shape {
  bool complex = true;
  int64_t extent[FFTMUX_MAX_RANK] = {1, 1, 1};
  int64_t stride[FFTMUX_MAX_RANK] = {0, 0, 0};
  int64_t distance = 0;
  unsigned shift_axes = 0; // axes a SHIFT flag applies to on this side
};

// Whether a side holds reals: the real side of R2C and C2R, both of R2R.
inline bool real_side(const fftmux_desc& d, bool input) {
  return d.kind == FFTMUX_R2R || (input ? d.kind == FFTMUX_R2C : d.kind == FFTMUX_C2R);
}

// Whether the kind halves the complex side's last axis: R2C and C2R.
inline bool halved_kind(const fftmux_desc& d) {
  return d.kind == FFTMUX_R2C || d.kind == FFTMUX_C2R;
}

// The extent of axis i of one side, axes as in desc.n (not right-aligned):
// n/2+1 on the halved last axis of the complex side of R2C and C2R.
inline int64_t side_extent(const fftmux_desc& d, bool input, uint32_t i) {
  return halved_kind(d) && !real_side(d, input) && i + 1 == d.rank ? d.n[i] / 2 + 1 : d.n[i];
}

// The points of axis i (as in desc.n) a side's array holds: its in_extent
// or out_extent, the whole side_extent where that is 0 (no padding).
inline int64_t held_extent(const fftmux_desc& d, bool input, uint32_t i) {
  int64_t e = input ? d.in_extent[i] : d.out_extent[i];
  return e ? e : side_extent(d, input, i);
}

// Whether a side's array holds less than the whole side on some axis: a
// zero-padded input, or an output cut to a prefix.
inline bool padded(const fftmux_desc& d, bool input) {
  for (uint32_t i = 0; i < d.rank && i < FFTMUX_MAX_RANK; ++i)
    if (held_extent(d, input, i) != side_extent(d, input, i))
      return true;
  return false;
}

inline bool padded(const fftmux_desc& d) {
  return padded(d, true) || padded(d, false);
}

// The array a side's buffer holds (its held extents, strides and distance);
// whole: the side's full extents on the same strides, as an engine sees it.
inline Shape shape(const fftmux_desc& d, bool input, bool whole = false) {
  Shape s;
  s.complex = !real_side(d, input);
  int offset = FFTMUX_MAX_RANK - int(d.rank);
  for (uint32_t i = 0; i < d.rank; ++i) {
    s.extent[offset + i] = whole ? side_extent(d, input, i) : held_extent(d, input, i);
    s.stride[offset + i] = input ? d.in_strides[i] : d.out_strides[i];
    s.shift_axes |= 1u << (offset + i);
  }
  s.distance = input ? d.in_distance : d.out_distance;
  if (halved_kind(d) && s.complex) // the halved axis is never shifted
    s.shift_axes &= ~(1u << (FFTMUX_MAX_RANK - 1));
  return s;
}

// A side laid out contiguously, axes and batch in order: a staging copy's.
inline Shape packed(Shape s) {
  int64_t step = 1;
  for (int i = FFTMUX_MAX_RANK - 1; i >= 0; --i) {
    s.stride[i] = step;
    step *= s.extent[i];
  }
  s.distance = step;
  return s;
}

// The layout a side gets when its strides and distance are left 0: packed,
// the real side of an in-place R2C or C2R padded to whole complex rows.
inline Shape default_layout(const fftmux_desc& d, bool input) {
  Shape s = packed(shape(d, input));
  if (!(d.flags & FFTMUX_IN_PLACE) || !halved_kind(d) || s.complex)
    return s;
  int64_t step = 1;
  for (int i = FFTMUX_MAX_RANK - 1; i >= 0; --i) {
    s.stride[i] = step;
    step *= i == FFTMUX_MAX_RANK - 1 ? 2 * (s.extent[i] / 2 + 1) : s.extent[i];
  }
  s.distance = step;
  return s;
}

// Whether a side's strides place its elements other than the default layout
// does (the stride of an axis of one element places nothing).
inline bool custom_strides(const fftmux_desc& d, bool input) {
  Shape s = shape(d, input), def = default_layout(d, input);
  for (int i = 0; i < FFTMUX_MAX_RANK; ++i)
    if (s.extent[i] > 1 && s.stride[i] != def.stride[i])
      return true;
  return false;
}

// Whether a batched side's distance differs from the default layout's.
inline bool custom_distance(const fftmux_desc& d, bool input) {
  return d.batch > 1 && shape(d, input).distance != default_layout(d, input).distance;
}

inline int64_t points(const fftmux_desc& d) {
  int64_t n = 1;
  for (uint32_t i = 0; i < d.rank; ++i)
    n *= d.n[i];
  return n;
}

// Elements from a side's first to one past its last, every batch included.
inline int64_t span(const Shape& s, int64_t batch) {
  int64_t last = (batch - 1) * s.distance;
  for (int i = 0; i < FFTMUX_MAX_RANK; ++i)
    last += (s.extent[i] - 1) * s.stride[i];
  return last + 1;
}

// Bytes of one real value of a precision: a complex one is twice that.
inline uint32_t scalar_bytes(uint32_t precision) {
  const uint32_t bytes[] = {4, 8, 2, 2}; // F32, F64, F16, BF16
  return precision < 4 ? bytes[precision] : 4;
}

// The relative rounding error of a precision's values: F16 and BF16 results
// carry their storage's, far above the F32 arithmetic's.
inline double epsilon(uint32_t precision) {
  const double eps[] = {0x1p-23, 0x1p-52, 0x1p-11, 0x1p-8}; // F32, F64, F16, BF16
  return eps[precision < 4 ? precision : 0];
}

// Whether a precision is a 16-bit storage format (arithmetic in F32).
inline bool half_storage(uint32_t precision) {
  return precision == FFTMUX_F16 || precision == FFTMUX_BF16;
}

// Bytes from the first to one past the last element of one side of a
// resolved descriptor, every batch included.
inline uint64_t side_bytes(const fftmux_desc& d, bool input) {
  Shape s = shape(d, input);
  uint64_t scalar = scalar_bytes(d.precision);
  return uint64_t(span(s, d.batch)) * scalar * (s.complex ? 2 : 1);
}

// The R2R kind axis i runs in direction: the descriptor's forward, its
// inverse pairing (II <-> III; I and IV their own) on the way back.
inline uint32_t r2r_kind(const fftmux_desc& d, uint32_t i, int direction) {
  uint32_t k = d.r2r[i];
  if (direction == FFTMUX_FORWARD)
    return k;
  switch (k) {
  case FFTMUX_DCT2: return FFTMUX_DCT3;
  case FFTMUX_DCT3: return FFTMUX_DCT2;
  case FFTMUX_DST2: return FFTMUX_DST3;
  case FFTMUX_DST3: return FFTMUX_DST2;
  default: return k;
  }
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

// The logical size N' of an R2R axis of n points: FFTW's, 2(n-1) for DCT-I,
// 2(n+1) for DST-I and 2n for the other kinds.
inline int64_t logical_size(uint32_t kind, int64_t n) {
  return kind == FFTMUX_DCT1 ? 2 * (n - 1) : kind == FFTMUX_DST1 ? 2 * (n + 1) : 2 * n;
}

// The logical size N' of axis i: logical_size for R2R, n for the DFT kinds.
inline int64_t logical_n(const fftmux_desc& d, uint32_t i) {
  return d.kind == FFTMUX_R2R ? logical_size(d.r2r[i], d.n[i]) : d.n[i];
}

// The N the norms divide by: the product of the logical sizes.
inline double logical_points(const fftmux_desc& d) {
  double n = 1;
  for (uint32_t i = 0; i < d.rank; ++i)
    n *= double(logical_n(d, i));
  return n;
}

// The factor the transform applies in direction under d.norm (for R2R
// ORTHO, before the orthogonalizing weights of the first and last terms).
inline double scale(const fftmux_desc& d, int direction) {
  double n = logical_points(d);
  switch (d.norm) {
  case FFTMUX_NORM_BACKWARD: return direction == FFTMUX_INVERSE ? 1.0 / n : 1.0;
  case FFTMUX_NORM_ORTHO: return 1.0 / std::sqrt(n);
  case FFTMUX_NORM_FORWARD: return direction == FFTMUX_FORWARD ? 1.0 / n : 1.0;
  default: return 1.0;
  }
}

// The name of an fftmux_r2r_kind as the command line and tuning keys spell
// it ("dct2"), "?" for a value from newer code.
inline const char* r2r_name(uint32_t k) {
  static const char* const names[] = {"none", "dct1", "dct2", "dct3", "dct4",
                                      "dst1", "dst2", "dst3", "dst4"};
  return k < sizeof names / sizeof *names ? names[k] : "?";
}

// The kind in words: "c2c", "r2c", "c2r"; for R2R the axes' kinds, one
// name where all axes share it ("dct2") and comma-separated otherwise
// ("dct2,dst1").
inline std::string kind_text(const fftmux_desc& d) {
  static const char* const dft[] = {"c2c", "r2c", "c2r"};
  if (d.kind != FFTMUX_R2R)
    return d.kind < 3 ? dft[d.kind] : "?";
  std::string all = r2r_name(d.r2r[0]), each = all;
  bool same = true;
  for (uint32_t i = 1; i < d.rank && i < FFTMUX_MAX_RANK; ++i) {
    same = same && d.r2r[i] == d.r2r[0];
    each += std::string(",") + r2r_name(d.r2r[i]);
  }
  return same ? all : each;
}

} // namespace fftmux::geometry
