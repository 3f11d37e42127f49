// A kernel's derived sizes (Kernel's members): its transforms, groups and shared-memory layout, as
// the planner shapes them and the emitter lays them out.
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// Whether the kernel ends with the r2c post-processing, which reads both
// components of a position at once (so its exchange cannot be split).
bool r2c_post(const Kernel& k) {
  return std::any_of(k.steps.begin(), k.steps.end(),
                     [](const Step& s) { return s.kind == Step::r2c_post; });
}

} // namespace fftmux::codegen::planning

namespace fftmux::codegen {

using planning::r2c_post;

int64_t Kernel::transforms() const {
  return planning::product(digits);
}

uint64_t Kernel::groups() const {
  return uint64_t((transforms() + teams - 1) / teams);
}

uint32_t Kernel::shared_scalars() const {
  int stages = 0;
  for (const Step& s : steps)
    stages += s.kind == Step::stage;
  bool exchanges = load_mapping != Mapping::direct || store_mapping != Mapping::direct ||
                   stages > 1 || r2c_post(*this);
  // A cluster's groups leave their columns in shared memory, both components.
  uint32_t rows = cluster > 1 ? uint32_t(2 * cluster_column_stride() * cluster_columns) : 0;
  if (exchange == Exchange::streamed)
    return uint32_t(stream_offset() + 2 * length);
  if (!exchanges)
    return rows;
  return std::max(rows, uint32_t(component_scalars() * (exchange == Exchange::whole ? 2 : 1)));
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
  return exchange == Exchange::chunked ? ((l + chunks - 1) / chunks + 31) / 32 * 32 : l;
}

int64_t Kernel::line_scalars() const {
  if (exchange == Exchange::chunked)
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

} // namespace fftmux::codegen
