// Real transforms (R2C, C2R) along the last axis: a half-length complex line with the two-for-one
// pre or post step, fused, in a chain, or a pass of its own.
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// R2C or C2R along the last axis: a half-length complex line with the
// two-for-one trick for even n; a full complex line with real input or a
// Hermitian completion for odd n.
void Planner::real_line(int a, int64_t n, const Where& src, const Where& dst, double scale,
                        bool shift_in, bool shift_out) {
  bool r2c = d.kind == FFTMUX_R2C;
  const Where& real = r2c ? src : dst;
  const Where& cplx = r2c ? dst : src;
  int64_t h = n / 2;
  Side rs = user_side(real.s, real.b, a, n, r2c ? shift_in : shift_out);
  Side cs = user_side(cplx.s, cplx.b, a, h + 1, false);
  rs.held = r2c ? held_load : held_store;
  cs.held = r2c ? held_store : held_load;
  Line l;
  l.digits = line_digits(cplx.s, a);
  if (n % 2) { // odd: full length, real in or real out
    l.n = n;
    l.load = r2c ? rs : cs;
    l.store = r2c ? cs : rs;
    if (r2c)
      l.store.axes[0].limit = h + 1;
    else {
      l.load.access = Access::hermitian;
      l.load.length = n;
    }
    any_line(l, scale);
    return;
  }
  if (r2c)
    return r2c_halves(l, rs, cs, h, scale);
  c2r_halves(l, cs, rs, h, scale);
}

// C2R of the half spectrum cs (h + 1 values) into an even line of 2h reals (rs, written as
// pairs): a half-length complex line with the pre step fused, in a chain's columns, or in a pass
// of its own. cs may hold reals read with weights (a DCT-III, Side::weights).
void Planner::c2r_halves(Line l, Side cs, Side rs, int64_t h, double scale) {
  rs.access = Access::real_pair;
  cs.access = Access::c2r;
  cs.length = h;
  cs.table = tables.half(2 * h);
  cs.table.conj = true;
  l.n = h;
  int64_t fits = smooth(h) ? h : bluestein_length(h);
  Line half = l; // as a cluster would take it
  half.load = cs;
  half.store = rs;
  bool fused = fits <= single_limit(smooth(h) ? 1 : 2) || (smooth(h) && cluster_rows(half, {}));
  l.store = rs;
  if (fused || real_columns(h)) { // or a chain with the pre step in its columns
    l.load = cs;
    return any_line(l, scale);
  }
  // Long lines: a pointwise pass of the pre-processing into a packed copy of the half spectrum,
  // then the half-length transform.
  Side z = packed(take(h * product(l.digits)), h, l.digits, {{kElement, 1}});
  mirror_pass(cs, z, l.digits, h, 1.0, Access::c2r);
  l.load = z;
  any_line(l, scale);
}

// R2C of an even line of 2h reals (rs, read as pairs) into cs: a half-length complex line with
// the post step fused, in a chain's rows, or in a pass of its own. l.post: R2R's weights on the
// outputs (a DCT-II as the R2C of its 2n reals zero-extended), cs then real, cut at h.
void Planner::r2c_halves(Line l, Side rs, const Side& cs, int64_t h, double scale) {
  rs.access = Access::real_pair;
  l.n = h;
  int64_t fits = smooth(h) ? h : bluestein_length(h);
  Line half = l; // as a cluster would take it
  half.load = rs;
  half.store = cs;
  Step post;
  post.kind = Step::r2c_post;
  // The fused r2c post-processing reads whole complex values from shared
  // memory: the line must fit it in both components (or a cluster's).
  bool fused = (fits <= single_limit(smooth(h) ? 1 : 2) &&
                2 * (std::max(fits, h + 1) + 1) <= shared_scalars()) ||
               (smooth(h) && !weighed(l) && cluster_rows(half, {post}));
  // Or a chain with the post step in its rows.
  bool chained = !fused && real_rows(h);
  if (fused || chained) {
    l.load = rs;
    l.store = cs;
    if (chained) // X[h] from row 0 alone
      l.store.axes[0].limit = std::min(l.store.axes[0].limit, h + 1);
    if (smooth(h))
      line(l, scale, {r2c_step(h, chained)});
    else
      bluestein(l, scale, true);
    return;
  }
  // Long lines: the half-length transform and a pointwise pass of the post-processing, through a
  // packed copy of the half spectrum.
  Side z = packed(take(h * product(l.digits)), h, l.digits, {{kElement, 1}});
  Table weights = l.post;
  l.load = rs;
  l.store = z;
  l.post = Table{};
  any_line(l, 1.0);
  mirror_pass(z, cs, l.digits, h, scale, Access::r2c, true, weights);
}

