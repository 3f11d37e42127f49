// Lines of smooth length: one kernel a line, or a four-step chain of kernels through scratch
// (take), each kernel shaped as it is added.
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// Reserves `elements` of scratch after those held, and returns their base.
int64_t Planner::take(int64_t elements) {
  int64_t base = reserved;
  reserved += elements;
  out.scratch_elements = std::max<uint64_t>(out.scratch_elements, uint64_t(reserved));
  return base;
}

// Appends kernel k as the next pass, from src to dst, shaped at `values` a thread (0: the default).
void Planner::add(Kernel k, Binding src, Binding dst, int64_t values) {
  push(shaped(std::move(k), src, dst, values));
}

// Kernel k as the next pass runs it, from src to dst: shaped at `values` a thread (0: the
// default), the partners of its post step chosen.
Kernel Planner::shaped(Kernel k, Binding src, Binding dst, int64_t values) {
  k.name = "fftmux_pass" + std::to_string(out.passes.size());
  k.load.buffer = src;
  k.store.buffer = dst;
  Kernel s = shape(std::move(k), values ? values : opt.values_per_thread);
  post_partners(s);
  return s;
}

// Appends a shaped kernel as the next pass, with the butterfly tail it asks for where that
// fits, once validate() accepts it.
void Planner::push(Kernel k) {
  k.butterfly_tail = k.butterfly_tail && tail_fits(k);
  validate(k);
  Binding src = k.load.buffer, dst = k.store.buffer;
  out.passes.push_back({std::move(k), src, dst});
}

// reuse >= 0: l.load is the packed scratch region at that base, which the
// first pass may overwrite in place (each workgroup reads and writes the
// same columns), so a chain of three passes needs one region, not two.
void Planner::line(const Line& l, double scale, std::vector<Step> post, int64_t reuse) {
  if (int64_t c = weighed(l) ? 0 : sector_clusters(l, post)) {
    clustered(l, c, sector_threads(), scale, post);
    return;
  }
  if (int64_t c = weighed(l) ? 0 : cluster_rows(l, post)) {
    clustered(l, c, 1, scale, post);
    return;
  }
  bool wide = wide_line(l, !post.empty());
  if (wide || one_kernel(l, !post.empty())) {
    Kernel k;
    k.length = l.n;
    k.digits = l.digits;
    k.load = l.load;
    k.store = l.store;
    k.steps = stages(l.n, sign, true, real_radix(l, !post.empty()));
    k.steps.insert(k.steps.end(), post.begin(), post.end());
    weigh_load(k, l.pre);
    weigh_store(k, l.post);
    if (!post.empty() && post.back().kind == Step::r2c_post) {
      if (post.back().table.offset < 0) // r2c_step(h, true) outside a chain's rows
        throw Unsupported("R2C's post step without its table");
      k.positions = l.n + 1;
      if (l.mirror)
        mirror_lines(k, l.mirror);
    }
    k.scale = scale;
    int64_t values = wide ? 2 * opt.values_per_thread : l.mirror ? mirror_values(l.n) : 0;
    add(std::move(k), l.load.buffer, l.store.buffer, values);
    return;
  }
  if (!post.empty() && post.back().kind != Step::r2c_post)
    throw Unsupported("post steps on a multi-pass line");
  int64_t n1 = column_length(l.n, reuse < 0, !post.empty()), n2 = l.n / n1;
  int64_t base = reuse >= 0 ? reuse : take(l.n * product(l.digits));
  int unit = unit_digit(l.load, l.digits);
  // Pass 1: columns of n = n2 * n1' + n2', twiddled, into packed rows.
  Kernel k;
  k.length = n1;
  k.digits = l.digits;
  k.digits.insert(k.digits.begin(), n2);
  k.load = substitute(l.load, {{kElement, n2}, {0, 1}}, 1);
  k.store = packed(base, l.n, l.digits, {{kElement, n2}, {0, 1}}, 1, unit);
  bool bound = bound_columns(n1);
  k.steps = stages(n1, sign, true, bound ? 16 : 32);
  k.steps.push_back(twiddles(l.n, n2, k.steps, sign));
  weigh_load(k, l.pre);
  if (k.load.access == Access::c2r && n2 % 2 == 0)
    mirror_lines(k, n2); // column j2's partners are column n2 - j2's elements
  k.resident_groups = bound ? 2 : 0;
  k.butterfly_tail = bound;
  add(std::move(k), l.load.buffer, Binding::scratch, column_values(n1));
  // The rows: k = k1 + n1 * k2, k1 a new fastest digit.
  Line rows;
  rows.n = n2;
  rows.digits = l.digits;
  rows.digits.insert(rows.digits.begin(), n1);
  rows.load = packed(base, n2, rows.digits, {{kElement, 1}}, 0, unit < 0 ? -1 : unit + 1);
  rows.store = substitute(l.store, {{0, 1}, {kElement, n1}}, 1);
  rows.post = l.post;
  if (!post.empty()) { // real_rows: the rows are one kernel, reading the roots split
    rows.mirror = n1;
    post.back().table = tables.half(2 * l.n, true);
  }
  line(rows, scale, post, base);
}

// Whether line l is one kernel: a strided line whose runs fill no 32-byte sector becomes a chain
// when it splits in two; post steps and real or Hermitian sides stay in one.
// (docs/codegen-rules.md: one_kernel)
bool Planner::one_kernel(const Line& l, bool post) const {
  if (l.n > single_limit())
    return false;
  bool complex = l.load.access == Access::complex && l.store.access == Access::complex;
  bool strided = preference(l.load) == minor || preference(l.store) == minor;
  return post || !complex || !strided || fills_sector(shared_scalars() / (l.n + 1)) ||
         !splits(l.n, 2);
}

// The largest radix of a real half line (R2C post or C2R pre step, real_rows' rows): 16 up to 1024
// points, where the step's partners and twiddles come on top of 32 values.
// (docs/codegen-rules.md: real_radix)
uint32_t Planner::real_radix(const Line& l, bool post) const {
  bool real = post || l.load.access == Access::c2r;
  return real && l.n <= 1024 ? 16 : 32;
}

// A contiguous power-of-two line beyond the threads' reach at 16 values, up to twice it, in one
// kernel of 32 values a thread (radix 32's budget) rather than two passes.
// (docs/codegen-rules.md: wide_line)
bool Planner::wide_line(const Line& l, bool post) const {
  return !post && wide_length(l.n) && preference(l.load) == major && preference(l.store) == major;
}

// Whether n is a power of two beyond single_limit() that 32 values a thread reach
// (single_limit(2)).
bool Planner::wide_length(int64_t n) const {
  return 2 * opt.values_per_thread == 32 && (n & (n - 1)) == 0 && n > single_limit() &&
         n <= single_limit(2);
}

// The digit of a strided side that is unit-stride there and fills a
// 32-byte sector, else -1.
int Planner::unit_digit(const Side& s, const std::vector<int64_t>& digits) const {
  if (stride(s, kElement) == 1 || s.access != Access::complex)
    return -1;
  for (size_t i = 0; i < digits.size(); ++i)
    if (fills_sector(digits[i]) && stride(s, int(i)) == 1)
      return int(i);
  return -1;
}

} // namespace fftmux::codegen::planning
