// Element walks over one side of a transform: the copies and scalings FFTW
// does not do itself (shifts, normalization, preserving a C2R input).
#pragma once

#include <fftmux/fftmux.h>

#include <cstdint>
#include <vector>

namespace fftmux::fftw {

// Offsets, in elements, of every index along each axis plus the batch step.
struct Map {
  std::vector<int64_t> axis[FFTMUX_MAX_RANK];
  int64_t distance = 0;
};

// Index i of an axis in shifted (bit d for axis d) sits at (i + n/2) mod n:
// reading through the map applies numpy's ifftshift, writing through it
// fftshift, odd n included. Axes are right-aligned: rank 1 uses axis 2.
Map strided_map(const int64_t* extent, const int64_t* stride, int64_t distance, unsigned shifted);

// Contiguous row-major map of the extents.
Map packed_map(const int64_t* extent);

// Calls f(a_offset, b_offset) for every logical element of every batch.
template <class F>
void walk(const int64_t* extent, int64_t batch, const Map& a, const Map& b, F&& f) {
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t i = 0; i < extent[0]; ++i)
      for (int64_t j = 0; j < extent[1]; ++j) {
        int64_t ao = n * a.distance + a.axis[0][i] + a.axis[1][j];
        int64_t bo = n * b.distance + b.axis[0][i] + b.axis[1][j];
        for (int64_t k = 0; k < extent[2]; ++k)
          f(ao + a.axis[2][k], bo + b.axis[2][k]);
      }
}

} // namespace fftmux::fftw
