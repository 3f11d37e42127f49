// Real-to-real transforms (DCT, DST): each axis a DFT of its logical size N' over the n reals
// zero-extended, between two pointwise weights (tables.cpp: r2r_weight). One kernel reads the
// reals and writes them back where the DFT fits one; else a weighing pass, the DFT and a
// weighing pass through scratch.
#include "plan/planner.hpp"

#include <algorithm>
#include <functional>

namespace fftmux::codegen::planning {

// Axis a of n points from src to dst: kind is the axis's transform in this direction.
void Planner::r2r_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst,
                       double scale) {
  int64_t m = geometry::logical_size(kind, n);
  bool ortho = d.norm == FFTMUX_NORM_ORTHO;
  Line l;
  l.n = m;
  l.digits = line_digits(src.s, a);
  l.load = user_side(src.s, src.b, a, n, false);
  l.store = user_side(dst.s, dst.b, a, n, false);
  l.load.axes[0].limit = n;  // zero beyond the reals
  l.store.axes[0].limit = n; // y[k], k < n
  if (smooth(m) && m <= single_limit()) {
    Table pre{tables.r2r(kind, n, true, ortho, n)}, post{tables.r2r(kind, n, false, ortho, n)};
    Kernel k;
    k.length = m;
    k.digits = l.digits;
    k.load = l.load;
    k.store = l.store;
    k.steps.push_back(multiply(pre, position_index(), n));
    append(k.steps, stages(m, -1));
    k.steps.push_back(multiply(post, position_index(), n));
    k.scale = scale;
    add(std::move(k), src.b, dst.b);
    return;
  }
  int64_t lines = product(l.digits);
  Side weighed = packed(take(m * lines), m, l.digits, {{kElement, 1}});
  Side spectrum = packed(take(m * lines), m, l.digits, {{kElement, 1}});
  pointwise(
      l.load, weighed, l.digits, m, [&](int64_t c) { return tables.r2r(kind, n, true, ortho, c); },
      1.0);
  Line dft = l;
  dft.load = weighed;
  dft.store = spectrum;
  any_line(dft, 1.0);
  pointwise(
      spectrum, l.store, l.digits, n,
      [&](int64_t c) { return tables.r2r(kind, n, false, ortho, c); }, scale);
}

// A pass over the first `count` positions of lines from one side to another, each times its
// entry of the table weights(c) makes of c entries, in runs of up to 1024 positions a line.
void Planner::pointwise(const Side& from, const Side& to, const std::vector<int64_t>& digits,
                        int64_t count, const std::function<int64_t(int64_t)>& weights,
                        double scale) {
  int64_t chunk = std::min<int64_t>(count, 1024), runs = (count + chunk - 1) / chunk;
  std::vector<Term> at = {{kElement, 1}, {0, chunk}};
  Kernel k;
  k.length = chunk;
  k.positions = chunk;
  k.digits = digits;
  k.digits.insert(k.digits.begin(), runs);
  k.load = substitute(from, at, 1);
  k.store = substitute(to, at, 1);
  k.store.axes[0].limit = std::min(k.store.axes[0].limit, count);
  Index i;
  i.terms = at;
  k.steps.push_back(multiply(Table{weights(runs * chunk)}, i));
  k.scale = scale;
  add(std::move(k), from.buffer, to.buffer);
}

} // namespace fftmux::codegen::planning
