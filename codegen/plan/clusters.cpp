// Lines across a CUDA thread-block cluster: groups that read each other's shared memory make a
// chain of columns and rows in one kernel.
#include "plan/planner.hpp"

namespace fftmux::codegen::planning {

// A cluster of 4 (F32) for the lines wide_line takes and long real half lines: columns of n / 4
// points and rows of 4 across the cluster's shared memory, in one kernel.
// (docs/codegen-rules.md: cluster_rows)
int64_t Planner::cluster_rows(const Line& l, const std::vector<Step>& post) const {
  if (dev.cluster < 4 || prec != Precision::f32)
    return 0;
  bool complex = l.load.access == Access::complex && l.store.access == Access::complex;
  auto reals = [&](const Side& s) {
    return s.access == Access::real_pair && stride(s, kElement) == 1;
  };
  bool r2c = post.size() == 1 && post[0].kind == Step::r2c_post && reals(l.load) &&
             l.store.access == Access::complex && preference(l.store) == major;
  bool c2r =
      post.empty() && l.load.access == Access::c2r && preference(l.load) == major && reals(l.store);
  return (complex && wide_line(l, !post.empty())) ||
                 ((r2c || c2r) && opt.real_rows && wide_length(l.n))
             ? 4
             : 0;
}

// Options::sector_columns: a cluster of 2 to Device::cluster groups taking a line's columns
// sector_threads() at a time, each group half a one-kernel line's values.
// (docs/codegen-rules.md: sector_clusters)
int64_t Planner::sector_clusters(const Line& l, const std::vector<Step>& post) const {
  int64_t values = single_limit() / 2, c = l.n / values;
  bool complex = l.load.access == Access::complex && l.store.access == Access::complex;
  bool fits =
      (l.n & (l.n - 1)) == 0 && c >= 2 && c <= dev.cluster && values % sector_threads() == 0;
  return opt.sector_columns && prec == Precision::f32 && post.empty() && complex && fits &&
                 preference(l.load) == major && preference(l.store) == major
             ? c
             : 0;
}

// Line l as c workgroups of a cluster, each of g adjacent columns of the
// c g: group d transforms the columns x[c g j + g d + e] (e < g, j < n /
// (c g)), twiddles column i by w^(k i) and leaves them in shared memory;
// then each group takes a c-th of the positions k of every column and
// writes the rows' outputs X[k + (n / (c g)) k2].
void Planner::clustered(const Line& l, int64_t c, int64_t g, double scale,
                        const std::vector<Step>& post) {
  int64_t m = l.n / (c * g);
  Kernel k;
  k.length = m;
  k.cluster = uint32_t(c);
  k.cluster_columns = uint32_t(g);
  k.digits = l.digits;
  k.digits.insert(k.digits.begin(), c * g);
  k.load = substitute(l.load, {{kElement, c * g}, {0, 1}}, 1);
  k.store = substitute(l.store, {{kElement, 1}}, 1);
  k.steps = stages(m, sign);
  k.steps.push_back(twiddles(l.n, c * g, k.steps, sign));
  k.steps.insert(k.steps.end(), post.begin(), post.end());
  k.scale = scale;
  Kernel made =
      shaped(std::move(k), l.load.buffer, l.store.buffer, g > 1 ? 2 * opt.values_per_thread : 0);
  if (made.teams != uint32_t(g))
    throw Unsupported("a cluster's group does not hold its columns");
  push(std::move(made));
}

} // namespace fftmux::codegen::planning
