// Four-step chains: the column length of a chain and the rules that pick it, and the values a
// thread of its column pass.
#include "plan/planner.hpp"

#include <algorithm>
#include <cmath>

namespace fftmux::codegen::planning {

// The first factor of a four-step chain: about n^(1/levels), a divisor; three levels where two
// would make a lone_column, and short_first, rows_of_1024 and longer_root where they apply.
// (docs/codegen-rules.md: column_length)
int64_t Planner::column_length(int64_t n, bool top, bool post) {
  int64_t lim = chain_limit();
  if (int64_t c = longer_root(n);
      c && top && post && c <= lim && (opt.long_real_columns || long_f64_columns()))
    return c;
  int levels = 1;
  for (double reach = double(lim); reach < double(n); reach *= double(lim))
    ++levels;
  bool declined = false;
  for (; levels <= 3; ++levels) { // the fewest passes whose factors all fit
    if (levels == 3 && short_first(n))
      return 32;
    double target = std::pow(double(n), 1.0 / levels);
    auto off = [&](int64_t c) { return std::abs(std::log(double(c) / target)); };
    auto better = [&](int64_t c, int64_t than) {
      bool tie = std::abs(off(c) - off(than)) < 1e-9;
      if (declined && ends_small(c) != ends_small(than))
        return ends_small(c);
      if (declined && tie)
        return c < than;
      return tie && ends_small(c) != ends_small(than) ? ends_small(c) : off(c) < off(than);
    };
    int64_t best = 0;
    for (int64_t c = 2; c <= lim; ++c)
      if (n % c == 0 && splits(n / c, levels - 1) && (!best || better(c, best)))
        best = c;
    if (best && top && levels == 2 && lone_column(best)) {
      declined = true;
      continue;
    }
    if (best && top && levels == 2 && rows_of_1024(n))
      return post && n <= 256 * 1024 ? n / 256 : n / 1024;
    if (best)
      return best;
  }
  throw Unsupported("length " + std::to_string(n) + " needs more than 3 passes on this device");
}

// For n an odd power of two, the longer of its two factors nearest
// sqrt(n) (2^23: 4096); else 0.
int64_t Planner::longer_root(int64_t n) {
  int64_t c = 1;
  while (c * c < n)
    c *= 2;
  return (n & (n - 1)) == 0 && c * c == 2 * n ? c : 0;
}

// Whether an F64 R2C chain over an odd power of two takes the longer root as its columns (the
// profile's rule, measured under CUDA). (docs/codegen-rules.md: long_f64_columns)
bool Planner::long_f64_columns() const {
  return prec == Precision::f64 && prof.long_f64_columns;
}

// Whether a column pass of c points would read runs under 64 bytes in groups of 64 KiB of values or
// more (one or two an SM): then three passes beat two. (docs/codegen-rules.md: lone_column)
bool Planner::lone_column(int64_t c) const {
  if (prec != Precision::f32)
    return false;
  int64_t lines = value_lines(c);
  return lines * c * 2 * scalar() >= (1 << 16) && lines * 2 * scalar() < 64;
}

// Where 1024 points take two stages and 512 take three (CUDA's radices), an F32 chain of two passes
// over the profile's 2^17 to 2^21 points takes rows of 1024. (docs/codegen-rules.md: rows_of_1024)
bool Planner::rows_of_1024(int64_t n) const {
  int64_t lim = chain_limit(); // both passes must still fit (variants shrink it)
  return prec == Precision::f32 && (n & (n - 1)) == 0 && n >= prof.rows_of_1024_from &&
         n <= prof.rows_of_1024_to && lim >= 1024 && n / 1024 <= lim && radices(1024).size() == 2 &&
         radices(512).size() == 3;
}

// Under a shared-memory cap (GL), an F32 chain of three passes whose other two fit 512 points each
// starts with a 32-point column. (docs/codegen-rules.md: short_first)
bool Planner::short_first(int64_t n) const {
  return dev.sm_shared_bytes && prec == Precision::f32 && n % 32 == 0 && splits(n / 32, 2, 512);
}

// Whether a column of n points ends in a butterfly of at most 8 outputs (Step::rows), which
// column_length prefers between two lengths equally near its target.
// (docs/codegen-rules.md: ends_small)
bool Planner::ends_small(int64_t n) const {
  return radices(n).back() <= max_row_radix;
}

// Whether n factors into at most `levels` lengths of at most lim points
// (by default those a chain kernel takes).
bool Planner::splits(int64_t n, int levels, int64_t lim) const {
  lim = lim ? lim : chain_limit();
  if (n <= lim)
    return true;
  if (levels <= 1)
    return false;
  for (int64_t c = 2; c <= lim; ++c)
    if (n % c == 0 && splits(n / c, levels - 1, lim))
      return true;
  return false;
}

// Lines of n points whose values (both components) fit what a group may
// hold (Device::group_value_bytes); at least 1.
int64_t Planner::value_lines(int64_t n) const {
  return std::max<int64_t>(1, dev.group_value_bytes / (n * 2 * scalar()));
}

// Values a thread in a four-step column pass: twice the default for F32 columns of the profile's
// wide_columns lengths (65-128 points),
// so a group reads 128-byte runs (not under a shared-memory cap).
// (docs/codegen-rules.md: column_values)
int64_t Planner::column_values(int64_t n1) const {
  bool wide = n1 >= prof.wide_columns_from && n1 <= prof.wide_columns_to &&
              prec == Precision::f32 && !dev.sm_shared_bytes;
  return wide ? 2 * opt.values_per_thread : opt.values_per_thread;
}

// Strided F32 columns of 1024 points, where the compiler takes launch bounds, run as cuFFT's: 64
// threads of 16 values a line, 8 lines a group, two groups an SM.
// (docs/codegen-rules.md: bound_columns)
bool Planner::bound_columns(int64_t n1) const {
  return prof.launch_bounds && n1 == 1024 && prec == Precision::f32 && opt.max_radix >= 16 &&
         opt.values_per_thread <= 16 && opt.coalesce_teams <= 8;
}

} // namespace fftmux::codegen::planning
