// The steps of a kernel: radices, Stockham stages, and multiplications by a table (four-step
// twiddles, chirps, a spectrum).
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// Radix 32 (two radix-16 butterflies and a radix-2 step) where a thread may hold 32 values and the
// line is long enough (512 points on 48 KiB devices, else 1024) that the saved exchange pays.
// (docs/codegen-rules.md: radix_cap)
uint32_t Planner::radix_cap(int64_t n, uint32_t max_radix) const {
  uint32_t cap = std::min({opt.max_radix, max_radix, dev.max_radix});
  int64_t from = dev.shared_bytes <= 49152 ? 512 : 1024;
  if (cap >= 32 && (n < from || 2 * opt.values_per_thread < 32))
    cap = 16;
  return spread(n) ? uint32_t(std::min<int64_t>(cap, n / sector_threads())) : cap;
}

// The radices of an n-point line, first stage first, under radix_cap and the largest composite
// radix the device allows (none where !composites).
std::vector<int> Planner::radices(int64_t n, bool composites, uint32_t max_radix) const {
  uint32_t mc = composites ? dev.max_composite : 0;
  uint32_t cap = radix_cap(n, max_radix);
  // A line too short for composites above 16 (OpenGL) that has an odd factor takes radix 16 at
  // most. (docs/codegen-rules.md: radices)
  if (n < dev.large_composites_from) {
    mc = std::min(mc, 16u);
    if (n & (n - 1))
      cap = std::min(cap, 16u);
  }
  return factorize(n, cap, mc);
}

// The Stockham stages of an n-point line in direction s, each with its twiddles.
std::vector<Step> Planner::stages(int64_t n, int s, bool composites, uint32_t max_radix) {
  std::vector<Step> st;
  int64_t span = 1;
  for (int r : radices(n, composites, max_radix)) {
    Step k;
    k.kind = Step::stage;
    k.radix = r;
    k.span = span;
    k.sign = s;
    k.twiddles = span > 1 ? tables.stage_twiddles(span, r) : -1;
    st.push_back(k);
    span *= r;
  }
  return st;
}

// A step multiplying by table t at index i, for positions below limit.
Step Planner::multiply(Table t, Index i, int64_t limit) {
  Step s;
  s.kind = Step::multiply;
  s.table = t;
  s.index = std::move(i);
  s.limit = limit;
  return s;
}

// The four-step twiddles w_n^(p d) after stages st (d the line's digit 0, extent values): one
// lookup each, or a row per butterfly output (Step::rows) where that is faster.
// (docs/codegen-rules.md: twiddles)
Step Planner::twiddles(int64_t n, int64_t extent, const std::vector<Step>& st, int s) {
  Step m = multiply(tables.twiddle(n, s), product_index());
  const Step& last = st.back();
  bool pays = last.radix <= max_row_radix || n > (1 << 20);
  if (pays && extent * last.radix <= (1 << 17)) { // 1 MiB of F32 rows
    m.rows = tables.grid(n / last.span, extent, last.radix);
    m.row_step = last.span;
    m.row_count = last.radix;
  }
  return m;
}

// the position alone: chirps, a spectrum
Index Planner::position_index() {
  Index i;
  i.terms = {{kElement, 1}};
  return i;
}

// position * digit 0: four-step twiddles
Index Planner::product_index() {
  Index i = position_index();
  i.product = 0;
  return i;
}

// Appends the steps `from` to `to`.
void Planner::append(std::vector<Step>& to, const std::vector<Step>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

} // namespace fftmux::codegen::planning
