// The threads of a line: a count dividing every stage near the target values a thread, else the one
// leaving the fewest idle.
#include "plan/planner.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace fftmux::codegen::planning {

// Threads of kernel k at about E values each: at least a sector's under a cap (spread), twice the
// values where two groups then share an SM.
uint32_t Planner::pick_threads(const Kernel& k, int64_t E) const {
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
uint32_t Planner::threads_for(const Kernel& k, int64_t E) const {
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
  // Distance from E values a thread; above E counts triple, as registers limit the groups an SM
  // holds. (docs/codegen-rules.md: threads_for)
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
bool Planner::multiplies(const Kernel& k) {
  for (const Step& s : k.steps)
    if (s.kind == Step::multiply)
      return true;
  return false;
}

// Whether every table the kernel multiplies by is indexed by the position
// alone (a split convolution's chirp and spectrum; four-step twiddles and
// three-pass convolutions index theirs by a digit too).
bool Planner::by_position(const Kernel& k) {
  for (const Step& s : k.steps)
    if (s.kind == Step::multiply &&
        (s.index.terms.size() != 1 || s.index.terms[0].coord != kElement ||
         s.index.product != kNone))
      return false;
  return true;
}

// A line whose group takes most of the shared memory: it runs alone on
// its multiprocessor.
bool Planner::alone(const Kernel& k) const {
  return 4 * k.length * scalar() > int64_t(dev.shared_bytes);
}

// A long plain line (no convolution, no four-step twiddles) whose group leaves shared memory for
// one or two more: twice the values a thread lets two groups fit an SM.
// (docs/codegen-rules.md: shares_with_one_or_two)
bool Planner::shares_with_one_or_two(const Kernel& k) const {
  if (multiplies(k))
    return false;
  return k.length >= 8192 && !alone(k) && 8 * k.length * scalar() > int64_t(dev.shared_bytes);
}

// No thread count divides every stage: the one issuing the fewest butterfly slots within
// `registers` values (a line alone on its SM: fewest rounds, most threads).
// (docs/codegen-rules.md: fewest_idle)
uint32_t Planner::fewest_idle(const Kernel& k, int64_t registers) const {
  bool lone = alone(k);
  // A convolution alone has the 64K-register file to itself: p threads may hold what min(255, 64K /
  // p) registers leave after some 40 for addresses and chirps.
  // (docs/codegen-rules.md: fewest_idle: a convolution alone)
  bool whole_file = lone && multiplies(k);
  auto room = [&](int64_t p) {
    return whole_file ? (std::min<int64_t>(255, (1 << 16) / p) - 40) * 2 / scalar() : registers;
  };
  std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t> best{std::numeric_limits<int64_t>::max(),
                                                               0, 0, 0, 0};
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

} // namespace fftmux::codegen::planning
