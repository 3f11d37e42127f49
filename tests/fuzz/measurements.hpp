// Equality of tuning cache entries for the round-trip properties of the
// tuning and index harnesses.
#pragma once

#include <tuning.hpp>

#include <cmath>
#include <vector>

namespace fuzz {

// Numbers are written as the shortest text that reads back exactly; a NaN
// is a NaN, whatever its payload.
inline bool same(double a, double b) {
  return std::isnan(a) ? std::isnan(b) : a == b;
}

inline bool same(const fftmux::Measurement& a, const fftmux::Measurement& b) {
  const double x[] = {a.median, a.spread, a.runner_up_median, a.gbps,
                      a.plan,   a.upload, a.execute,          a.download};
  const double y[] = {b.median, b.spread, b.runner_up_median, b.gbps,
                      b.plan,   b.upload, b.execute,          b.download};
  for (size_t i = 0; i < sizeof x / sizeof *x; ++i)
    if (!same(x[i], y[i]))
      return false;
  if (a.times.size() != b.times.size())
    return false;
  for (auto i = a.times.begin(), j = b.times.begin(); i != a.times.end(); ++i, ++j)
    if (i->first != j->first || !same(i->second, j->second))
      return false;
  return a.problem == b.problem && a.family == b.family && a.points == b.points &&
         a.batch == b.batch && a.backend == b.backend && a.hardware == b.hardware &&
         a.variant == b.variant && a.runner_up == b.runner_up && a.timestamp == b.timestamp &&
         a.failed == b.failed && a.reason == b.reason && a.log_points == b.log_points;
}

inline bool same(const std::vector<fftmux::Measurement>& a,
                 const std::vector<fftmux::Measurement>& b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i]))
      return false;
  return true;
}

} // namespace fuzz
