// Real-to-real transforms (DCT, DST): each axis a DFT of its logical size N' over the n reals
// zero-extended, between two pointwise weights (tables.cpp: r2r_weight) that the DFT's first and
// last kernels apply as they load and store: a line, a chain or Bluestein's convolution. Shorter
// lines where the kind allows (r2r_line picks): a DCT-IV or DST-IV of even n folds its reals into
// n / 2 complex values (folded_line); a DCT-II, DCT-III, DST-II or DST-III of even n is a real
// transform of its n reals in Makhoul's order (makhoul_line, n / 2 points), of odd n one of its
// 2n reals (n points: a DST-II's y[k] from Z[k + 1], a DST-III's x[m - 1] at m, Axis::start); a
// DCT-I, but for ORTHO, the R2C of its even extension (even_line, n - 1 points).
#include "plan/planner.hpp"

#include <algorithm>
#include <utility>

namespace fftmux::codegen::planning {

// Axis a of n points from src to dst: kind is the axis's transform in this direction.
void Planner::r2r_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst,
                       double scale) {
  if ((kind == FFTMUX_DCT4 || kind == FFTMUX_DST4) && n % 2 == 0)
    return folded_line(a, n, kind, src, dst, scale);
  bool second_third =
      kind == FFTMUX_DCT2 || kind == FFTMUX_DCT3 || kind == FFTMUX_DST2 || kind == FFTMUX_DST3;
  // Lines of one complex point (n = 2) keep the line of N'.
  if (second_third && n % 2 == 0 && n >= 4)
    return makhoul_line(a, n, kind, src, dst, scale);
  if (kind == FFTMUX_DCT1 && d.norm != FFTMUX_NORM_ORTHO && n >= 3)
    return even_line(a, n, src, dst, scale);
  int64_t m = geometry::logical_size(kind, n);
  bool ortho = d.norm == FFTMUX_NORM_ORTHO;
  Line l;
  l.n = m;
  l.digits = line_digits(src.s, a);
  l.load = user_side(src.s, src.b, a, n, false);
  l.store = user_side(dst.s, dst.b, a, n, false);
  l.load.axes[0].limit = n;  // zero beyond the reals
  l.store.axes[0].limit = n; // y[k], k < n
  // DCT-III, DST-III: no weights after, the C2R of its reals weighed, cut at n of 2n.
  if (kind == FFTMUX_DCT3 || kind == FFTMUX_DST3) {
    Side cs = l.load, rs = user_side(dst.s, dst.b, a, m, false);
    bool dst3 = kind == FFTMUX_DST3;
    cs.axes[0].start = dst3 ? 1 : 0; // DST-III: x[m - 1] at m, zero at 0
    cs.held = dst3 ? n + 1 : n;      // DCT-III: x[n] = 0
    cs.weights = Table{dst3 ? tables.dst3_half(n, ortho) : tables.r2r_half(kind, n, ortho, n + 1)};
    rs.held = n;
    return r2r_c2r(l, cs, rs, n, scale);
  }
  // An entry for every position the DFT's kernels index: N', or Bluestein's padded length.
  int64_t count = smooth(m) ? m : bluestein_shape(m).first;
  if (kind == FFTMUX_DCT2 || kind == FFTMUX_DST2) { // the R2C of its reals zero-extended to 2n
    Side rs = user_side(src.s, src.b, a, m, false);
    rs.held = n;
    bool dst2 = kind == FFTMUX_DST2;
    l.post =
        Table{dst2 ? tables.dst2_post(n, ortho, count) : tables.r2r(kind, n, false, ortho, count)};
    l.store.axes[0].start = dst2 ? 1 : 0; // DST-II: y[k] from Z[k + 1]
    l.store.axes[0].limit = dst2 ? n + 1 : n;
    return r2c_halves(l, rs, l.store, n, scale);
  }
  l.post = Table{tables.r2r(kind, n, false, ortho, count)};
  l.pre = Table{tables.r2r(kind, n, true, ortho, count)};
  any_line(l, scale);
}

// A DCT-IV (DST-IV) of even n: z[m] = (x[2m] + i x[n-1-2m]) exp(-pi i (4m + 1) / (4n)) (the
// reals swapped for DST-IV), Z its DFT of n / 2 points, u = 2 Z[p] exp(-pi i p / n); then y[2p] =
// Re u and y[n-1-2p] = -Im u (DST-IV: +Im u). Half the points of a real line, a quarter of the
// N' = 2n complex line the other kinds take.
void Planner::folded_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst,
                          double scale) {
  Line l;
  l.n = n / 2;
  l.digits = line_digits(src.s, a);
  l.load = user_side(src.s, src.b, a, n, false);
  l.store = user_side(dst.s, dst.b, a, n, false);
  for (Side* s : {&l.load, &l.store}) {
    s->access = kind == FFTMUX_DCT4 ? Access::fold_cos : Access::fold_sin;
    s->length = n;
  }
  int64_t count = smooth(l.n) ? l.n : bluestein_shape(l.n).first;
  l.pre = Table{tables.r2r_fold(n, true, count)};
  l.post = Table{tables.r2r_fold(n, false, count)};
  any_line(l, scale);
}

