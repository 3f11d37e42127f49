// A kernel's shape: its threads, lines a workgroup, exchanges, shared-memory layout and launch
// bounds, given the device.
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// k shaped at `values` a thread; under a shared-memory cap, groups of short lines take fewer values
// a thread while that fits more threads an SM. (docs/codegen-rules.md: shape)
Kernel Planner::shape(const Kernel& k, int64_t values) {
  Kernel s = shape_at(k, values);
  for (int64_t E = values / 2; E >= 4 && dev.sm_shared_bytes && s.teams > 1 && s.threads < 32 &&
                               resident(s) < prof.lean_threads;
       E /= 2) {
    Kernel t = shape_at(k, E);
    if (resident(t) <= resident(s))
      break;
    s = std::move(t);
  }
  return s;
}

// k's threads (about E values each), lines a group and exchanges.
Kernel Planner::shape_at(Kernel k, int64_t E) {
  k.precision = prec;
  k.storage = storage;
  if (!k.positions)
    k.positions = k.length;
  k.in_place = k.load.buffer == k.store.buffer;
  // A cluster's groups wait for each other at its barriers: two an SM
  // keep one working (the prototype's launch bound; without it the
  // rows' code may take the registers of the second).
  if (!k.resident_groups) // (bound_columns sets its own)
    k.resident_groups = k.cluster > 1 && !opt.resident_groups ? 2 : opt.resident_groups;
  k.butterfly_tail = k.butterfly_tail || opt.butterfly_tail; // (bound_columns sets its own)
  k.threads = pick_threads(k, E);
  unit_digit_first(k);
  Pref pl = preference(k.load), ps = preference(k.store);
  Pref want = pl != none ? pl : ps != none ? ps : major;
  k.team_major = want != minor;
  int64_t lines = k.transforms();
  int64_t per_line = std::max(k.length, k.positions) + 1;
  Kernel shared = k; // with company: are its lines staggered?
  shared.teams = 2;
  if (shared.staggered()) // padded, then up to 31 words more
    per_line += per_line / 32 + 31;
  // A group's values take at most Device::group_value_bytes, beyond which they spill.
  // (docs/codegen-rules.md: shape_at: values a group)
  int64_t cap_lines =
      std::max<int64_t>(1, std::min<int64_t>(dev.max_threads / k.threads, value_lines(k.length)));
  bool alt = (pl != none && pl != want) || (ps != none && ps != want);
  bool coalesce = !k.team_major || alt; // lines adjacent in memory: want enough of them
  bool post = r2c_post(k);
  int64_t wanted =
      std::max<int64_t>(opt.group_threads / k.threads, coalesce ? opt.coalesce_teams : 1);
  // Up to half the threads a group may have (more would leave a
  // multiprocessor one group).
  bool mirrors = k.real_step == RealStep::mirror_lines;
  if (mirrors && coalesce)
    wanted = std::max<int64_t>(wanted,
                               std::min<int64_t>(mirror_teams(), dev.max_threads / 2 / k.threads));
  if (k.cluster > 1) // a group is its cluster's columns
    wanted = k.cluster_columns;
  wanted = std::max<int64_t>(1, std::min({wanted, cap_lines, lines}));
  // Lines that fit with both components in shared memory, or with one.
  int64_t fit2 = shared_scalars() / (2 * per_line), fit1 = shared_scalars() / per_line;
  bool split = interleaved_split(k) && !post;
  if (split)
    fit2 = 0;
  int64_t teams;
  if (wanted <= fit2)
    teams = wanted;
  else if (coalesce && !post && fit1 >= int64_t(opt.coalesce_teams))
    teams = std::min(wanted, fit1); // coalescing is worth the extra barriers of a split exchange
  else if (fit2 >= 1)
    teams = fit2;
  else
    teams = std::max<int64_t>(1, std::min(wanted, fit1));
  if (mirrors) // whole pairs (real_rows leaves room for two lines)
    teams = std::max<int64_t>(2, teams / 2 * 2);
  k.teams = uint32_t(teams);
  k.exchange =
      split || 2 * per_line * k.teams > shared_scalars() ? Exchange::split : Exchange::whole;
  if (k.teams > 1) {
    // A line's threads cover less than a 128-byte transaction (under a
    // shared-memory cap, less than a 32-byte sector: spread()).
    bool short_rows = k.team_major && k.threads * scalar() * 2 < (dev.sm_shared_bytes ? 32u : 128u);
    // Real pairs flat only where a line's row is at most a sector, and only stored.
    // (docs/codegen-rules.md: shape_at: flat real pairs)
    bool pairs_flat = k.threads * scalar() * 2 <= 32;
    bool load_flat =
        short_rows && k.load.access == Access::complex && contiguous(k.load, k, k.length);
    bool store_flat = short_rows && (k.store.access == Access::complex || pairs_flat) &&
                      contiguous(k.store, k, k.positions);
    k.load_mapping = mapping(pl != none && pl != want, load_flat);
    k.store_mapping = mapping(ps != none && ps != want, store_flat);
  }
  // Chunks only where even an unpadded component overflows shared memory.
  // (docs/codegen-rules.md: shape_at: chunks)
  k.pad_shared = false;
  bool overflows = k.shared_scalars() > shared_scalars();
  k.pad_shared = true; // where it still fits
  lean(k, coalesce);
  while (overflows && k.teams == 1 && k.exchange != Exchange::whole &&
         k.shared_scalars() > shared_scalars() && k.chunks < max_chunks)
    chunk_exchange(k, k.chunks + 1);
  if (k.shared_scalars() > shared_scalars())
    k.pad_shared = false;
  if (k.shared_scalars() > shared_scalars())
    throw Unsupported("line of " + std::to_string(k.length) + " does not fit shared memory");
  stream(k);
  // Saying that a group runs alone (CUDA's launch bound of one group) changes how ptxas schedules
  // it, at the same 128 registers. (docs/codegen-rules.md: shape_at: launch bound of one group)
  if (!k.resident_groups && fills_sm(k))
    k.resident_groups = 1;
  if (!k.resident_groups && pairs_sm(k))
    k.resident_groups = 2;
  return k;
}

