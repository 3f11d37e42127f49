// What the device and the options allow: the longest lines of one kernel and of a chain, and when
// lines spread under a shared-memory cap.
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// Bytes of a scalar in the problem's precision.
uint32_t Planner::scalar() const {
  return prec == Precision::f64 ? 8 : 4;
}

// Scalars of that precision that a workgroup's shared memory holds.
int64_t Planner::shared_scalars() const {
  return dev.shared_bytes / scalar();
}

// Longest line one kernel transforms: one component fits shared memory (or max_chunks chunks of
// it) and a thread holds at most the target registers (twice that for a Bluestein convolution,
// which is never chunked), where one kernel beats two or three.
// (docs/codegen-rules.md: single_limit)
int64_t Planner::single_limit(int64_t registers) const {
  int64_t l = std::min<int64_t>(registers == 1 ? chunked_reach() : shared_scalars(),
                                int64_t(dev.max_threads) * registers * opt.values_per_thread);
  return opt.max_single ? std::min<int64_t>(l, opt.max_single) : l;
}

// The longest line max_chunks chunks cover: a chunk is a multiple of
// 32 positions whose padded words (c + c / 32 + 1, Kernel::component_scalars)
// fit shared memory.
int64_t Planner::chunked_reach() const {
  return (shared_scalars() - 1) * 32 / 33 / 32 * 32 * max_chunks;
}

// Longest line of a multi-pass kernel: coalesce_teams lines share a workgroup.
int64_t Planner::chain_limit() const {
  return std::max<int64_t>(16, std::min(single_limit(), shared_scalars() / opt.coalesce_teams));
}

// Threads whose values of one row fill a 32-byte sector (4 in F32).
int64_t Planner::sector_threads() const {
  return 32 / (2 * scalar());
}

// Under a driver cap on an SM's shared memory (GL), lines of 16 points or more spread over a
// sector's threads and load directly, as staging through the capped memory is slower.
// (docs/codegen-rules.md: spread)
bool Planner::spread(int64_t n) const {
  return dev.sm_shared_bytes && n >= 16;
}

// Whether runs of this many adjacent complex elements fill a 32-byte sector.
bool Planner::fills_sector(int64_t run) const {
  return run * 2 * scalar() >= 32;
}

} // namespace fftmux::codegen::planning
