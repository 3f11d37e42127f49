// Per-pass GPU times of a multi-pass plan from timestamps: one before each
// run and one after each of its passes, the runs one after another.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace fftmux::bench {

// The median time of each pass over `runs` runs, in the stamps' unit.
inline std::vector<double> pass_medians(const std::vector<double>& stamps, size_t runs) {
  size_t each = stamps.size() / runs;
  std::vector<double> out;
  for (size_t k = 0; k + 1 < each; ++k) {
    std::vector<double> t;
    for (size_t i = 0; i < runs; ++i)
      t.push_back(stamps[i * each + k + 1] - stamps[i * each + k]);
    std::sort(t.begin(), t.end());
    size_t n = t.size();
    out.push_back(n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2);
  }
  return out;
}

} // namespace fftmux::bench
