#include "plan.hpp"

namespace fftmux::fftw {

std::mutex planner;
std::map<std::string, int> estimate_threads;

Dims guru_dims(const fftmux_desc& d, const Shape& in, const Shape& out) {
  Dims g{};
  g.rank = int(d.rank);
  int offset = FFTMUX_MAX_RANK - g.rank;
  for (int i = 0; i < g.rank; ++i)
    g.dims[i] = {d.n[i], in.stride[offset + i], out.stride[offset + i]};
  g.batch = {d.batch, in.distance, out.distance};
  return g;
}

bool is_packed(const Shape& s) {
  Shape p = packed(s);
  for (int i = 0; i < FFTMUX_MAX_RANK; ++i)
    if (s.extent[i] > 1 && s.stride[i] != p.stride[i]) // an axis of one element has any stride
      return false;
  return s.distance == p.distance;
}

} // namespace fftmux::fftw