// chained: the rows of a chain make the outputs, and line() gives the
// step their table.
Step Planner::r2c_step(int64_t half, bool chained) {
  Step s;
  s.kind = Step::r2c_post;
  s.span = half; // the half length
  if (!chained)
    s.table = tables.half(2 * half);
  return s;
}

// A chain may take a real line's pre or post step, except under a driver cap on an SM's shared
// memory, where the rows' both components make one group fill it.
// (docs/codegen-rules.md: real_chain)
bool Planner::real_chain(int64_t h) const {
  return opt.real_rows && smooth(h) && h > single_limit() && !dev.sm_shared_bytes;
}

// Whether a long R2C half line of h points makes its outputs in its chain's rows (one kernel, room
// for a pair of rows, runs filling sectors; launch bounds or F64), saving a pass over the half
// spectrum. (docs/codegen-rules.md: real_rows)
bool Planner::real_rows(int64_t h) {
  if (!real_chain(h))
    return false;
  int64_t n1 = column_length(h, true, true), n2 = h / n1;
  int64_t per_line = n2 + 2 + (n2 + 2) / 32 + 31;
  bool sectors = value_lines(n2) * scalar() >= 32;
  return n1 % 2 == 0 && n2 <= single_limit() && 4 * per_line <= shared_scalars() && sectors &&
         (prof.f32_real_rows || prec == Precision::f64);
}

// Whether a long C2R half line of h points takes its pre step in its chain's columns: where they
// pair twice a strided pass's lines in half a group's shared memory.
// (docs/codegen-rules.md: real_columns)
bool Planner::real_columns(int64_t h) {
  if (!real_chain(h))
    return false;
  int64_t n1 = column_length(h, true);
  return 2 * mirror_teams() * (n1 + n1 / 32 + 1) <= shared_scalars() / 2;
}

// A pointwise pass making the r2c post- or c2r pre-processing of a line, out of place: a thread
// makes outputs k and h - k from the same two reads (Kernel::mirror_pairs), or a position a thread
// where lines interleaved in memory need a second or flat mapping.
// (docs/codegen-rules.md: mirror_pass)
void Planner::mirror_pass(const Side& from, const Side& to, const std::vector<int64_t>& digits,
                          int64_t h, double scale, Access access, bool pairs, const Table& post) {
  int64_t count = access == Access::r2c ? std::min(h + 1, to.axes[0].limit) : h;
  int64_t first = pairs ? h / 2 + 1 : count; // positions the pass walks
  int64_t chunk = std::min<int64_t>(first, pairs ? 512 : 1024);
  Kernel k;
  k.length = chunk;
  k.positions = chunk;
  k.digits = digits;
  k.digits.insert(k.digits.begin(), (first + chunk - 1) / chunk);
  k.load = substitute(from, {{kElement, 1}, {0, chunk}}, 1);
  k.load.access = access;
  k.load.length = h;
  k.load.table = tables.half(2 * h);
  k.load.table.conj = access == Access::c2r;
  k.load.axes[0].limit = first;
  k.store = substitute(to, {{kElement, 1}, {0, chunk}}, 1);
  k.store.axes[0].limit = first;
  k.scale = scale;
  k.store_weights = post;
  if (pairs) {
    k.real_step = RealStep::mirror_pairs;
    k.mirror_pairs = count;
  }
  Kernel made = shaped(std::move(k), from.buffer, to.buffer);
  bool direct = made.load_mapping == Mapping::direct && made.store_mapping == Mapping::direct;
  if (pairs && !direct)
    return mirror_pass(from, to, digits, h, scale, access, false, post);
  push(std::move(made));
}

