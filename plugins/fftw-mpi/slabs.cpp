#include "slabs.hpp"

#include <fftw3-mpi.h>

#include <fftmux/desc_geometry.hpp>

#include <algorithm>

namespace fftmux::fftw_mpi {
namespace {

// The stored length of axis i: the real side's last axis padded to whole complex rows.
int64_t row(const fftmux_desc& d, bool input, uint32_t i) {
  bool real = input ? d.kind == FFTMUX_R2C : d.kind == FFTMUX_C2R;
  return real && i + 1 == d.rank ? 2 * (d.n[i] / 2 + 1) : geometry::side_extent(d, input, i);
}

// The whole side but for [start, start + count) along the distributed axis
// (0, or 1 when transposed), which is stored outermost; C order otherwise.
fftmux_box side_box(const fftmux_desc& d, bool input, bool transposed, int64_t count,
                    int64_t start) {
  fftmux_box b{};
  uint32_t axis = transposed ? 1 : 0, order[FFTMUX_MAX_RANK] = {axis};
  for (uint32_t i = 0, k = 1; i < d.rank; ++i) {
    b.upper[i] = geometry::side_extent(d, input, i);
    if (i != axis)
      order[k++] = i;
  }
  b.lower[axis] = start;
  b.upper[axis] = start + count;
  int64_t step = d.batch;
  for (int k = int(d.rank) - 1; k >= 0; --k) {
    b.strides[order[k]] = step;
    step *= row(d, input, order[k]);
  }
  return b;
}

bool empty(const fftmux_box& b, uint32_t rank) {
  for (uint32_t i = 0; i < rank; ++i)
    if (b.lower[i] == b.upper[i])
      return true;
  return false;
}

} // namespace

Local slabs(const fftmux_desc& d, uint32_t decomposition, MPI_Comm comm) {
  ptrdiff_t n[FFTMUX_MAX_RANK] = {1, 1, 1}, n0 = 0, s0 = 0, n1 = 0, s1 = 0;
  bool complex_in = d.kind != FFTMUX_R2C; // the complex side's sizes decide the slabs
  for (uint32_t i = 0; i < d.rank; ++i)
    n[i] = ptrdiff_t(geometry::side_extent(d, complex_in, i));
  Local l;
  l.alloc = std::max<int64_t>(
      1, fftw_mpi_local_size_many_transposed(int(d.rank), n, d.batch, FFTW_MPI_DEFAULT_BLOCK,
                                             FFTW_MPI_DEFAULT_BLOCK, comm, &n0, &s0, &n1, &s1));
  bool t_in = decomposition == FFTMUX_SLABS_TRANSPOSED_IN;
  bool t_out = decomposition == FFTMUX_SLABS_TRANSPOSED_OUT;
  l.in = side_box(d, true, t_in, t_in ? n1 : n0, t_in ? s1 : s0);
  l.out = side_box(d, false, t_out, t_out ? n1 : n0, t_out ? s1 : s0);
  return l;
}

bool same_box(const fftmux_desc& d, bool input, const fftmux_box& given, const fftmux_box& engine) {
  if (empty(given, d.rank) || empty(engine, d.rank))
    return empty(given, d.rank) && empty(engine, d.rank);
  fftmux_box g = given;
  if (std::all_of(g.strides, g.strides + d.rank, [](int64_t s) { return s == 0; })) {
    fftmux_box c = side_box(d, input, false, g.upper[0] - g.lower[0], g.lower[0]);
    std::copy(c.strides, c.strides + FFTMUX_MAX_RANK, g.strides);
  }
  for (uint32_t i = 0; i < d.rank; ++i) {
    bool one = engine.upper[i] - engine.lower[i] == 1; // its stride places nothing
    if (g.lower[i] != engine.lower[i] || g.upper[i] != engine.upper[i] ||
        (!one && g.strides[i] != engine.strides[i]))
      return false;
  }
  return true;
}

std::string box_text(const fftmux_box& b, uint32_t rank) {
  std::string s, st;
  for (uint32_t i = 0; i < rank; ++i) {
    s += (i ? " x [" : "[") + std::to_string(b.lower[i]) + ", " + std::to_string(b.upper[i]) + ")";
    st += (i ? ", " : "") + std::to_string(b.strides[i]);
  }
  return s + " strides {" + st + "}";
}

} // namespace fftmux::fftw_mpi
