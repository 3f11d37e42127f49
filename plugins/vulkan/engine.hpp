// The Vulkan engine: a device, its buffers and compiled plans. The plugin
// (vulkan_backend.cpp) and benchmarks/vulkan_bench.cpp both use it.
#pragma once

#include "vk.hpp"

#include <fftmux/codegen.hpp>
#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/kernel_cache.hpp>
#include <fftmux/gpu/variants.hpp> // the options its users pick
#include <fftmux/plugin.h>

#include <array>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fftmux::vulkan {

struct Settings {
  int device = -1; // index in the driver's order; -1: discrete GPU first
  // Longest line one kernel transforms (0: what shared memory holds); lower
  // values force multi-pass plans, for tests on slow drivers.
  uint32_t single_pass_limit = 0;
  // spirv-opt on the compiled kernels: 1 always, 0 never, -1 on GPUs only
  // (a CPU device's LLVM does that work itself).
  int spirv_opt = -1;
  // Bytes one binding addresses, below the device's maxStorageBufferRange
  // (0: that range); lower values make plans run in batch chunks, for tests.
  uint64_t max_binding_bytes = 0;
  // The application's device (fftmux_native_device handles): VkInstance,
  // VkPhysicalDevice, VkDevice, queue family, queue index, flags (bit 0:
  // shaderFloat64 enabled). Empty: the backend creates its own.
  std::vector<uint64_t> native;
  // The driver's statistics and text forms of each pipeline (registers,
  // shared memory..., IRs; VK_KHR_pipeline_executable_properties), for
  // vulkan_bench --stats.
  bool statistics = false;
  // Kernels address the buffers through device addresses in push constants
  // (codegen::Dialect::vulkan_pointers, VK_KHR_buffer_device_address)
  // instead of descriptors (config `pointers`, vulkan_bench --pointers): an
  // experiment; a wrapped VkBuffer then needs the device-address usage,
  // which the backend's own buffers have.
  bool pointers = false;
  // Device buffers never mapped, even where their memory is host-visible:
  // writes and reads go through the staging buffer as on a discrete GPU
  // (config `staging`), for tests on unified-memory drivers (lavapipe).
  bool staging = false;
  std::string cache_dir; // SPIR-V and pipeline cache; empty: no disk cache
  // Atomic file replacement (the host's write_file); nullptr: plain write.
  std::function<void(const std::string&, const std::vector<char>&)> write_file;
};

class Device;
class Buffer;

// A compute pipeline of one kernel source, shared by the plans that run it.
struct Pipeline {
  Pipeline(Device& d, std::string source, const std::vector<uint32_t>& spirv);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  Device& d;
  const std::string source;
  VkPipeline handle = VK_NULL_HANDLE;
};

// The device and everything shared by its plans.
class Device {
public:
  explicit Device(const Settings& s); // throws plugin::Failure with the reason
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  vk::Api api;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceMemoryProperties memory{};
  uint32_t subgroup = 1;
  bool f64 = false;
  bool statistics = false; // Settings::statistics, where the driver has the extension
  std::string device_uuid, driver_uuid, driver_name;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  std::mutex queue_mutex; // queue submission and the command pool
  Settings settings;

  codegen::Device limits() const;
  codegen::Dialect dialect() const; // the GLSL its kernels are written in (Settings::pointers)
  // Options with the device's defaults filled in: CPU devices (lavapipe)
  // run long straight-line kernels slowly, so they get few values per thread.
  codegen::Options tuned(codegen::Options o) const;
  // The problem planned for this device, its kernels in GLSL, in chunks of
  // its batch where its buffers exceed what one binding addresses.
  std::vector<codegen::Chunk> generated(const fftmux_desc& desc, const codegen::Options& o) const;
  uint64_t binding_limit() const;   // bytes one storage-buffer binding addresses
  std::string description() const;  // one line for the device listing
  std::string hardware_key() const; // the tuning cache's identity of engine, device and driver
  std::string cache_key() const;    // device and driver, for the SPIR-V cache

  uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags want,
                       VkMemoryPropertyFlags avoid) const;
  // One command buffer, recorded by record, submitted and waited for.
  void run_once(const std::function<void(VkCommandBuffer)>& record);
  void save_pipeline_cache();
  // See Settings::statistics.
  std::string pipeline_statistics(VkPipeline pipeline) const;
  std::vector<std::pair<std::string, std::string>>
  pipeline_representations(VkPipeline pipeline) const;
  void idle(); // waits until the queue has no work left
  // Waits for a fence (codegen::wait_fence: polled first on GPUs, where the
  // driver's sleeping wait woke late; H200: 44 -> 21 us a call at 128x128).
  void wait(VkFence fence, const char* what);

  // The pipeline of a kernel source that a plan holds or that is among the
  // kKeptPipelines most recent, or null. A plan made again then creates none
  // (drivers that keep no pipeline cache, as lavapipe, compile every
  // pipeline again: 13-60 ms a plan).
  std::shared_ptr<const Pipeline> find_pipeline(const std::string& source);
  // Creates the pipeline of source from its SPIR-V and keeps it for later
  // plans.
  std::shared_ptr<const Pipeline> add_pipeline(const std::string& source,
                                               const std::vector<uint32_t>& spirv);
  static constexpr size_t kKeptPipelines = 128;
  // A scratch buffer of at least `bytes`, shared with the live plans (one
  // queue runs their passes one after another, each behind a barrier) and
  // kept after them until a larger one is needed or the device closes:
  // allocating and freeing a GiB took the H200 45-105 ms, nearly all of a
  // warm multi-pass plan's time.
  std::shared_ptr<Buffer> scratch(uint64_t bytes);
  // A device buffer holding these table bytes, shared by the plans that need
  // the same table and kept, like pipelines, for the most recent after them:
  // its allocation and upload were most of a warm plan's 4-5 ms on the H200.
  std::shared_ptr<const Buffer> table(const std::vector<unsigned char>& bytes);
  // Runs move(stage) with a host-visible buffer of at least `bytes`, held by
  // this thread alone: the one the device keeps for the writes and reads of
  // unmapped buffers, grown to the largest transfer (each made its own).
  void staged(uint64_t bytes, const std::function<void(Buffer& stage)>& move);

private:
  std::vector<VkPhysicalDevice> physical_devices() const; // the instance's
  std::vector<VkQueueFamilyProperties> queue_families(VkPhysicalDevice p) const;
  void pick(const Settings& s);
  void create(const Settings& s);
  void adopt(const std::vector<uint64_t>& h);
  void describe(const VkPhysicalDeviceFeatures& feats);
  void create_device(const VkPhysicalDeviceFeatures& feats);
  bool has_extension(const char* name) const;
  bool adopted_ = false;        // the application's instance and device: not destroyed here
  std::future<void> glsl_warm_; // warm_glsl(), joined before the device goes
  std::mutex pipelines_mutex_;
  codegen::KernelCache<const Pipeline> pipelines_{kKeptPipelines}; // by source hash
  std::mutex tables_mutex_;
  codegen::KernelCache<const Buffer> tables_{kKeptPipelines}; // by content
  std::mutex scratch_mutex_;
  std::shared_ptr<Buffer> scratch_; // the latest, plans may hold older ones
  std::mutex staging_mutex_;
  std::unique_ptr<Buffer> staging_; // staged()'s
};