// A side's mapping: the other one where its preference is not the stages', else flat where its
// lines are one run.
Mapping Planner::mapping(bool alt, bool flat) {
  return alt ? Mapping::alt : flat ? Mapping::flat : Mapping::direct;
}

// Which coordinate a side holds at unit stride: the position (major), digit 0 (minor) or neither; a
// real pair counts as one position.
Planner::Pref Planner::preference(const Side& s) {
  int64_t e = stride(s, kElement);
  if (s.access == Access::real_pair)
    e /= 2;
  return e == 1 ? major : stride(s, 0) == 1 ? minor : none;
}

// Lines of L positions one after another in transform order: line g
// starts at base + g L, so a workgroup's lines are one contiguous run.
// Complex positions, or real pairs held as complex elements (paired).
// (An R2C line's h + 1 outputs count as its positions.)
// (Not rows in mirror pairs: a group's lines are rows p.. and n1 - p..)
bool Planner::contiguous(const Side& s, const Kernel& k, int64_t L) {
  bool pairs = s.access == Access::real_pair && paired(s);
  if ((s.access != Access::complex && !pairs) || (k.positions != k.length && !r2c_post(k)) ||
      k.real_step == RealStep::mirror_lines)
    return false;
  int64_t unit = pairs ? 2 : 1; // scalars a position (a pair's are 2 l, 2 l + 1)
  if (s.held != std::numeric_limits<int64_t>::max())
    return false;
  for (const Axis& a : s.axes)
    if (remapped(a) || a.limit != std::numeric_limits<int64_t>::max())
      return false;
  int64_t want = L * unit;
  for (size_t i = 0; i < k.digits.size(); want *= k.digits[i], ++i)
    if (stride(s, int(i)) != want)
      return false;
  return stride(s, kElement) == 1 && first_element(s) % unit == 0;
}

// Puts first a digit that is unit-stride on a side whose lines are not, so that a workgroup's lines
// are adjacent there (which lines share a workgroup is free).
// (docs/codegen-rules.md: unit_digit_first)
void Planner::unit_digit_first(Kernel& k) {
  // Digit 0 of mirror pairs is the one their mapping pairs (mirror_lines).
  if (preference(k.load) == minor || preference(k.store) == minor ||
      k.real_step == RealStep::mirror_lines)
    return;
  size_t pick = 0;
  for (const Side* s : {&k.load, &k.store})
    for (size_t i = 1; i < k.digits.size() && !pick; ++i)
      if (stride(*s, int(i)) == 1 && k.digits[i] > 1 && s->access == Access::complex)
        pick = i;
  if (!pick)
    return;
  auto renumber = [pick](int& c) {
    if (c >= 0)
      c = c == int(pick) ? 0 : c < int(pick) ? c + 1 : c;
  };
  auto terms = [&](std::vector<Term>& ts) {
    for (Term& t : ts)
      renumber(t.coord);
  };
  for (Side* s : {&k.load, &k.store})
    for (Axis& a : s->axes)
      terms(a.terms);
  for (Step& s : k.steps) {
    terms(s.index.terms);
    renumber(s.index.product);
  }
  std::rotate(k.digits.begin(), k.digits.begin() + std::ptrdiff_t(pick),
              k.digits.begin() + std::ptrdiff_t(pick) + 1);
}

