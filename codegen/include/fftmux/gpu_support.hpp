// What every GPU backend does around the generator, whatever its API: the
// variants it offers the autotuner, planning both directions of a problem
// within the device's buffer limit, splitting a dispatch over the grid,
// the twiddle table in the kernel's precision, cache keys, a first
// estimate. Kept here so the Vulkan, OpenGL and CUDA plugins share one copy.
#pragma once

#include <fftmux/codegen.hpp>
#include <fftmux/plugin_support.hpp>

#include <chrono>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fftmux::codegen {

// Generator options by name: a backend's variants, the preferred first.
struct Variant {
  const char* name;
  Options options;
};
const std::vector<Variant>& variants();
// The options of variant index i; throws plugin::Failure (invalid argument)
// naming the backend when i is out of range.
const Options& variant_options(uint32_t i, const char* backend);
// The variant names as a C array that lives as long as the program.
const char* const* variant_names();
// What a variant leaves open, filled in for the kind of device: a CPU
// (lavapipe, llvmpipe) holds 4 values a thread in 256-invocation groups, a
// GPU ~64-invocation groups.
Options device_defaults(Options o, bool cpu);
// What a dialect's compiler runs well, on top of the limits its API
// reports (OpenGL: no radix 27, composites above 16 from 2048 points, 64 KiB
// of shared memory an SM; Vulkan: a quarter of the register file for a
// group's values).
Device dialect_limits(Device d, Dialect dialect);

// FFTMUX_FORWARD and/or FFTMUX_INVERSE: what a plan of desc runs.
std::vector<int> directions(const fftmux_desc& desc);

// Bytes of one complex element of desc's precision.
inline uint64_t complex_bytes(const fftmux_desc& d) {
  return d.precision == FFTMUX_F64 ? 16 : 8;
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
// made again, plan once and emit and compute tables at most once. Lavapipe,
// 4096 points: a warm plan spent 80 % of its 11 ms planning again and
// computing tables. Thread-safe; throws what plan_all throws (declined
// problems are not remembered).
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
plugin::Work work(const std::vector<Chunk>& chunks, const fftmux_desc& desc);

// One dispatch of a kernel: an x * y grid of workgroups whose linear index
// starts at offset (the kernel's group_offset). Kernels ignore the excess
// workgroups of the last dispatch.
struct Dispatch {
  uint32_t x, y, offset;
};
std::vector<Dispatch> dispatches(uint64_t groups, uint32_t max_x, uint32_t max_y);

// The plan's table as the kernels read it: complex values of precision p.
std::vector<unsigned char> table_bytes(const Plan& plan, Precision p);

// Waits for a fence: on a GPU (cpu = false) polls done() for up to 5 ms,
// then calls block() (the driver's sleeping wait) if it has still not
// signalled. NVIDIA's sleeping waits (GL and Vulkan) wake up tens to
// hundreds of us after the work: H200 Vulkan, one process per plan, polling
// 3 ms instead of 100 us took 4096 points (2^27 elements a call) from 580
// to 532 us, 2^20 1508 -> 1433, 2^21 1718 -> 1636, 2^22 2034 -> 1808, where
// cuFFT's synchronisation spins too. Longer work sleeps after 5 ms, so a
// waiting thread holds its core at most that long. A CPU driver (lavapipe,
// llvmpipe) blocks at once: polling would take a core from the threads
// that do the work.
template <class Done, class Block> void wait_fence(bool cpu, Done&& done, Block&& block) {
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
  while (!cpu && std::chrono::steady_clock::now() < end)
    if (done())
      return;
  block();
}

// A 64-bit FNV-1a hash as 16 hex digits: names of disk cache entries.
std::string hash_hex(const std::string& text);

// Bytes as lowercase hex digits: device and driver UUIDs in hardware keys.
std::string bytes_hex(const unsigned char* bytes, size_t n);

// A guess of one execution's time before anything is measured: every pass
// reads and writes the data once at bandwidth (bytes/s), launch seconds per
// pass, plus the transfers of a HOST plan at host_bandwidth.
double estimate_seconds(const fftmux_desc& desc, size_t passes, double bandwidth, double launch,
                        double host_bandwidth);

// A device's compiled kernels (pipelines, programs; Vulkan's uploaded tables
// too) by key: found while any plan holds them, and the most recent `keep` of
// them held after their plans are gone, so a plan made again in the process
// compiles and loads nothing. Keys of kernels gone are dropped at the next
// add. Not synchronized: its owner serializes the calls.
template <class T> class KernelCache {
public:
  explicit KernelCache(size_t keep) : keep_(keep) {}
  std::shared_ptr<T> find(const std::string& key) const {
    auto it = live_.find(key);
    return it == live_.end() ? nullptr : it->second.lock();
  }
  void add(const std::string& key, std::shared_ptr<T> kernel) {
    for (auto it = live_.begin(); it != live_.end();) // keys of kernels gone
      it = it->second.expired() ? live_.erase(it) : std::next(it);
    live_[key] = kernel;
    kept_.push_back(std::move(kernel));
    if (kept_.size() > keep_) // plans still hold theirs
      kept_.erase(kept_.begin());
  }
  size_t keys() const { return live_.size(); }
  void clear() { // the kernels die here, where the caller's API context is current
    kept_.clear();
    live_.clear();
  }

private:
  size_t keep_;
  std::map<std::string, std::weak_ptr<T>> live_;
  std::vector<std::shared_ptr<T>> kept_; // oldest first
};

} // namespace fftmux::codegen