// A storage buffer on the device (owned, or a caller's VkBuffer wrapped).
class Buffer {
public:
  Buffer(Device& d, uint64_t bytes, bool host_visible = false);
  Buffer(Device& d, VkBuffer wrapped, uint64_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void write(uint64_t offset, const void* src, uint64_t bytes);
  void read(uint64_t offset, void* dst, uint64_t bytes);
  VkBuffer handle() const { return buffer_; }
  uint64_t address() const; // the device address (Settings::pointers only)
  uint64_t size() const { return size_; }
  void* mapped() const { return mapped_; }

private:
  // Throws INVALID_ARGUMENT where [offset, offset + bytes) leaves the buffer.
  void range(uint64_t offset, uint64_t bytes, const char* what) const;

  Device& d_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory mem_ = VK_NULL_HANDLE;
  uint64_t size_ = 0;
  void* mapped_ = nullptr;
  bool owned_ = true;
};

// shaderc's performance level applied to unoptimized SPIR-V: debug
// information stripped, then spirv-opt's performance passes, but without
// validating the input first (shaderc validates glslang's output before
// optimizing it). The same words (test vulkan.spirv).
std::vector<uint32_t> optimized(const std::vector<uint32_t>& spirv);

// Builds glslang's built-in symbol tables for the dialect's GLSL version,
// which a process's first compile otherwise waits for (development VM: 77
// ms), while the device opens.
void warm_glsl(codegen::Dialect dialect);

// GLSL -> SPIR-V with shaderc, cached on disk under <cache>/vulkan/spirv.
// convolution: the kernel is a whole Bluestein convolution.
std::vector<uint32_t> compile(Device& d, const std::string& source, const std::string& name,
                              bool convolution = false, bool* from_cache = nullptr);

// A planned transform: pipelines per direction, recorded command buffers
// per (direction, buffers), resubmitted on every execution.
class Plan {
public:
  Plan(Device& d, const fftmux_desc& desc, const codegen::Options& options);
  ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  void execute(int direction, const void* in, void* out);       // host memory, waits
  void execute_buffers(int direction, Buffer& in, Buffer& out); // submits
  void synchronize();
  // Records the passes of direction on (in, out) into cmd: for benchmarks
  // that time repeats with their own timestamps (after_pass, if given, is
  // recorded after each pass and its barrier).
  void record(VkCommandBuffer cmd, int direction, Buffer& in, Buffer& out,
              const std::function<void(VkCommandBuffer)>& after_pass = {});
  const std::string& summary() const { return summary_; }
  size_t passes() const;              // kernels per execution (all chunks), the longest direction
  size_t passes(int direction) const; // kernels per execution of direction (all chunks)
  // Each pass of direction: its kernel's name and its pipeline (for the
  // driver's statistics, Settings::statistics).
  std::vector<std::pair<std::string, VkPipeline>> pass_pipelines(int direction);
  // What making the plan's pipelines took, for benchmarks: kernels compiled
  // from GLSL now or read from the disk cache (not those made earlier in
  // the process), and over them the sums of the time from GLSL to SPIR-V
  // (shaderc, or the cache read) and of the driver's pipeline creation.
  // The kernels are made in parallel: the sums may exceed the plan's time.
  struct Making {
    int compiled = 0, cached = 0;
    double glsl_seconds = 0, driver_seconds = 0;
  };
  const Making& making() const { return making_; }

private:
  struct Pass {
    codegen::Kernel kernel;
    codegen::Binding src, dst;
    std::shared_ptr<const Pipeline> pipeline;
  };
  struct Direction {
    std::vector<Pass> passes;
    std::shared_ptr<const Buffer> table;
  };
  // Batches from `first` on, bound at their offsets (all of them where the
  // buffers fit one binding).
  struct Chunk {
    int64_t first = 0;
    std::map<int, Direction> dirs;
  };
  // One copy of a recording's command buffer and the fence of its latest
  // submission.
  struct Submission {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    bool pending = false;
  };
  // Executions in flight per recording: a command buffer cannot be submitted
  // again before it completes, and with one copy each call waited for the
  // previous one, leaving the GPU idle from its end until the host woke and
  // submitted again.
  static constexpr size_t kInFlight = 3;
  struct Recording {
    int direction;
    VkBuffer in, out;
    bool host = false; // through the staging buffers: copies, passes, copies
    VkDescriptorPool pool = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> sets; // one per pass of each chunk
    // Settings::pointers: src, dst and table addresses per pass of each chunk.
    std::vector<std::array<uint64_t, 3>> addresses;
    std::array<Submission, kInFlight> copies;
    size_t next = 0; // the copy the next execution submits
  };

  Direction& dir(int direction, size_t chunk = 0);
  std::vector<std::vector<std::shared_ptr<const Pipeline>>>
  pipelines(const std::vector<const codegen::Generated*>& gens);
  Recording& recording(int direction, Buffer& in, Buffer& out, bool host);
  void bind(Recording& r, Direction& d, Buffer& in, Buffer& out);
  void wait(Recording& r); // every execution of r
  void wait(Submission& s);
  // The passes, with r's bindings.
  void encode(VkCommandBuffer cmd, const Recording& r,
              const std::function<void(VkCommandBuffer)>& after_pass = {});
  // Submits r's command buffer, recorded by body the first time.
  void submit(Recording& r, const std::function<void(VkCommandBuffer)>& body);
  void host_buffers();
  void release(Recording& r);
  uint64_t dense_out_bytes() const; // the output's elements alone

  Device& d_;
  fftmux_desc desc_;
  std::vector<Chunk> chunks_;
  std::shared_ptr<Buffer> scratch_;
  // HOST placement: device buffers, and host-visible ones the data is
  // staged in (one for both sides in place), made at the first execute.
  std::unique_ptr<Buffer> host_in_, host_out_, stage_in_, stage_out_;
  std::vector<std::unique_ptr<Recording>> recordings_;
  std::string summary_;
  Making making_;
  uint64_t in_bytes_ = 0, out_bytes_ = 0;
};

} // namespace fftmux::vulkan
