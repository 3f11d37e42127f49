// The algorithm: a problem becomes passes over lines (one axis at a time),
// a line becomes one kernel (it fits shared memory), a four-step chain of
// kernels (longer), or Bluestein's convolution (a prime factor above 13).
#include "tables.hpp"

#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <tuple>

namespace fftmux::codegen {

int64_t Kernel::transforms() const {
  int64_t t = 1;
  for (int64_t d : digits)
    t *= d;
  return t;
}

uint64_t Kernel::groups() const {
  return uint64_t((transforms() + teams - 1) / teams);
}

// Whether the kernel ends with the r2c post-processing, which reads both
// components of a position at once (so its exchange cannot be split).
static bool r2c_post(const Kernel& k) {
  return std::any_of(k.steps.begin(), k.steps.end(),
                     [](const Step& s) { return s.kind == Step::r2c_post; });
}

uint32_t Kernel::shared_scalars() const {
  int stages = 0;
  for (const Step& s : steps)
    stages += s.kind == Step::stage;
  bool exchanges =
      load_alt || store_alt || load_flat || store_flat || stages > 1 || r2c_post(*this);
  // A cluster's groups leave their columns in shared memory, both components.
  uint32_t rows = cluster > 1 ? uint32_t(2 * cluster_column_stride() * cluster_columns) : 0;
  if (stream)
    return uint32_t(stream_offset() + 2 * length);
  if (!exchanges)
    return rows;
  return std::max(rows, uint32_t(component_scalars() * (split_exchange ? 1 : 2)));
}

int64_t Kernel::stream_offset() const {
  int64_t words = precision == Precision::f64 ? 2 : 4; // scalars in 16 bytes
  return (component_scalars() + words - 1) / words * words;
}

bool Kernel::staggered() const {
  return teams > 1 && team_major && threads > 1 && threads < 32;
}

int64_t Kernel::chunk() const {
  int64_t l = std::max(length, positions);
  return chunks > 1 ? ((l + chunks - 1) / chunks + 31) / 32 * 32 : l;
}

int64_t Kernel::line_scalars() const {
  if (chunks > 1)
    return chunk();
  int64_t l = std::max(length, positions);
  if (staggered()) { // the padded line, then up to the next word = threads (mod 32)
    int64_t q = l + (pad_shared ? l / 32 : 0);
    return q + ((int64_t(threads) - q) % 32 + 32) % 32;
  }
  return l + (teams > 1 && team_major ? 1 : 0);
}

int64_t Kernel::component_scalars() const {
  int64_t s = line_scalars() * teams;
  return pad_shared && !staggered() ? s + s / 32 + 1 : s;
}

namespace {

using plugin::fail;

// A batch of lines to transform: axes[0] of each side is the line, its
// element term the position; other terms name digits (fastest first).
struct Line {
  int64_t n = 1;
  std::vector<int64_t> digits;
  Side load, store;
  int64_t mirror = 0; // Kernel::mirror_lines of its kernel (R2C's rows, real_rows)
};

Axis axis(std::vector<Term> terms, int64_t stride) {
  Axis a;
  a.terms = std::move(terms);
  a.stride = stride;
  return a;
}

// Replaces the element coordinate by expr and renumbers digits by shift.
std::vector<Term> substitute(const std::vector<Term>& terms, const std::vector<Term>& expr,
                             int shift) {
  std::vector<Term> out;
  for (const Term& t : terms) {
    if (t.coord != kElement) {
      out.push_back({t.coord + shift, t.coef});
      continue;
    }
    for (const Term& e : expr)
      out.push_back({e.coord, e.coef * t.coef});
  }
  return out;
}

Side substitute(Side s, const std::vector<Term>& expr, int shift) {
  for (Axis& a : s.axes)
    a.terms = substitute(a.terms, expr, shift);
  return s;
}

// Lines packed one after another in digit order from element base: the
// scratch layout. Digits are numbered from first.
// unit >= 0: that digit goes fastest, before the line (a strided line's
// unit-stride neighbour, so that both passes of its chain read and write
// runs of adjacent lines).
Side packed(int64_t base, int64_t n, const std::vector<int64_t>& digits, std::vector<Term> line,
            int first = 0, int unit = -1) {
  Side s;
  s.buffer = Binding::scratch;
  int64_t step = unit >= 0 ? digits[size_t(unit)] : 1;
  s.axes.push_back(axis(std::move(line), step)); // axes[0]: the line
  if (unit >= 0)
    s.axes.push_back(axis({{first + unit, 1}}, 1));
  step *= n;
  for (size_t i = 0; i < digits.size(); ++i)
    if (int(i) != unit) {
      s.axes.push_back(axis({{first + int(i), 1}}, step));
      step *= digits[i];
    }
  if (base) {
    Axis b;
    b.offset = base;
    b.stride = 1;
    s.axes.push_back(b);
  }
  return s;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

struct Planner {
  const fftmux_desc& d;
  int sign;
  Device dev;
  Options opt;
  Precision prec;
  Plan& out;
  Tables tables;
  std::ostringstream summary;

  Planner(const fftmux_desc& desc, int direction, const Device& device, const Options& o, Plan& p)
      : d(desc), sign(direction), dev(device), opt(o),
        prec(desc.precision == FFTMUX_F64 ? Precision::f64 : Precision::f32), out(p), tables(p) {
    if (!opt.group_threads)
      opt.group_threads = 256;
    if (!opt.values_per_thread)
      opt.values_per_thread = prec == Precision::f64 ? 8 : 16;
    if (!opt.coalesce_teams)
      opt.coalesce_teams = 8;
  }

  uint32_t scalar() const { return prec == Precision::f64 ? 8 : 4; }
  int64_t shared_scalars() const { return dev.shared_bytes / scalar(); }

  // Longest line one kernel transforms: one component of it fits shared
  // memory (or shared_chunks chunks of it) and each thread holds at most
  // the target registers (twice that for a Bluestein convolution, whose
  // alternative is three passes). H200, F32: 32768 points in one kernel
  // spilled and ran at 0.38x cuFFT, in two at 0.71x; 10007's 20160-point
  // convolution ran 1.35x faster in one. A fused convolution is never chunked:
  // Vulkan's 48 KiB ran 10007's in one chunked kernel of 1024 threads at
  // 1.7x the time of three passes (16384 and 12800 points chunked: 0.65x
  // and 0.83x the time of two passes).
  int64_t single_limit(int64_t registers = 1) const {
    bool chunked = opt.shared_chunks > 1 && registers == 1;
    int64_t l = std::min<int64_t>(chunked ? chunked_reach() : shared_scalars(),
                                  int64_t(dev.max_threads) * registers * opt.values_per_thread);
    return opt.max_single ? std::min<int64_t>(l, opt.max_single) : l;
  }
  // The longest line shared_chunks chunks cover: a chunk is a multiple of
  // 32 positions whose padded words (c + c / 32 + 1, Kernel::component_scalars)
  // fit shared memory.
  int64_t chunked_reach() const {
    return (shared_scalars() - 1) * 32 / 33 / 32 * 32 * opt.shared_chunks;
  }
  // Longest line of a multi-pass kernel: coalesce_teams lines share a workgroup.
  int64_t chain_limit() const {
    return std::max<int64_t>(16, std::min(single_limit(), shared_scalars() / opt.coalesce_teams));
  }

  // Threads whose values of one row fill a 32-byte sector (4 in F32).
  int64_t sector_threads() const { return 32 / (2 * scalar()); }
  // Where the driver caps an SM's shared memory (GL), a line of 16 points or
  // more spreads over at least a sector's worth of threads, which then load
  // and store it directly: fewer threads stage the group's lines through
  // shared memory (flat loads), which the cap makes scarce. H200, OpenGL,
  // 16 points as 4 x 4 on 4 threads 601 us, as 16 on one 1074 (Vulkan 590);
  // 128 points on 8 threads loading directly 580, staged 1142 (Vulkan 598);
  // 8 points loaded directly by one thread 1532, staged 707 (Vulkan 573).
  bool spread(int64_t n) const { return dev.sm_shared_bytes && n >= 16; }

  // Radix 32 (two radix-16 butterflies and a radix-2 step in registers)
  // saves an exchange from 512 points on where a thread may hold its 32
  // values (F32 on GPUs: 16 values a thread, twice that at most). H200, F32,
  // time against radix 16: 2^20 CUDA 0.80x, Vulkan 0.92x; 16384 0.93x and
  // 0.97x; lines of 512 points 1.04x on CUDA but Vulkan's strided 512-point
  // passes 0.74-0.79x (2^17, 2^18), so 512 takes it only on 48 KiB devices;
  // 32 points in one thread 1.47x.
  uint32_t radix_cap(int64_t n, uint32_t max_radix) const {
    uint32_t cap = std::min({opt.max_radix, max_radix, dev.max_radix});
    int64_t from = dev.shared_bytes <= 49152 ? 512 : 1024;
    if (cap >= 32 && (n < from || 2 * opt.values_per_thread < 32))
      cap = 16;
    return spread(n) ? uint32_t(std::min<int64_t>(cap, n / sector_threads())) : cap;
  }

  std::vector<int> radices(int64_t n, bool composites = true, uint32_t max_radix = 32) const {
    uint32_t mc = composites ? std::min(opt.max_composite, dev.max_composite) : 0;
    uint32_t cap = radix_cap(n, max_radix);
    // A line too short for composites above 16 (OpenGL) that has an odd
    // factor takes radix 16 at most: H200, OpenGL, 1536 points as 32 x 16 x 3
    // 691 us, as 8 x 8 x 8 x 3 588 (Vulkan, 24 x 8 x 8: 531); 1600 as 32 x
    // 10 x 5 718, as 16 x 10 x 10 566.
    if (n < dev.large_composites_from) {
      mc = std::min(mc, 16u);
      if (n & (n - 1))
        cap = std::min(cap, 16u);
    }
    return factorize(n, cap, mc);
  }

  std::vector<Step> stages(int64_t n, int s, bool composites = true, uint32_t max_radix = 32) {
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

  static Step multiply(Table t, Index i, int64_t limit = std::numeric_limits<int64_t>::max()) {
    Step s;
    s.kind = Step::multiply;
    s.table = t;
    s.index = std::move(i);
    s.limit = limit;
    return s;
  }

  // The largest last butterfly whose outputs take Step::rows at any length.
  static constexpr int max_row_radix = 8;

  // The four-step twiddles w_n^(p d) after stages st of a line, d the
  // line's digit 0 (extent values): each its own lookup, or a butterfly's
  // one lookup times a row per output (Step::rows) where the rows stay
  // small and a butterfly has at most 8 outputs, or the line's split table
  // outgrows 2 x 1024 values. H200, CUDA, generator v20 against v19 (each
  // its own): 2^17 and 2^18 (radix 8 last) 0.96x the time, 2^21 and 2^22
  // (8) 0.93x, 2^23 0.96x and 2^24 0.985x (16); but 65536 (16) 1.015x,
  // 2^19 1.01x and 2^20 1.02x (32; Vulkan 1.013x, GL 1.03x).
  Step twiddles(int64_t n, int64_t extent, const std::vector<Step>& st, int s) {
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

  // ---- kernel shape: threads, lines per workgroup, thread mapping ----

  enum Pref { none, major, minor };

  static Pref preference(const Side& s) {
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
  static bool contiguous(const Side& s, const Kernel& k, int64_t L) {
    bool pairs = s.access == Access::real_pair && paired(s);
    if ((s.access != Access::complex && !pairs) || (k.positions != k.length && !r2c_post(k)) ||
        k.mirror_lines)
      return false;
    int64_t unit = pairs ? 2 : 1; // scalars a position (a pair's are 2 l, 2 l + 1)
    for (const Axis& a : s.axes)
      if (a.shift || a.limit != std::numeric_limits<int64_t>::max())
        return false;
    int64_t want = L * unit;
    for (size_t i = 0; i < k.digits.size(); want *= k.digits[i], ++i)
      if (stride(s, int(i)) != want)
        return false;
    return stride(s, kElement) == 1 && first_element(s) % unit == 0;
  }

  // Puts first a digit that is unit-stride on a side whose lines are not,
  // so that a workgroup's lines are adjacent there: which lines share a
  // workgroup is free. The last pass of a three-pass chain numbers the
  // output's unit digit second, and wrote 8 bytes at a time (H200, Vulkan,
  // 2^21: that pass took twice the time of each other).
  static void unit_digit_first(Kernel& k) {
    // Digit 0 of mirror pairs is the one their mapping pairs (mirror_lines).
    if (preference(k.load) == minor || preference(k.store) == minor || k.mirror_lines)
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

  uint32_t pick_threads(const Kernel& k, int64_t E) const {
    if (spread(k.length))
      E = std::min(E, k.length / sector_threads());
    if (shares_with_one_or_two(k)) {
      uint32_t p = threads_for(k, 2 * E);
      if (k.length / p <= 32) // 64 registers of values: two groups of 256 fit
        return p;
    }
    return threads_for(k, E);
  }

  // The thread count dividing every stage's butterflies with closest to E
  // values a thread, else fewest_idle's.
  uint32_t threads_for(const Kernel& k, int64_t E) const {
    int64_t L = k.length;
    int maxr = 1;
    int64_t lcm = 1;
    for (const Step& s : k.steps)
      if (s.kind == Step::stage) {
        maxr = std::max(maxr, s.radix);
        lcm = std::lcm(lcm, int64_t(s.radix));
      }
    if (maxr == 1) // no butterflies: a pointwise kernel
      return uint32_t(std::min<int64_t>(std::max<int64_t>(1, k.positions / 4), 256));
    int64_t best = 0;
    int64_t g = L / lcm; // thread counts dividing g leave no thread idle
    // Distance from E values a thread; above E counts triple, as registers
    // limit the groups an SM holds. H200, 1000 points F32 as 10 x 10 x 10:
    // 20 values a thread (64 registers) 570 us, 10 (40 registers) 528, as
    // cuFFT (one process each).
    auto off = [&](int64_t p) {
      double d = std::log(double(L) / double(p) / double(E));
      return d > 0 ? 3 * d : -d;
    };
    for (int64_t p = 1; p <= g; ++p)
      if (g % p == 0 && L / p >= E / 2 && L / p <= 2 * E && L / p >= maxr &&
          p <= int64_t(dev.max_threads) && (!best || off(p) < off(best)))
        best = p;
    return uint32_t(best ? best : fewest_idle(k, 2 * E));
  }

  // Whether the kernel multiplies by a table (four-step twiddles, Bluestein's
  // chirps) besides its butterflies.
  static bool multiplies(const Kernel& k) {
    for (const Step& s : k.steps)
      if (s.kind == Step::multiply)
        return true;
    return false;
  }

  // Whether every table the kernel multiplies by is indexed by the position
  // alone (a split convolution's chirp and spectrum; four-step twiddles and
  // three-pass convolutions index theirs by a digit too).
  static bool by_position(const Kernel& k) {
    for (const Step& s : k.steps)
      if (s.kind == Step::multiply &&
          (s.index.terms.size() != 1 || s.index.terms[0].coord != kElement ||
           s.index.product != kNone))
        return false;
    return true;
  }

  // A line whose group takes most of the shared memory: it runs alone on
  // its multiprocessor.
  bool alone(const Kernel& k) const { return 4 * k.length * scalar() > int64_t(dev.shared_bytes); }

  // A long plain line (no Bluestein convolution, no four-step twiddles)
  // whose group leaves shared memory for one or two more: at the default
  // values a thread, registers held its multiprocessor to one group (H200,
  // 8192 points: 512 threads x 84 registers, 2870 GB/s); at twice the
  // values, two fit (256 x 127, 3630 GB/s; the half-length line of a 16384
  // r2c: 2220 -> 2700). Shorter lines' groups fit as they are; longer ones
  // run alone whatever the registers.
  bool shares_with_one_or_two(const Kernel& k) const {
    if (multiplies(k))
      return false;
    return k.length >= 8192 && !alone(k) && 8 * k.length * scalar() > int64_t(dev.shared_bytes);
  }

  // No thread count divides every stage: the one that issues the fewest
  // butterfly slots (idle threads of a round and of a partial warp
  // included) holding at most `registers` values, or failing that, the one
  // holding the fewest. A line that takes most of the shared memory runs
  // alone on its multiprocessor, where the rounds a thread makes count
  // before the slots, and the most threads win. H200: 8232 points on 514
  // threads left a third of them idle in the radix-8 stage and spilled (588:
  // 1.35x faster); 20160 points, alone, ran at 261 GB/s on 840 threads, 279
  // on 1008 and 355 on 1024.
  uint32_t fewest_idle(const Kernel& k, int64_t registers) const {
    bool lone = alone(k);
    // A convolution alone has the 64K-register file to itself: p threads
    // may hold what min(255, 64K / p) registers leave after some 40 for
    // addresses and chirps. H200, CUDA, 10007's 20480-point convolution:
    // 1024 threads of 24 values spilled 652 bytes and took 4046 us, 640 of
    // 35 spilled 244 (3408 us), 512 of 40 none (2949 us; cuFFT 9364).
    bool whole_file = lone && multiplies(k);
    auto room = [&](int64_t p) {
      return whole_file ? (std::min<int64_t>(255, (1 << 16) / p) - 40) * 2 / scalar() : registers;
    };
    std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t> best{
        std::numeric_limits<int64_t>::max(), 0, 0, 0, 0};
    int64_t pick = 1;
    for (int64_t p = 1; p <= int64_t(dev.max_threads) && p <= k.length; ++p) {
      int64_t held = 0, slots = 0, rounds = 0;
      for (const Step& s : k.steps)
        if (s.kind == Step::stage) {
          int64_t n = (k.length / s.radix + p - 1) / p;
          held = std::max(held, s.radix * n);
          slots += s.radix * n;
          rounds += n;
        }
      std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t> key{
          held > room(p) ? held : 0, lone ? rounds : 0, (p < 32 ? p : (p + 31) / 32 * 32) * slots,
          held, lone ? -p : p};
      if (key < best) {
        best = key;
        pick = p;
      }
    }
    return uint32_t(pick);
  }

  // Lines interleaved in shared memory (a strided pass) exchange one
  // component at a time, except long lines with four-step twiddles. H200,
  // CUDA, time against both components at once: 1024x1024 x64 0.87x (its
  // column pass 386 -> 293 us, the group then holding 128 registers, not 80:
  // more loads in flight), 512^3 0.94x, 32768-131072 0.95-0.96x, 4096x4096
  // 0.95-0.99x; but 2^20-2^24, whose strided passes twiddle lines of
  // 1024-4096 points, 1.02-1.06x.
  static bool interleaved_split(const Kernel& k) {
    return !k.team_major && (!multiplies(k) || k.length <= 512);
  }

  static constexpr int64_t target = 768; // threads an SM the lean rule aims for
  // Threads of a kernel's groups that one multiprocessor holds where the
  // driver grants it Device::sm_shared_bytes (each group takes some 2 KiB
  // more: H200, GL, six groups of 8 KiB fit 64 KiB, not seven).
  int64_t resident(const Kernel& k) const {
    int64_t bytes = k.shared_scalars() * scalar() + 2048;
    return std::min<int64_t>(32, dev.sm_shared_bytes / bytes) * k.workgroup();
  }

  // Where the driver grants a multiprocessor little shared memory, a plain
  // one-line kernel whose groups would hold fewer than 768 threads there
  // splits its exchange, then chunks it in equal parts, until they do.
  // H200, OpenGL (64 KiB an SM): 4096 points on 256 threads 926 -> 625 us
  // (Vulkan 595: three groups an SM, as its registers allow), 8192 771 ->
  // 582 in two chunks, 2187 885 -> 753; 16384 on 512 threads 770 in two
  // chunks, 776 in four; 12288 on 768 threads lost in chunks (0.74x).
  // Groups of several lines split too, and take fewer lines while that
  // fits more threads an SM (at least 4 where lines share 32-byte sectors):
  // H200, OpenGL, 2^20 1942 -> 1728 us (its passes 4 lines a group, not 8),
  // 65536 1338 -> 1136, 2^24 2162 -> 1999, 512 653 -> 558, 64 1855 -> 1049.
  void lean(Kernel& k, bool coalesce) const {
    if (!dev.sm_shared_bytes || r2c_post(k) || resident(k) >= target)
      return;
    if (k.teams > 1) {
      k.split_exchange = true;
      for (Kernel h = k; resident(k) < target && k.teams / 2 >= (coalesce ? 4u : 2u); k = h) {
        h.teams = k.teams / 2;
        if (resident(h) <= resident(k))
          break;
      }
      return;
    }
    if (k.convolution || !by_position(k))
      return;
    k.split_exchange = true;
    int64_t l = std::max(k.length, k.positions);
    for (uint32_t c = 2; c <= opt.shared_chunks && resident(k) < target; ++c)
      if (l % (32 * c) == 0)
        k.chunks = c;
  }

  // Groups of several lines of under 32 threads each that still hold fewer
  // than `target` threads an SM under the shared-memory cap take fewer
  // values a thread (more threads a line, fewer lines a group) while that
  // fits more threads. H200, OpenGL: 64 points on 8 threads a line 558 us,
  // on 4 1041 (Vulkan 621); 32 on 4 576, on 2 972; 10007's convolution
  // (320 points) on 64 threads 6002, on 14 10688 (Vulkan 6077).
  Kernel shape(const Kernel& k, int64_t values) {
    Kernel s = shape_at(k, values);
    for (int64_t E = values / 2;
         E >= 4 && dev.sm_shared_bytes && s.teams > 1 && s.threads < 32 && resident(s) < target;
         E /= 2) {
      Kernel t = shape_at(k, E);
      if (resident(t) <= resident(s))
        break;
      s = std::move(t);
    }
    return s;
  }

  // k's threads (about E values each), lines a group and exchanges.
  Kernel shape_at(Kernel k, int64_t E) {
    k.precision = prec;
    if (!k.positions)
      k.positions = k.length;
    k.in_place = k.load.buffer == k.store.buffer;
    // A cluster's groups wait for each other at its barriers: two an SM
    // keep one working (the prototype's launch bound; without it the
    // rows' code may take the registers of the second).
    if (!k.resident_groups) // (bound_columns sets its own)
      k.resident_groups = k.cluster > 1 && !opt.resident_groups ? 2 : opt.resident_groups;
    k.slot_addresses = opt.slot_addresses;
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
    // A group's values take at most Device::group_value_bytes: beyond half
    // of a 64K-register file 1024 threads of 16 F64 values (4096-point
    // columns) spilled 968 bytes each.
    int64_t cap_lines =
        std::max<int64_t>(1, std::min<int64_t>(dev.max_threads / k.threads, value_lines(k.length)));
    bool alt = (pl != none && pl != want) || (ps != none && ps != want);
    bool coalesce = !k.team_major || alt; // lines adjacent in memory: want enough of them
    bool post = r2c_post(k);
    int64_t wanted =
        std::max<int64_t>(opt.group_threads / k.threads, coalesce ? opt.coalesce_teams : 1);
    // Up to half the threads a group may have (more would leave a
    // multiprocessor one group).
    if (k.mirror_lines && coalesce)
      wanted = std::max<int64_t>(
          wanted, std::min<int64_t>(mirror_teams(), dev.max_threads / 2 / k.threads));
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
    if (k.mirror_lines) // whole pairs (real_rows leaves room for two lines)
      teams = std::max<int64_t>(2, teams / 2 * 2);
    k.teams = uint32_t(teams);
    k.split_exchange = split || 2 * per_line * k.teams > shared_scalars();
    if (k.teams > 1) {
      k.load_alt = pl != none && pl != want;
      k.store_alt = ps != none && ps != want;
      // A line's threads cover less than a 128-byte transaction (under a
      // shared-memory cap, less than a 32-byte sector: spread()).
      bool short_rows =
          k.team_major && k.threads * scalar() * 2 < (dev.sm_shared_bytes ? 32u : 128u);
      // Real pairs only where a line's row is at most a sector, and only
      // stored: H200, flat R2C inputs took R2C 64-256 from 280-333 us to
      // 424-431 (cuFFT 300-366); flat C2R outputs took C2R 64 from 783 to
      // 507 and 128 from 474 to 379 (cuFFT 677, 586) but 256 from 328 to
      // 355.
      bool pairs_flat = k.threads * scalar() * 2 <= 32;
      k.load_flat = short_rows && !k.load_alt && k.load.access == Access::complex &&
                    contiguous(k.load, k, k.length);
      k.store_flat = short_rows && !k.store_alt &&
                     (k.store.access == Access::complex || pairs_flat) &&
                     contiguous(k.store, k, k.positions);
    }
    // Chunks only where even an unpadded component overflows: H200, one
    // unpadded component against two padded chunks, 12288 F32 on OpenGL
    // 0.74x the time (Vulkan 1.11x), 6000 F64 0.81x and 0.30x.
    k.pad_shared = false;
    bool overflows = k.shared_scalars() > shared_scalars();
    k.pad_shared = true; // where it still fits
    lean(k, coalesce);
    while (overflows && k.teams == 1 && k.split_exchange && k.shared_scalars() > shared_scalars() &&
           k.chunks < opt.shared_chunks)
      ++k.chunks;
    if (k.shared_scalars() > shared_scalars())
      k.pad_shared = false;
    if (k.shared_scalars() > shared_scalars())
      fail(FFTMUX_ERROR_UNSUPPORTED,
           "line of " + std::to_string(k.length) + " does not fit shared memory");
    stream(k);
    // Saying that a group runs alone (CUDA's launch bound of one group)
    // changes how ptxas schedules it, at the same 128 registers. H200, bare
    // kernels: 16384 F32 in one
    // pass 677 -> 655 us, streamed 813 -> 644.
    if (!k.resident_groups && fills_sm(k))
      k.resident_groups = 1;
    if (!k.resident_groups && pairs_sm(k))
      k.resident_groups = 2;
    return k;
  }

  // A group of several F32 lines on 512 threads of at most 16 values each,
  // which the compiler gives more than 64 registers, runs alone on its SM,
  // half of whose threads wait; under a launch bound of two groups its
  // values still fit. (F64's 16 values would spill, and so would the
  // variants' other shapes: radix8, radix4, narrow, radix16 and
  // wide-strides 8-516 bytes; Bluestein's one-line groups were not
  // measured.)
  // H200: C2R 2^20's mirror columns of
  // 512 points (32 threads of 16 values, 16 lines, 83 registers) 889-890
  // -> 785-786 us (cuFFT 1220-1224).
  bool pairs_sm(const Kernel& k) const {
    bool shapes = opt.max_radix >= 32 && opt.values_per_thread == 16 && opt.coalesce_teams == 8;
    return dev.launch_bounds && prec == Precision::f32 && shapes && k.teams > 1 &&
           k.workgroup() == 512 && k.length <= 16 * int64_t(k.threads) &&
           2 * k.shared_scalars() <= shared_scalars();
  }

  // Whether a shaped group takes more than half the shared memory: it runs
  // alone on its multiprocessor (alone() guesses it from the line's length
  // before the group is shaped).
  bool fills_sm(const Kernel& k) const { return 2 * k.shared_scalars() > shared_scalars(); }

  // A line whose exchanges fill more than half the shared memory leaves its
  // multiprocessor idle between loading it and storing it: one group an SM
  // waits for its loads, with no other group's work to hide them. Streamed
  // (Kernel::stream), it copies the next line while it transforms this one.
  // H200, 16384 F32 as a bare kernel: 676-680 ->
  // 644 us (cuFFT 720-727); without the launch bound of one group an SM
  // 800-816. Through fftmux run, with the carveout that leaves it 60 KiB of
  // L1: 16384 F32 650-652 us against 658-665
  // unstreamed, 8192 F64 651-652 against 665-666 (cuFFT 729-735, 720-722).
  void stream(Kernel& k) const {
    // lines start at 16-byte boundaries where the buffer does
    bool aligned = k.length % 2 == 0 && first_element(k.load) % 2 == 0;
    // (One line a group: no other mapping and no flat run.)
    if (!opt.stream || !dev.bulk_copy || k.teams != 1 || k.cluster > 1 || k.chunks > 1 ||
        k.load.access != Access::complex || !contiguous(k.load, k, k.length) || !aligned ||
        k.steps.empty() || k.steps[0].kind != Step::stage || !fills_sm(k))
      return;
    Kernel s = k;
    s.stream = s.split_exchange = true;
    s.resident_groups = 1;
    if (s.shared_scalars() <= shared_scalars())
      k = s;
  }

  void add(Kernel k, Binding src, Binding dst, int64_t values = 0) {
    k.name = "fftmux_pass" + std::to_string(out.passes.size());
    k.load.buffer = src;
    k.store.buffer = dst;
    out.passes.push_back({shape(std::move(k), values ? values : opt.values_per_thread), src, dst});
  }

  // Lines a group of a mirror kernel (Kernel::mirror_lines) aims for:
  // twice a strided pass's, since a pair parts at the mirror and each of
  // its runs in memory is half its lines.
  int64_t mirror_teams() const { return 2 * int64_t(opt.coalesce_teams); }
  // Lines of n points whose values (both components) fit what a group may
  // hold (Device::group_value_bytes); at least 1.
  int64_t value_lines(int64_t n) const {
    return std::max<int64_t>(1, dev.group_value_bytes / (n * 2 * scalar()));
  }
  // Values a thread of R2C's chain rows (mirror pairs) of n points: enough
  // that mirror_teams() of them take at most half a group's threads, up to
  // radix 32's budget, where their values fit a group (0: the default).
  // H200, CUDA: rows of 1024 as 32
  // threads of 32 values, 16 a group, against 64 of 16, 8 a group: R2C
  // 2^21 981-984 us against 1018-1019 (cuFFT 925), 2^20 910-916 against
  // 928-929 (cuFFT 911-914), 2^22 1017 against 1067. F32 only: F64's rows
  // of 512 at 16 values gained nothing (2^19 843 against 836, 2^20 821
  // against 817).
  int64_t mirror_values(int64_t n) const {
    if (prec != Precision::f32)
      return 0;
    int64_t threads = std::max<int64_t>(1, dev.max_threads / 2 / mirror_teams());
    int64_t values = n / threads;
    bool fits = mirror_teams() <= value_lines(n);
    return fits && values > opt.values_per_thread && values <= 2 * opt.values_per_thread ? values
                                                                                         : 0;
  }

  // Values a thread in the column pass of a four-step chain: twice the
  // default for F32 columns of 65-128 points (4 threads a line, 16 lines a
  // group, so a group reads 128-byte runs), except under a shared-memory
  // cap (GL). H200 Vulkan, 2^21's three passes of 128 points: 0.583, 0.662,
  // 0.536 ms -> 0.540, 0.540 and (the row pass, which gains nothing) 0.554;
  // 2^22's first 0.613 -> 0.561. Columns of 256 points lost as often as
  // they gained (2^23's first pass 0.624 -> 0.652); shorter ones and GL's
  // were not measured.
  int64_t column_values(int64_t n1) const {
    bool wide = n1 > 64 && n1 <= 128 && prec == Precision::f32 && !dev.sm_shared_bytes;
    return wide ? 2 * opt.values_per_thread : opt.values_per_thread;
  }

  // A chain's strided columns of 1024 F32 points, where the compiler takes
  // launch bounds, run as cuFFT's do: 64 threads of 16 values a line
  // (radix 16), 8 lines a group, two groups an SM (64 registers a thread,
  // a few bytes spilled), not 32 threads of 32 values at 102 registers and
  // two groups of 256 threads. H200:
  // R2C 2^21 983 -> 930 us (cuFFT 924-925), C2R 2^21 1051 -> 994 (cuFFT
  // 1227), R2C 2^19 773 -> 751-763; C2C 2^20 1333 -> 1334-1339 (cuFFT
  // 1285). Radix 16 alone left R2C 2^21 at 984. The variants that
  // reshape the columns (fewer threads or radices, more lines) keep their
  // kernels: under the bound they spill 124-976 bytes. Their last stage
  // goes one butterfly at a time (Kernel::butterfly_tail: 4 bytes spilled,
  // not 20): H200, C2C 2^20 x128 1340 ->
  // 1248-1260 us (cuFFT 1287), C2R 2^21 998 -> 984; the columns of 2048
  // it took from 28 bytes to 8 ran 0-1 % slower, so they keep theirs.
  bool bound_columns(int64_t n1) const {
    return dev.launch_bounds && n1 == 1024 && prec == Precision::f32 && opt.max_radix >= 16 &&
           opt.values_per_thread <= 16 && opt.coalesce_teams <= 8;
  }

  // Scratch regions live until the axis that took them is done.
  int64_t reserved = 0;
  int64_t take(int64_t elements) {
    int64_t base = reserved;
    reserved += elements;
    out.scratch_elements = std::max<uint64_t>(out.scratch_elements, uint64_t(reserved));
    return base;
  }

  // ---- lines of smooth length: one kernel, or a four-step chain ----

  // reuse >= 0: l.load is the packed scratch region at that base, which the
  // first pass may overwrite in place (each workgroup reads and writes the
  // same columns), so a chain of three passes needs one region, not two.
  void line(const Line& l, double scale, std::vector<Step> post = {}, int64_t reuse = -1) {
    if (int64_t c = sector_clusters(l, post)) {
      clustered(l, c, sector_threads(), scale, post);
      return;
    }
    if (int64_t c = cluster_rows(l, post)) {
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
      if (!post.empty() && post.back().kind == Step::r2c_post) {
        if (post.back().table.offset < 0) // r2c_step(h, true) outside a chain's rows
          fail(FFTMUX_ERROR_INTERNAL, "R2C's post step without its table");
        k.positions = l.n + 1;
        k.mirror_lines = l.mirror;
      }
      k.scale = scale;
      int64_t values = wide ? 2 * opt.values_per_thread : l.mirror ? mirror_values(l.n) : 0;
      add(std::move(k), l.load.buffer, l.store.buffer, values);
      return;
    }
    if (!post.empty() && post.back().kind != Step::r2c_post)
      fail(FFTMUX_ERROR_INTERNAL, "post steps on a multi-pass line");
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
    if (k.load.access == Access::c2r && n2 % 2 == 0)
      k.mirror_lines = n2; // column j2's partners are column n2 - j2's elements
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
    if (!post.empty()) { // real_rows: the rows are one kernel, reading the roots split
      rows.mirror = n1;
      post.back().table = tables.half(2 * l.n, true);
    }
    line(rows, scale, post, base);
  }

  // A strided line (its neighbours adjacent in memory) is read in runs of
  // as many lines as share a workgroup: fewer than fill a 32-byte sector
  // and every sector is fetched several times, where two passes of long
  // runs cost one more read and write. H200 Vulkan, 4096^2 x8 (one line a
  // group in 48 KiB): 3.56 ms, 2.5x cuFFT's time; as a chain 1.93 ms.
  // Post steps and real or Hermitian sides stay in one kernel.
  bool one_kernel(const Line& l, bool post) const {
    if (l.n > single_limit())
      return false;
    bool complex = l.load.access == Access::complex && l.store.access == Access::complex;
    bool strided = preference(l.load) == minor || preference(l.store) == minor;
    return post || !complex || !strided || fills_sector(shared_scalars() / (l.n + 1)) ||
           !splits(l.n, 2);
  }

  // The largest radix of a half line with R2C's post or C2R's pre step
  // (and of a chain's rows with R2C's: real_rows): 16 up to 1024 points,
  // where radix 32 (32 x 32) puts 32 values in each of 32 threads and the
  // step's partners and twiddles come on top. H200, 1024
  // points as 16 x 8 x 8 on 64 threads:
  // R2C 2048 296-297 -> 277-278 us (cuFFT 274-276), C2R 2048 351 -> 325
  // (cuFFT 556). Longer lines keep it: R2C 16384 (32 x 16 x 16) 334-340,
  // at radix 16 386-387.
  uint32_t real_radix(const Line& l, bool post) const {
    bool real = post || l.load.access == Access::c2r;
    return real && l.n <= 1024 ? 16 : 32;
  }

  // A contiguous power-of-two line beyond the threads' reach at 16 values
  // a thread, up to twice it, in one kernel of 32 values a thread (radix
  // 32's budget) where one component fits shared memory (CUDA's 227 KiB,
  // F32). H200, 32768 points x4096, three processes each: one pass 999-1014
  // us, two passes 1090-1093 (cuFFT 1016). Not other lengths: ptxas spills
  // 5.6 KB a thread of 30000's kernel (32768's 420 bytes).
  bool wide_line(const Line& l, bool post) const {
    return !post && wide_length(l.n) && preference(l.load) == major && preference(l.store) == major;
  }
  bool wide_length(int64_t n) const {
    return 2 * opt.values_per_thread == 32 && (n & (n - 1)) == 0 && n > single_limit() &&
           n <= single_limit(2);
  }

  // The complex lines wide_line takes, where workgroups of a cluster read
  // each other's shared memory: a chain of columns of n / 4 points and rows
  // of 4 in one kernel, the rows across the cluster (clustered; its rows
  // store complex values only). H200, 32768 points x4096 (a prototype of
  // the kernel): 867-870 us against the wide line's
  // 960-980, cuFFT 1004-1016. Other shapes lost: 16384 as
  // 2 x 8192 715 us or 4 x 4096 849 against one kernel's 676, 32768 as 2 x
  // 16384 987 or 8 x 4096 1091, 65536 as 4 x 16384 1157 or 8 x 8192 1154
  // against two passes' 1064 (a group reads every 4th or 8th element, so
  // each 32-byte sector is fetched as often: 8 x 8192 reading contiguous
  // runs instead, a wrong transform, took 852).
  // Real transforms' half lines too, their reals contiguous: R2C's post
  // step in the rows (each output's partner X[h - k] from the groups'
  // shared memory as well), C2R's pre step in the columns' loads. H200
  // x2048: R2C 65536 553-557 us
  // against the two-pass chain's 682 (cuFFT 637-641), C2R 672-674 against
  // 689 (cuFFT 837-840; it reads X[h - l] from memory too).
  int64_t cluster_rows(const Line& l, const std::vector<Step>& post) const {
    if (dev.cluster < 4 || prec != Precision::f32)
      return 0;
    bool complex = l.load.access == Access::complex && l.store.access == Access::complex;
    auto reals = [&](const Side& s) {
      return s.access == Access::real_pair && stride(s, kElement) == 1;
    };
    bool r2c = post.size() == 1 && post[0].kind == Step::r2c_post && reals(l.load) &&
               l.store.access == Access::complex && preference(l.store) == major;
    bool c2r = post.empty() && l.load.access == Access::c2r && preference(l.load) == major &&
               reals(l.store);
    return (complex && wide_line(l, !post.empty())) ||
                   ((r2c || c2r) && opt.real_rows && wide_length(l.n))
               ? 4
               : 0;
  }

  // Options::sector_columns: the groups of a cluster (2 to Device::cluster
  // of them) take a line's columns sector_threads() at a time, adjacent in
  // memory, each group half a one-kernel line's values (two groups an SM,
  // as in the cluster of four above): on the H200 16384, 32768 and 65536
  // points as 2, 4 and 8 groups of 4 columns of 2048. The prototype's 8 x
  // 8192 took 852 us reading contiguous runs (a wrong transform) and 1154
  // reading every 8th element; two passes take 1064.
  int64_t sector_clusters(const Line& l, const std::vector<Step>& post) const {
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
  void clustered(const Line& l, int64_t c, int64_t g, double scale, const std::vector<Step>& post) {
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
    add(std::move(k), l.load.buffer, l.store.buffer, g > 1 ? 2 * opt.values_per_thread : 0);
    if (out.passes.back().kernel.teams != uint32_t(g))
      fail(FFTMUX_ERROR_INTERNAL, "a cluster's group does not hold its columns");
  }

  // Whether runs of this many adjacent complex elements fill a 32-byte sector.
  bool fills_sector(int64_t run) const { return run * 2 * scalar() >= 32; }

  // The digit of a strided side that is unit-stride there and fills a
  // 32-byte sector, else -1.
  int unit_digit(const Side& s, const std::vector<int64_t>& digits) const {
    if (stride(s, kElement) == 1 || s.access != Access::complex)
      return -1;
    for (size_t i = 0; i < digits.size(); ++i)
      if (fills_sector(digits[i]) && stride(s, int(i)) == 1)
        return int(i);
    return -1;
  }

  static Index position_index() { // the position alone: chirps, a spectrum
    Index i;
    i.terms = {{kElement, 1}};
    return i;
  }
  static Index product_index() { // position * digit 0: four-step twiddles
    Index i = position_index();
    i.product = 0;
    return i;
  }

  // The first factor of a four-step chain: about n^(1/levels), a divisor.
  // Where a line's own two-level chain (top: not the rows of a chain, which
  // must not add a pass) would take a column pass of short runs in large
  // groups (lone_column), three levels do, their first column ending small
  // (the rows' twiddles), the shorter of two equally near; under GL's cap
  // some chains of three start with 32 points (short_first), on CUDA some
  // chains of two end in rows of 1024 (rows_of_1024), or of 256 where they
  // make R2C's outputs (post) from columns of up to 1024 points: H200, CUDA
  // R2C 2^18 as 512 x 256 730 us
  // against 128 x 1024's 863 (256 x 512 864, 1024 x 128 895; cuFFT 872),
  // 2^19 as 1024 x 256 786 against 256 x 1024's 908 (512 x 512 894); 2^20
  // keeps 512 x 1024 (925 against 976 as 2048 x 256, 975 as 1024 x 512).
  int64_t column_length(int64_t n, bool top, bool post = false) {
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
    fail(FFTMUX_ERROR_UNSUPPORTED,
         "length " + std::to_string(n) + " needs more than 3 passes on this device");
  }

  // For n an odd power of two, the longer of its two factors nearest
  // sqrt(n) (2^23: 4096); else 0.
  static int64_t longer_root(int64_t n) {
    int64_t c = 1;
    while (c * c < n)
      c *= 2;
    return (n & (n - 1)) == 0 && c * c == 2 * n ? c : 0;
  }

  // Whether an F64 R2C chain over an odd power of two takes the longer
  // root as its columns: H200, F64
  // 65536 x2048 as 256 x 128 under CUDA 1248-1258 us against 128 x 256's
  // 1575 (cuFFT 1578-1592), under Vulkan 1452-1458 against 1383. F32 (CUDA)
  // 2^20 as 1024 x 512 1286-1288 against 898-908; 2^24 as 4096 x 2048
  // 1302-1309 against 1573-1591, where a mirror pass (real_rows) takes
  // 1188-1197. Keyed on launch bounds: CUDA's 128 x 256 ran its 128-point
  // columns in groups of 64 threads.
  bool long_f64_columns() const { return prec == Precision::f64 && dev.launch_bounds; }

  // Whether a column pass of c points would read runs under 64 bytes in
  // groups of 64 KiB of values or more (one or two a multiprocessor). H200,
  // CUDA, 2^24 x8: 4096 x 4096 (4 lines a group) 1984-1992 us, three passes
  // 128 x 512 x 256 1796-1802, 512 x 128 x 256 1811-1815, 256 x 256 x 256
  // 1876-1887 (cuFFT 1801-1802); 2^23 and 2^22 keep two passes of 8 lines
  // a group (three: 1750-1775 against 1702-1708, 1709-1735 against 1622-1629).
  // F32 only: F64 was not measured.
  bool lone_column(int64_t c) const {
    if (prec != Precision::f32)
      return false;
    int64_t lines = value_lines(c);
    return lines * c * 2 * scalar() >= (1 << 16) && lines * 2 * scalar() < 64;
  }

  // Where 1024 points take two stages (32 x 32) and 512 take three (radix
  // 32 from 1024 points: CUDA), an F32 chain of two passes over 2^17 to
  // 2^21 points takes rows of 1024. H200, CUDA: 2^17 as 128 x 1024
  // 1086-1092 us against 512 x 256's 1109-1118, 2^18 as 256 x 1024
  // 1114-1123 against 512 x 512's 1224-1234 (cuFFT 1182-1194); 2^19-2^21
  // had them already; 65536 as 64 x 1024 lost (1089-1093 against 256 x
  // 256's 1060-1063), 2^22 as 4096 x 1024 tied (1607-1612 against 1614-1618).
  // Keyed on the radices, not the dialect: a Vulkan or GL device granting
  // more than 48 KiB a group would take it too, unmeasured.
  bool rows_of_1024(int64_t n) const {
    int64_t lim = chain_limit(); // both passes must still fit (variants shrink it)
    return prec == Precision::f32 && (n & (n - 1)) == 0 && n >= (1 << 17) && n <= (1 << 21) &&
           lim >= 1024 && n / 1024 <= lim && radices(1024).size() == 2 && radices(512).size() == 3;
  }

  // Under a shared-memory cap (GL), an F32 chain of three passes whose other
  // two fit 512 points each starts with a 32-point column. H200, GL: 2^21 x64 as
  // 32 x 256 x 256 1755-1778 us against 128 x 128 x 128's 1956-1977, 2^22 as
  // 32 x 512 x 256 1834-1851 against 1973-1988, 2^23 1982-1986 against
  // 1996-2025; 2^24 as 32 x 1024 x 512 lost (2167-2272 against 1986-2027).
  bool short_first(int64_t n) const {
    return dev.sm_shared_bytes && prec == Precision::f32 && n % 32 == 0 && splits(n / 32, 2, 512);
  }

  // Whether a column of n points ends in a butterfly of at most 8 outputs
  // (Step::rows), which column_length prefers between two lengths equally
  // near its target. H200, generator v20, CUDA: 2^19 as 512 x 1024 0.83x
  // the time of 1024 x 512, 2^23 as 2048 x 4096 0.91x of 4096 x 2048, where
  // 2^17 as 256 x 512 took 1.07x of 512 x 256 and 2^21 as 1024 x 2048 1.23x
  // of 2048 x 1024; Vulkan's three passes, 2^22 as 128 x 128 x 256 0.91x of
  // 128 x 256 x 128, 2^23 as 256 x 128 x 256 0.92x (GL 0.99-1.02x).
  bool ends_small(int64_t n) const { return radices(n).back() <= max_row_radix; }

  // Whether n factors into at most `levels` lengths of at most lim points
  // (by default those a chain kernel takes).
  bool splits(int64_t n, int levels, int64_t lim = 0) const {
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

  // Bluestein's padded length for n, and when it needs passes over columns
  // and rows, its column length (0 for one kernel): the shortest 7-smooth
  // m from bluestein_length on that splits into a column chain kernel and a
  // row kernel.
  std::pair<int64_t, int64_t> bluestein_shape(int64_t n) const {
    int64_t m = bluestein_length(n);
    if (m <= single_limit(2))
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
    fail(FFTMUX_ERROR_UNSUPPORTED,
         "Bluestein for n = " + std::to_string(n) + " needs more than 3 passes on this device");
  }

  // ---- Bluestein: x * chirp, convolved with the conjugate chirp, * chirp ----

  void bluestein(const Line& l, double scale, bool r2c_post = false) {
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
      // A line that needs more than the target values on every thread a
      // group may have runs them at 64 registers (a multiprocessor's 64 K
      // over 1024): radix 9's butterfly spilled there (H200, 10007: 254 GB/s
      // with it, 355 before), and radix 16's (10007 as 20480 points: 330
      // GB/s, 445 with radix 8). Other lines take radix 32 as plain lines
      // do, since a thread holds one transform's values at a time: H200
      // 4093 and 4097 as 32 x 16 x 16
      // twice on 256 threads against 16 x 8 x 8 x 8 twice on 512, CUDA
      // 2405 -> 1678 us (cuFFT 2815), Vulkan 2502 -> 2032, OpenGL 3540 ->
      // 2482.
      uint32_t r = m > int64_t(dev.max_threads) * opt.values_per_thread ? 8 : 32;
      append(k.steps, stages(m, -1, false, r));
      k.steps.push_back(multiply(kt, position_index()));
      append(k.steps, stages(m, +1, false, r));
      chirped_store(k, n, ct, r2c_post);
      add(std::move(k), l.load.buffer, l.store.buffer);
      return;
    }
    if (r2c_post)
      fail(FFTMUX_ERROR_INTERNAL, "r2c post on a multi-pass Bluestein line");
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
    c1.load.axes[0].limit = n;
    c1.store = packed(base, m, l.digits, {{kElement, m2}, {0, 1}}, 1);
    c1.steps.push_back(multiply(ct, composite, n));
    std::vector<Step> forward = stages(m1, -1);
    append(c1.steps, forward);
    c1.steps.push_back(twiddles(m, m2, forward, -1));
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
    add(std::move(c3), Binding::scratch, l.store.buffer);
  }

  // Options::split_convolution: the chirped line's transform times the
  // kernel's spectrum into scratch, then its inverse times the chirp. Where
  // the fused kernel does not fit, two passes instead of three: H200
  // 7919 as 16384 under Vulkan 3933 ->
  // 2736 us, OpenGL 4580 -> 4131; F64 4093 under Vulkan 3181 -> 2893; the
  // routers' estimates take the variant there (fewer passes) until a
  // measurement says otherwise. A default rule would also have split what
  // other variants reach (10007 as 20480 under wide: a kernel llvmpipe
  // compiles in 100 s). Where the fused kernel fits, it won: CUDA 4093
  // 1678 us against 2055, F64 2166 against 2459; Vulkan 4093 2032
  // against 2917.
  void split_convolution(const Line& l, int64_t m, const Table& ct, double scale, bool r2c_post) {
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
    add(std::move(f), l.load.buffer, Binding::scratch);
    add(std::move(i), Binding::scratch, l.store.buffer);
  }

  // A convolution kernel of m points over line l, starting with the input
  // times the chirp.
  Kernel chirped_load(const Line& l, int64_t m, const Table& ct) const {
    Kernel k;
    k.length = m;
    k.digits = l.digits;
    k.load = l.load;
    k.load.axes[0].limit = l.n;
    k.steps.push_back(multiply(ct, position_index(), l.n));
    return k;
  }
  // Its end: times the chirp, then R2C's post step (n + 1 outputs) or a
  // store of n.
  void chirped_store(Kernel& k, int64_t n, const Table& ct, bool r2c_post) {
    k.steps.push_back(multiply(ct, position_index(), n));
    if (r2c_post) {
      k.steps.push_back(r2c_step(n));
      k.positions = n + 1;
    } else {
      k.store.axes[0].limit = std::min(k.store.axes[0].limit, n);
    }
  }

  static void append(std::vector<Step>& to, const std::vector<Step>& from) {
    to.insert(to.end(), from.begin(), from.end());
  }

  // chained: the rows of a chain make the outputs, and line() gives the
  // step their table.
  Step r2c_step(int64_t half, bool chained = false) {
    Step s;
    s.kind = Step::r2c_post;
    s.span = half; // the half length
    if (!chained)
      s.table = tables.half(2 * half);
    return s;
  }

  void any_line(const Line& l, double scale) {
    if (smooth(l.n))
      line(l, scale);
    else
      bluestein(l, scale);
  }

  // ---- the problem: one axis after another ----

  // One side of a pass along axis a (0..2, right-aligned) as a Line side:
  // the other axes and the batch become digits, fastest first.
  Side user_side(const plugin::Shape& s, Binding b, int a, int64_t length, bool shifted) const {
    Side side;
    side.buffer = b;
    side.access = s.complex ? Access::complex : Access::real;
    Axis main = axis({{kElement, 1}}, s.stride[a]);
    main.extent = length;
    main.shift = shifted ? length / 2 : 0;
    side.axes.push_back(main);
    int digit = 0;
    for (int x = FFTMUX_MAX_RANK - 1; x >= 0; --x)
      if (x != a && s.extent[x] > 1)
        side.axes.push_back(axis({{digit++, 1}}, s.stride[x]));
    if (d.batch > 1)
      side.axes.push_back(axis({{digit++, 1}}, s.distance));
    return side;
  }

  std::vector<int64_t> line_digits(const plugin::Shape& s, int a) const {
    std::vector<int64_t> g;
    for (int x = FFTMUX_MAX_RANK - 1; x >= 0; --x)
      if (x != a && s.extent[x] > 1)
        g.push_back(s.extent[x]);
    if (d.batch > 1)
      g.push_back(d.batch);
    return g;
  }

  struct Where {
    Binding b;
    plugin::Shape s;
  };

  void run() {
    plugin::Shape in = plugin::shape(d, true), outs = plugin::shape(d, false);
    bool shift_in = d.flags & FFTMUX_SHIFT_INPUT, shift_out = d.flags & FFTMUX_SHIFT_OUTPUT;
    bool in_place = d.flags & FFTMUX_IN_PLACE;
    const int last = FFTMUX_MAX_RANK - 1, first = FFTMUX_MAX_RANK - int(d.rank);
    std::vector<int> order; // axes in the order transformed
    for (int a = last; a >= first; --a)
      order.push_back(a);
    if (d.kind == FFTMUX_C2R) // the real axis last
      std::rotate(order.begin(), order.begin() + 1, order.end());
    // C2R with more axes out of place keeps its input intact: the complex
    // axes run from the input into a packed copy in scratch.
    bool staged = d.kind == FFTMUX_C2R && d.rank > 1 && !in_place;
    Where stage{Binding::scratch, plugin::packed(in)};
    if (staged)
      take(stage.s.distance * d.batch);
    const int64_t staging = reserved; // held by the staged copy through every axis
    summary << (d.kind == FFTMUX_C2C ? "c2c" : d.kind == FFTMUX_R2C ? "r2c" : "c2r");
    for (size_t i = 0; i < order.size(); ++i) {
      int a = order[i];
      bool first_pass = i == 0, last_pass = i + 1 == order.size();
      Where src{Binding::input, in}, dst{Binding::output, outs};
      if (!first_pass && d.kind != FFTMUX_C2R)
        src = dst;
      if (d.kind == FFTMUX_C2R && d.rank > 1) {
        Where mid = staged ? stage : Where{Binding::input, in};
        if (!first_pass)
          src = mid;
        if (!last_pass)
          dst = mid;
      }
      reserved = staging;
      int64_t n = d.n[a - first];
      double s = last_pass ? plugin::scale(d, sign) : 1.0;
      size_t before = out.passes.size();
      if (d.kind != FFTMUX_C2C && a == last) {
        real_line(a, n, src, dst, s, shift_in, shift_out);
      } else {
        Line l;
        l.n = n;
        l.load = user_side(src.s, src.b, a, n, shift_in);
        l.store = user_side(dst.s, dst.b, a, n, shift_out);
        l.digits = line_digits(src.s, a);
        any_line(l, s);
      }
      summary << (i ? "; " : " ") << "axis " << (a - first) << " n=" << n << " "
              << (smooth(n) || (d.kind != FFTMUX_C2C && a == last && n % 2 == 0 && smooth(n / 2))
                      ? "stockham"
                      : "bluestein")
              << " " << (out.passes.size() - before) << "p";
    }
  }

  // R2C or C2R along the last axis: a half-length complex line with the
  // two-for-one trick for even n; a full complex line with real input or a
  // Hermitian completion for odd n.
  void real_line(int a, int64_t n, const Where& src, const Where& dst, double scale, bool shift_in,
                 bool shift_out) {
    bool r2c = d.kind == FFTMUX_R2C;
    const Where& real = r2c ? src : dst;
    const Where& cplx = r2c ? dst : src;
    int64_t h = n / 2;
    Side rs = user_side(real.s, real.b, a, n, r2c ? shift_in : shift_out);
    Side cs = user_side(cplx.s, cplx.b, a, h + 1, false);
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
    rs.access = Access::real_pair;
    l.n = h;
    int64_t fits = smooth(h) ? h : bluestein_length(h);
    Line half = l; // as a cluster would take it
    half.load = r2c ? rs : cs;
    half.store = r2c ? cs : rs;
    if (!r2c)
      half.load.access = Access::c2r;
    Step post;
    post.kind = Step::r2c_post;
    // The fused r2c post-processing reads whole complex values from shared
    // memory: the line must fit it in both components (or a cluster's).
    bool fused =
        (fits <= single_limit(smooth(h) ? 1 : 2) &&
         (!r2c || 2 * (std::max(fits, h + 1) + 1) <= shared_scalars())) ||
        (smooth(h) && cluster_rows(half, r2c ? std::vector<Step>{post} : std::vector<Step>{}));
    // Or a chain with R2C's post step in its rows, C2R's pre step in its
    // columns.
    bool chained = !fused && (r2c ? real_rows(h) : real_columns(h));
    if (fused || chained) {
      if (r2c) {
        l.load = rs;
        l.store = cs;
        if (chained) // X[h] from row 0 alone
          l.store.axes[0].limit = h + 1;
        if (smooth(h))
          line(l, scale, {r2c_step(h, chained)});
        else
          bluestein(l, scale, true);
      } else {
        l.load = cs;
        l.load.access = Access::c2r;
        l.load.length = h;
        l.load.table = tables.half(n);
        l.load.table.conj = true;
        l.store = rs;
        any_line(l, scale);
      }
      return;
    }
    // Long lines: the half-length transform and a pointwise pass of the
    // pre/post-processing, through a packed copy of the half spectrum.
    int64_t lines = product(l.digits);
    Side z = packed(take(h * lines), h, l.digits, {{kElement, 1}});
    if (r2c) {
      l.load = rs;
      l.store = z;
      any_line(l, 1.0);
      mirror_pass(z, cs, l.digits, h, scale, Access::r2c);
    } else {
      mirror_pass(cs, z, l.digits, h, 1.0, Access::c2r);
      l.load = z;
      l.store = rs;
      any_line(l, scale);
    }
  }

  // A chain may take a real line's pre or post step: not where the driver
  // caps an SM's shared memory, where the rows need both components (a pass
  // of their own splits them) and one group fills the cap (H200 OpenGL, R2C
  // 2^20: 1145 us as three passes, 1507 and 4694 as two).
  bool real_chain(int64_t h) const {
    return opt.real_rows && smooth(h) && h > single_limit() && !dev.sm_shared_bytes;
  }
  // Whether a long R2C half line of h points can make its outputs in the
  // last pass of its chain, saving the pass of its own that reads and
  // writes the half spectrum once more: a chain of two passes whose rows
  // are one kernel with room for a pair of them (both components, padded
  // or staggered) in shared memory, an even count of rows, and enough of
  // them a group that the runs they store (half the lines: mirror pairs)
  // fill 32-byte sectors. H200: F32
  // R2C 2^24 x8 (4 rows of 4096 a group) 1258 us with the pass against
  // 1595 (cuFFT 1135-1140); Vulkan 2^21 (4 rows of 1024) 1058-1064 against
  // 1293-1296; F64's rows, whose runs of 2 fill a sector, lost (CUDA 2^23
  // 2290-2297 against 1845-1846, Vulkan 2^19 1968-1978 against 1594-1598).
  // F32 rows under Vulkan lost wherever measured, so they take the pass
  // (against v41's rows: 65536 838-840 us against 872-874, 2^17
  // 848-849 against 881-887, 2^18 911-920 against 942, 2^19 915-917
  // against 1091-1092, 2^20 998-1005 against 1160-1163); under CUDA
  // (launch bounds) the rows win or tie (the variant mirror-pass:
  // 2^20 894-901 against 916-917, 2^22 979-981 against 997, 2^23
  // 1133-1136 against 1135-1137).
  bool real_rows(int64_t h) {
    if (!real_chain(h))
      return false;
    int64_t n1 = column_length(h, true, true), n2 = h / n1;
    int64_t per_line = n2 + 2 + (n2 + 2) / 32 + 31;
    bool sectors = value_lines(n2) * scalar() >= 32;
    return n1 % 2 == 0 && n2 <= single_limit() && 4 * per_line <= shared_scalars() && sectors &&
           (dev.launch_bounds || prec == Precision::f64);
  }

  // Whether a long C2R half line of h points can take its pre step in its
  // chain's columns: where they pair twice the lines of a strided pass (so
  // each of a pair's runs is as long as its runs) in half of what a group
  // may hold in shared memory (both components), and no driver cap
  // makes one group fill an SM. H200, C2R 2^16-2^20 with 512-point columns
  // or shorter: 0.83-0.96x the time of a pass of their own (CUDA, 16 lines
  // a group; Vulkan 2^16 0.79x); with 1024-point ones, 1.05x (CUDA 2^21, 16
  // lines in 135 KiB), 1.54x (Vulkan 2^20, 4 in 48 KiB) and 1.18x (OpenGL
  // 2^20).
  bool real_columns(int64_t h) {
    if (!real_chain(h))
      return false;
    int64_t n1 = column_length(h, true);
    return 2 * mirror_teams() * (n1 + n1 / 32 + 1) <= shared_scalars() / 2;
  }

  // A pointwise pass making the r2c post- or c2r pre-processing of a line,
  // out of place. Each output k needs elements k and h - k, as does output
  // h - k: a thread walking k = 0 .. h / 2 makes both from the same two
  // reads (Kernel::mirror_pairs), where a thread a position read each
  // element twice through L2. H200,
  // against the pass a position with its chunks paired from both ends
  // (v42): CUDA C2R 2^21 902 us against 928-933, 2^22 982-991 against
  // 995-999, R2C 2^24 x8 1188-1198 against 1188-1191 (cuFFT 1123-1125);
  // Vulkan R2C 65536 819-826 against 842-846, C2R 2^20 980-986 against
  // 997-1007. The pairs share one mapping (the emitter keeps the mirror
  // beside its slot), so lines interleaved in memory, which load or store
  // through a second or flat mapping, take a position a thread.
  void mirror_pass(const Side& from, const Side& to, const std::vector<int64_t>& digits, int64_t h,
                   double scale, Access access, bool pairs = true) {
    int64_t count = access == Access::r2c ? h + 1 : h;
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
    k.mirror_pairs = pairs ? count : 0;
    add(std::move(k), from.buffer, to.buffer);
    const Kernel& made = out.passes.back().kernel;
    if (made.mirror_pairs &&
        (made.load_flat || made.store_flat || made.load_alt || made.store_alt)) {
      out.passes.pop_back();
      mirror_pass(from, to, digits, h, scale, access, false);
    }
  }
};

} // namespace

// Unit stride on the line, whose own term 2 l is even, and an even stride
// on every other axis. NVRTC merged neither of two 4-byte loads; H200, one
// load a pair: R2C 1024 337-340 -> 324-331 us, 16384 376 -> 357-360, C2R
// 2^20 992 -> 916-922 (cuFFT 269, 347, 1210).
bool paired(const Side& side) {
  if (side.axes[0].shift || side.axes[0].stride != 1)
    return false;
  for (size_t i = 1; i < side.axes.size(); ++i)
    if (side.axes[i].stride % 2)
      return false;
  return true;
}

int64_t first_element(const Side& side) {
  int64_t e = 0;
  for (const Axis& a : side.axes)
    e += a.offset * a.stride;
  return e;
}

int64_t stride(const Side& s, int coord) {
  int64_t st = 0;
  for (const Axis& a : s.axes)
    for (const Term& t : a.terms)
      if (t.coord == coord)
        st += t.coef * a.stride;
  return st;
}

uint64_t side_bytes(const fftmux_desc& desc, bool input) {
  return plugin::side_bytes(desc, input);
}

Plan plan(const fftmux_desc& desc, int direction, const Device& device, const Options& options) {
  if (desc.precision == FFTMUX_F64 && !device.f64)
    throw Unsupported("the device has no double precision (shaderFloat64)");
  if ((desc.kind == FFTMUX_R2C && direction != FFTMUX_FORWARD) ||
      (desc.kind == FFTMUX_C2R && direction != FFTMUX_INVERSE))
    throw Unsupported("r2c runs forward only, c2r inverse only");
  Plan p;
  Planner planner(desc, direction, device, options, p);
  try {
    planner.run();
  } catch (const plugin::Failure& f) {
    throw Unsupported(f.what());
  }
  p.summary = planner.summary.str();
  return p;
}

} // namespace fftmux::codegen