// Lines interleaved in shared memory (a strided pass) exchange one component at a time, except long
// lines with four-step twiddles. (docs/codegen-rules.md: interleaved_split)
bool Planner::interleaved_split(const Kernel& k) {
  return !k.team_major && (!multiplies(k) || k.length <= 512);
}

// Threads of a kernel's groups that one SM holds under Device::sm_shared_bytes (each group takes
// some 2 KiB more than its shared memory). (docs/codegen-rules.md: resident)
int64_t Planner::resident(const Kernel& k) const {
  int64_t bytes = k.shared_scalars() * scalar() + 2048;
  return std::min<int64_t>(32, dev.sm_shared_bytes / bytes) * k.workgroup();
}

// Under a small shared-memory grant (GL), a kernel holding fewer than Profile::lean_threads threads
// an SM splits its exchange, then chunks it or takes fewer lines a group, until it holds more.
// (docs/codegen-rules.md: lean)
void Planner::lean(Kernel& k, bool coalesce) const {
  if (!dev.sm_shared_bytes || r2c_post(k) || resident(k) >= prof.lean_threads)
    return;
  if (k.teams > 1) {
    k.exchange = Exchange::split;
    for (Kernel h = k; resident(k) < prof.lean_threads && k.teams / 2 >= (coalesce ? 4u : 2u);
         k = h) {
      h.teams = k.teams / 2;
      if (resident(h) <= resident(k))
        break;
    }
    return;
  }
  if (k.convolution || !by_position(k))
    return;
  k.exchange = Exchange::split;
  int64_t l = std::max(k.length, k.positions);
  for (uint32_t c = 2; c <= max_chunks && resident(k) < prof.lean_threads; ++c)
    if (l % (32 * c) == 0)
      chunk_exchange(k, c);
}

// k's exchanges in c chunks.
void Planner::chunk_exchange(Kernel& k, uint32_t c) {
  k.exchange = Exchange::chunked;
  k.chunks = c;
}

// A group of F32 lines on 512 threads of at most 16 values runs under a launch bound of two groups
// an SM, where its values still fit, rather than alone. (docs/codegen-rules.md: pairs_sm)
bool Planner::pairs_sm(const Kernel& k) const {
  bool shapes = opt.max_radix >= 32 && opt.values_per_thread == 16 && opt.coalesce_teams == 8;
  return prof.launch_bounds && prec == Precision::f32 && shapes && k.teams > 1 &&
         k.workgroup() == 512 && k.length <= 16 * int64_t(k.threads) &&
         2 * k.shared_scalars() <= shared_scalars();
}

// Whether a shaped group takes more than half the shared memory: it runs
// alone on its multiprocessor (alone() guesses it from the line's length
// before the group is shaped).
bool Planner::fills_sm(const Kernel& k) const {
  return 2 * k.shared_scalars() > shared_scalars();
}

// A line filling more than half the shared memory is streamed (Kernel::stream): it copies the next
// line in while it transforms this one, hiding the loads of its lone group.
// (docs/codegen-rules.md: stream)
void Planner::stream(Kernel& k) const {
  // lines start at 16-byte boundaries where the buffer does
  bool aligned = k.length % 2 == 0 && first_element(k.load) % 2 == 0;
  // (One line a group: no other mapping and no flat run.)
  if (!dev.bulk_copy || k.teams != 1 || k.cluster > 1 || k.exchange == Exchange::chunked ||
      k.load.access != Access::complex || half_side(k, k.load) ||
      !contiguous(k.load, k, k.length) || !aligned || k.steps.empty() ||
      k.steps[0].kind != Step::stage || !fills_sm(k))
    return;
  Kernel s = k;
  s.exchange = Exchange::streamed;
  s.resident_groups = 1;
  if (s.shared_scalars() <= shared_scalars())
    k = s;
}

} // namespace fftmux::codegen::planning
