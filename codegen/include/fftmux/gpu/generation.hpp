// Generating a problem for a GPU backend: both directions planned within the
// device's buffer limit, remembered with their sources and tables, split
// into batch chunks where one binding cannot hold the problem, and what a
// query reports of them (work, cache keys, a first estimate).
#pragma once

#include <fftmux/codegen.hpp>
#include <fftmux/desc_geometry.hpp>
#include <fftmux/plugin.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fftmux::codegen {

// What the generated kernels run beyond the first release's API, for the GPU plugins' tables:
// 16-bit storage, real-to-real kinds, padded sides and a fused product.
constexpr uint32_t generated_caps =
    FFTMUX_CAP_F16 | FFTMUX_CAP_BF16 | FFTMUX_CAP_R2R | FFTMUX_CAP_PADDING | FFTMUX_CAP_PRODUCT;

// FFTMUX_FORWARD and/or FFTMUX_INVERSE: what a plan of desc runs.
std::vector<int> directions(const fftmux_desc& desc);

// Bytes of one complex element of the caller's data in desc's precision.
inline uint64_t complex_bytes(const fftmux_desc& d) {
  return 2 * geometry::scalar_bytes(d.precision);
}

// The kernels' arithmetic: F64 for F64, else F32 (16-bit storage included).
inline Precision arithmetic(const fftmux_desc& d) {
  return d.precision == FFTMUX_F64 ? Precision::f64 : Precision::f32;
}

// Bytes of one complex element of scratch and tables: the arithmetic's.
inline uint64_t arithmetic_bytes(const fftmux_desc& d) {
  return arithmetic(d) == Precision::f64 ? 16 : 8;
}

// Both directions of a problem, planned, with the buffer sizes they need.
struct Planned {
  std::vector<int> directions; // matching plans
  std::vector<Plan> plans;
  uint64_t in_bytes = 0, out_bytes = 0; // the caller's sides
  uint64_t scratch_bytes = 0;           // the largest scratch of the directions
  size_t passes = 0;                    // the most passes of a direction
};
// Throws Unsupported when the generator declines or a buffer (sides,
// scratch, table) exceeds max_buffer_bytes, the largest buffer one binding
// may address.
Planned plan_all(const fftmux_desc& desc, const Device& device, const Options& options,
                 uint64_t max_buffer_bytes);

// Both directions planned for one dialect; the sources and tables are made
// by their first caller (a router's query needs the plan alone).
class Generated {
public:
  Planned planned;
  Precision precision = Precision::f32;
  Dialect dialect = Dialect::vulkan;
  const std::vector<std::string>& sources() const;         // the passes of planned.plans, in order
  const std::vector<unsigned char>& table(size_t i) const; // plan i's, the kernels' precision
  // A hash of every kernel and launch of both directions: equal exactly for
  // the same code.
  const std::string& fingerprint() const;

private:
  mutable std::once_flag sources_once_, tables_once_, fingerprint_once_;
  mutable std::vector<std::string> sources_;
  mutable std::vector<std::vector<unsigned char>> tables_;
  mutable std::string fingerprint_;
};
// plan_all, remembered: the process keeps the most recent 256, so a
// router's queries (one per variant) and the plan made after them, or a plan
// made again, plan once and emit and compute tables at most once.
// Thread-safe; throws what plan_all throws (declined problems are not
// remembered). (docs/codegen-rules.md: generate)
std::shared_ptr<const Generated> generate(const fftmux_desc& desc, const Device& device,
                                          const Options& options, uint64_t max_buffer_bytes,
                                          Dialect dialect);

// Batches [first, first + count) of a problem, generated as a problem of
// their own: its buffers bound at the offsets of batch `first`.
struct Chunk {
  int64_t first = 0, count = 0;
  std::shared_ptr<const Generated> generated;
};
// How the chunks run, one line for explain() and the benchmarks: the last
// direction's plan summary of the first chunk, and the chunk count.
std::string summary(const std::vector<Chunk>& chunks);
// The problem as one chunk where its buffers fit one binding; else as
// chunks of the largest batch count (halved until it fits) whose offsets
// are multiples of offset_align bytes, the remainder as one more. Throws
// what generate throws where not even that helps (the limit is not the
// batch's, or one transform is too large).
std::vector<Chunk> generate_chunks(const fftmux_desc& desc, const Device& device,
                                   const Options& options, uint64_t max_buffer_bytes,
                                   Dialect dialect, uint64_t offset_align);
// Bytes from batch 0 to batch `first` on a side.
uint64_t batch_offset(const fftmux_desc& desc, bool input, int64_t first);
// Where the chunk from batch `first` binds buffer b: input and output at
// their batch offsets, the scratch (which the chunks share) at 0.
uint64_t binding_offset(const fftmux_desc& desc, Binding b, int64_t first);

// The work of one execution in the problem's own direction, as a query
// reports it (plugin.h): a launch, one load and one store of its lines and
// their butterflies' flops per pass, the sides over the bus for HOST plans,
// and a fingerprint of every kernel and launch of both directions.
struct Work {
  double launches = 0, device_bytes = 0, host_bytes = 0, flops = 0;
  std::string fingerprint; // equal exactly for variants that run the same code
};
Work work(const std::vector<Chunk>& chunks, const fftmux_desc& desc);

// The plan's table as the kernels read it: complex values of precision p.
std::vector<unsigned char> table_bytes(const Plan& plan, Precision p);

// A 64-bit FNV-1a hash as 16 hex digits: names of disk cache entries.
std::string hash_hex(const std::string& text);

// Bytes as lowercase hex digits: device and driver UUIDs in hardware keys.
std::string bytes_hex(const unsigned char* bytes, size_t n);

// A guess of one execution's time before anything is measured: every pass
// reads and writes the data once at bandwidth (bytes/s), launch seconds per
// pass, plus the transfers of a HOST plan at host_bandwidth.
double estimate_seconds(const fftmux_desc& desc, size_t passes, double bandwidth, double launch,
                        double host_bandwidth);

} // namespace fftmux::codegen
