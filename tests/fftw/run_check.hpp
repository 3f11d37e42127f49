// One execution of a plan on random input, against the reference: the
// relative error of its output and, out of place, whether its input
// survived. The FFTW backend's suites share it.
#pragma once

#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <algorithm>
#include <vector>

namespace fftmux::test {

struct Checked {
  double error;
  bool input_kept; // always true in place
};

inline Checked run_checked(plan& p, const fftmux_desc& d, int direction, ref::Method method,
                           uint64_t seed) {
  fftmux_layout l = layout(d);
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  std::vector<unsigned char> in = ref::random_input(d, seed);
  in.resize(std::max(l.in_bytes, l.out_bytes));
  const std::vector<unsigned char> original = in;
  std::vector<unsigned char> out(in_place ? 0 : l.out_bytes);
  p.execute(direction, in.data(), in_place ? in.data() : out.data());
  double error = ref::relative_error(ref::read_side(d, false, in_place ? in.data() : out.data()),
                                     ref::expected(d, direction, original.data(), method));
  return {error, in_place || in == original};
}

} // namespace fftmux::test