// A shaped kernel's R2C post step: where its partners come from, with lane shuffles and without.
void Planner::post_partners(Kernel& k) {
  if (!r2c_post(k))
    return;
  k.steps.back().partners = partners(k, true);
  k.steps.back().partners_unshuffled = partners(k, false);
}

// The cluster's rows; a mirror row's mate or a line not in natural order through shared memory;
// else from registers (the mirrored stage's without shuffles, the lanes'), or half the line
// through shared memory where each thread has an even count of values.
Partners Planner::partners(const Kernel& k, bool shuffles) {
  size_t n = k.steps.size();
  if (k.cluster > 1)
    return Partners::cluster;
  if (k.real_step == RealStep::mirror_lines || n < 2 || !natural(k, k.steps[n - 2]))
    return Partners::shared;
  const Step& last = k.steps[n - 2];
  if (!shuffles && mirrored(k, last))
    return Partners::mirrored;
  if (shuffled(k, shuffles))
    return Partners::lanes;
  return k.length / k.threads % 2 == 0 ? Partners::shared_half : Partners::shared;
}

// Whether stage `last` left Z in natural order, a whole count a thread.
bool Planner::natural(const Kernel& k, const Step& last) {
  if (last.kind != Step::stage)
    return false;
  int64_t q = k.length / last.radix;
  return last.span == q && q % k.threads == 0;
}

// Whether R2C's post step after a stage that left Z in natural order takes Z[h - k] from
// registers: partners in the thread or, with shuffles, lanes of its run
// (docs/codegen-rules.md: shuffled).
bool Planner::shuffled(const Kernel& k, bool shuffles) {
  int64_t P = k.threads;
  return P == 1 || (shuffles && P <= 32 && 32 % P == 0 && k.workgroup() % 32 == 0 &&
                    (k.team_major || k.teams == 1));
}

// Whether stage `last` (natural order) can leave each thread its outputs' partners: several
// threads a line, an even count of butterflies each (docs/codegen-rules.md: mirrored).
bool Planner::mirrored(const Kernel& k, const Step& last) {
  return k.threads >= 2 && k.length / last.radix / k.threads % 2 == 0;
}

// k's lines of digit 0 (extent n) in mirror pairs.
void Planner::mirror_lines(Kernel& k, int64_t n) {
  k.real_step = RealStep::mirror_lines;
  k.mirror_lines = n;
}

// Lines a group of a mirror kernel (Kernel::mirror_lines) aims for:
// twice a strided pass's, since a pair parts at the mirror and each of
// its runs in memory is half its lines.
int64_t Planner::mirror_teams() const {
  return 2 * int64_t(opt.coalesce_teams);
}

// Values a thread of R2C's chain rows (mirror pairs) of n points: enough that mirror_teams() of
// them take at most half a group's threads, up to radix 32's budget, where their values fit a group
// (0: the default); F32 only. (docs/codegen-rules.md: mirror_values)
int64_t Planner::mirror_values(int64_t n) const {
  if (prec != Precision::f32)
    return 0;
  int64_t threads = std::max<int64_t>(1, dev.max_threads / 2 / mirror_teams());
  int64_t values = n / threads;
  bool fits = mirror_teams() <= value_lines(n);
  return fits && values > opt.values_per_thread && values <= 2 * opt.values_per_thread ? values : 0;
}

} // namespace fftmux::codegen::planning