// A DCT-II of even n (Makhoul): v = (x[0], x[2], .., x[n-2], x[n-1], .., x[3], x[1])
// (Axis::zigzag), V the R2C of its n reals, u = 2 exp(-pi i k / (2n)) V[k]; then y[k] = Re u and
// y[n-k] = -Im u (Access::fold_ends), k <= n / 2. Its inverse, a DCT-III: the C2R of the half
// spectrum (x[k] - i x[n-k]) exp(pi i k / (2n)) (Side::ends), its n reals in that order. A
// DST-II is the DCT-II of (-1)^j x[j] (Side::negate_odds) stored backwards (Axis::reverse), a
// DST-III the DCT-III of its reals backwards with its odd outputs negated. A complex line of
// n / 2 points, half the R2C's or C2R's of the 2n reals.
void Planner::makhoul_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst,
                           double scale) {
  int64_t h = n / 2;
  bool ortho = d.norm == FFTMUX_NORM_ORTHO, sine = kind == FFTMUX_DST2 || kind == FFTMUX_DST3;
  Line l;
  l.digits = line_digits(src.s, a);
  Side in = user_side(src.s, src.b, a, n, false), out = user_side(dst.s, dst.b, a, n, false);
  if (kind == FFTMUX_DCT3 || kind == FFTMUX_DST3) {
    in.ends = true;
    in.weights = Table{tables.r2r_half(FFTMUX_DCT3, n, ortho, h + 1)};
    in.axes[0].reverse = sine ? n : 0;
    out.axes[0].zigzag = n;
    out.negate_odds = sine;
    return r2r_c2r(l, in, out, h, scale);
  }
  in.axes[0].zigzag = n;
  in.negate_odds = sine;
  out.access = Access::fold_ends;
  out.length = n;
  out.axes[0].limit = h + 1;
  out.axes[0].reverse = sine ? n : 0;
  int64_t count = std::max(h + 1, smooth(h) ? h : bluestein_shape(h).first);
  l.post = Table{tables.r2r(FFTMUX_DCT2, n, false, ortho, count)};
  r2c_halves(l, in, out, h, scale);
}

// A DCT-I: the R2C of its even extension x[0..n-1], x[n-2..1] (Axis::reflect), 2(n - 1) reals,
// y[k] = Re Z[k], k < n: a complex line of n - 1 points. ORTHO weighs x[0] and x[n - 1] before,
// which an R2C's loads cannot: it keeps the weighed line of N'.
void Planner::even_line(int a, int64_t n, const Where& src, const Where& dst, double scale) {
  Line l;
  l.digits = line_digits(src.s, a);
  Side rs = user_side(src.s, src.b, a, 2 * (n - 1), false);
  rs.axes[0].reflect = n;
  Side cs = user_side(dst.s, dst.b, a, n, false);
  cs.axes[0].limit = n;
  r2c_halves(l, rs, cs, n - 1, scale);
}

// c2r_halves in an R2R plan, which runs its DFTs forward in both directions: a C2R's DFT takes the
// conjugate weights'.
void Planner::r2r_c2r(const Line& l, const Side& cs, const Side& rs, int64_t h, double scale) {
  int forward = std::exchange(sign, FFTMUX_INVERSE);
  c2r_halves(l, cs, rs, h, scale);
  sign = forward;
}

bool Planner::weighed(const Line& l) {
  return l.pre.offset >= 0 || l.post.offset >= 0;
}

// Line::pre on the values k loads, before its first step: the index is the load's logical
// position along the line (a chain's column kernel reads n2 p + d0 of it).
void Planner::weigh_load(Kernel& k, const Table& pre) {
  if (pre.offset < 0)
    return;
  Index i;
  i.terms = k.load.axes[0].terms;
  k.steps.insert(k.steps.begin(), multiply(pre, i));
}

// Line::post on the values k stores, after its last step: R2C's post step must end the steps, so
// after it the store weighs them (Kernel::store_weights).
void Planner::weigh_store(Kernel& k, const Table& post) {
  if (post.offset < 0)
    return;
  if (!k.steps.empty() && k.steps.back().kind == Step::r2c_post) {
    k.store_weights = post;
    return;
  }
  Index i;
  i.terms = k.store.axes[0].terms;
  k.steps.push_back(multiply(post, i));
}

} // namespace fftmux::codegen::planning
