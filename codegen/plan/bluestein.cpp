// Bluestein's algorithm for lengths with a prime factor above 13: the line times a chirp, convolved
// with the conjugate chirp, times the chirp.
#include "plan/planner.hpp"

#include <algorithm>
#include <cmath>

namespace fftmux::codegen::planning {

// Bluestein's padded length for n, and when it needs passes over columns
// and rows, its column length (0 for one kernel): the shortest 7-smooth
// m from bluestein_length on that splits into a column chain kernel and a
// row kernel.
std::pair<int64_t, int64_t> Planner::bluestein_shape(int64_t n) const {
  int64_t m = bluestein_length(n);
  // An F64 convolution is fused in one kernel up to the default's values a thread, whatever the
  // variant's. (docs/codegen-rules.md: bluestein: F64 convolutions of more values)
  int64_t fused = single_limit(2);
  if (prec == Precision::f64)
    fused = std::min(fused, int64_t(dev.max_threads) * 2 * default_values());
  if (m <= fused)
    return {m, 0};
  for (int64_t c = m; c <= 2 * m; ++c) {
    int64_t x = c;
    for (int p : {2, 3, 5, 7})
      while (x % p == 0)
        x /= p;
    if (x != 1)
      continue;
    int64_t m1 = 0;
    for (int64_t d = 2; d <= chain_limit(); ++d)
      if (c % d == 0 && c / d <= single_limit(2) &&
          (!m1 || std::abs(std::log(double(d) / 64)) < std::abs(std::log(double(m1) / 64))))
        m1 = d;
    if (m1)
      return {c, m1};
  }
  throw Unsupported("Bluestein for n = " + std::to_string(n) +
                    " needs more than 3 passes on this device");
}

// Line l of a length with a prime factor above 13 by Bluestein's convolution: one fused kernel, two
// passes (split_convolution) or three over columns and rows.
void Planner::bluestein(const Line& l, double scale, bool r2c_post) {
  int64_t n = l.n, padded = bluestein_length(n);
  Table ct{tables.chirp(n, sign), 0, -1, false};
  if (opt.split_convolution && padded <= single_limit())
    return split_convolution(l, padded, ct, scale, r2c_post);
  auto [m, m1] = bluestein_shape(n);
  Table kt{tables.bluestein(n, m, sign, scale), 0, -1, false};
  if (!m1) { // one kernel: forward, pointwise, inverse in registers
    Kernel k = chirped_load(l, m, ct);
    k.convolution = true;
    k.store = l.store;
    // A line that needs more than the target values on every thread a group may have runs at 64
    // registers, where radices above 8 spill; others take radix 32 as plain lines do.
    // (docs/codegen-rules.md: bluestein: radices of a fused convolution)
    uint32_t r = m > int64_t(dev.max_threads) * opt.values_per_thread ? 8 : 32;
    append(k.steps, stages(m, -1, false, r));
    k.steps.push_back(multiply(kt, position_index()));
    append(k.steps, stages(m, +1, false, r));
    chirped_store(k, n, ct, r2c_post);
    weigh_load(k, l.pre);
    weigh_store(k, l.post);
    add(std::move(k), l.load.buffer, l.store.buffer);
    return;
  }
  if (r2c_post)
    throw Unsupported("r2c post on a multi-pass Bluestein line");
  // Three passes over m = m1 * m2: columns forward; rows forward, times
  // the kernel's spectrum, inverse; columns inverse.
  int64_t m2 = m / m1;
  int64_t base = take(m * product(l.digits));
  std::vector<int64_t> cols = l.digits, rows = l.digits;
  cols.insert(cols.begin(), m2);
  rows.insert(rows.begin(), m1);
  Index composite; // the line index of a column element
  composite.terms = {{kElement, m2}, {0, 1}};

  Kernel c1;
  c1.length = m1;
  c1.digits = cols;
  c1.load = substitute(l.load, {{kElement, m2}, {0, 1}}, 1);
  c1.load.axes[0].limit = std::min(c1.load.axes[0].limit, n);
  c1.store = packed(base, m, l.digits, {{kElement, m2}, {0, 1}}, 1);
  c1.steps.push_back(multiply(ct, composite, n));
  std::vector<Step> forward = stages(m1, -1);
  append(c1.steps, forward);
  c1.steps.push_back(twiddles(m, m2, forward, -1));
  weigh_load(c1, l.pre);
  add(std::move(c1), l.load.buffer, Binding::scratch);

  Kernel r;
  r.length = m2;
  r.digits = rows;
  r.load = packed(base, m2, rows, {{kElement, 1}});
  r.store = r.load;
  r.steps = stages(m2, -1);
  Index spectrum; // k = k1 + m1 * k2
  spectrum.terms = {{kElement, m1}, {0, 1}};
  r.steps.push_back(multiply(kt, spectrum));
  std::vector<Step> inverse = stages(m2, +1);
  append(r.steps, inverse);
  r.steps.push_back(twiddles(m, m1, inverse, +1));
  add(std::move(r), Binding::scratch, Binding::scratch);

  Kernel c3;
  c3.length = m1;
  c3.digits = cols;
  c3.load = packed(base, m, l.digits, {{kElement, m2}, {0, 1}}, 1);
  c3.store = substitute(l.store, {{kElement, m2}, {0, 1}}, 1);
  c3.store.axes[0].limit = std::min(c3.store.axes[0].limit, n);
  append(c3.steps, stages(m1, +1));
  c3.steps.push_back(multiply(ct, composite, n));
  weigh_store(c3, l.post);
  add(std::move(c3), Binding::scratch, l.store.buffer);
}

// Options::split_convolution: the chirped line's transform times the kernel's spectrum into
// scratch, then its inverse times the chirp: two passes where the fused kernel does not fit.
// (docs/codegen-rules.md: split_convolution)
void Planner::split_convolution(const Line& l, int64_t m, const Table& ct, double scale,
                                bool r2c_post) {
  Table kt{tables.bluestein(l.n, m, sign, scale), 0, -1, false};
  Kernel f = chirped_load(l, m, ct);
  f.store = packed(take(m * product(l.digits)), m, l.digits, {{kElement, 1}});
  append(f.steps, stages(m, -1));
  f.steps.push_back(multiply(kt, position_index()));
  Kernel i;
  i.length = m;
  i.digits = l.digits;
  i.load = f.store;
  i.store = l.store;
  i.steps = stages(m, +1);
  chirped_store(i, l.n, ct, r2c_post);
  weigh_load(f, l.pre);
  weigh_store(i, l.post);
  add(std::move(f), l.load.buffer, Binding::scratch);
  add(std::move(i), Binding::scratch, l.store.buffer);
}

// A convolution kernel of m points over line l, starting with the input
// times the chirp.
Kernel Planner::chirped_load(const Line& l, int64_t m, const Table& ct) const {
  Kernel k;
  k.length = m;
  k.digits = l.digits;
  k.load = l.load;
  k.load.axes[0].limit = std::min(k.load.axes[0].limit, l.n);
  k.steps.push_back(multiply(ct, position_index(), l.n));
  return k;
}

// Its end: times the chirp, then R2C's post step (n + 1 outputs) or a
// store of n.
void Planner::chirped_store(Kernel& k, int64_t n, const Table& ct, bool r2c_post) {
  k.steps.push_back(multiply(ct, position_index(), n));
  if (r2c_post) {
    k.steps.push_back(r2c_step(n));
    k.positions = n + 1;
  } else {
    k.store.axes[0].limit = std::min(k.store.axes[0].limit, n);
  }
}

} // namespace fftmux::codegen::planning
