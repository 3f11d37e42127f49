// The OpenGL engine: a context on its own thread, buffers, programs and
// planned transforms. The plugin (opengl_backend.cpp), the tests and
// benchmarks/opengl_bench.cpp use it. Every member function of Device
// (except call), Buffer and Plan runs on the worker: inside Device::call.
#pragma once

#include "egl.hpp"
#include "vulkan_memory.hpp"
#include "worker.hpp"

#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/kernel_cache.hpp>
#include <fftmux/gpu/variants.hpp> // the options its users pick
#include <fftmux/plugin.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fftmux::opengl {

// How a buffer gets its storage. The backend takes one by name
// ([backends.opengl] storage); the benchmark measures them all, as the
// placement GL drivers choose depends on these hints alone.
struct Storage {
  const char* name;
  bool immutable;        // glBufferStorage (GL 4.4 or ARB_buffer_storage), else glBufferData
  GLbitfield flags;      // of glBufferStorage
  GLenum usage;          // of glBufferData
  bool imported = false; // Vulkan's memory through GL_EXT_memory_object_fd
};
const std::vector<Storage>& storages();
// Throws, listing the names ("auto" among them: vulkan where it works, else
// mappable, chosen by the device).
const Storage& storage(const std::string& name);

// How HOST plans move data: through persistently mapped storage buffers
// the kernels read and write directly, or through device buffers filled
// with glBufferSubData; auto maps plans of one pass per direction (one read
// and one write over the bus), stages the others.
enum class HostIo { automatic, mapped, staged };

struct Settings {
  ContextSettings context;
  std::string cache_dir; // program binaries; empty: none on disk
  // Atomic file replacement (the host's write_file); nullptr: no disk cache.
  std::function<void(const std::string&, const std::vector<char>&)> write_file;
  std::string storage = "auto"; // H200 copies at 1 GiB: vulkan 3950 GB/s, mappable 1970
  HostIo host_io = HostIo::automatic;
  bool program_binaries = true;
  bool f64 = true; // offer F64 where the driver has GL_ARB_gpu_shader_fp64
  // Registers per thread of variants that leave it to the device; 0: 4 on
  // software renderers (llvmpipe compiles a kernel in time that grows
  // steeply with it: 1 s at 4, 10 s at the generator's 16), else the
  // generator's choice.
  uint32_t values_per_thread = 0;
  // Bytes one binding may address, below the driver's
  // GL_MAX_SHADER_STORAGE_BLOCK_SIZE (0: the driver's): lower values make
  // plans run in batch chunks, for tests on small problems.
  uint64_t max_binding_bytes = 0;
  // Shared memory the driver grants one multiprocessor for all its groups
  // (codegen::Device::sm_shared_bytes); -1: the dialect's 64 KiB (NVIDIA's
  // GL driver, measured), 0: not limiting.
  int64_t sm_shared_bytes = -1;
};

// Reads the [backends.opengl] table through get (nullptr when a key is
// absent); throws plugin::Failure naming a bad key.
Settings settings_from(const std::function<const char*(const char*)>& get);

// A linked compute program.
struct Program {
  Program(GladGLContext& gl, GLuint id) : gl(gl), id(id) {}
  ~Program() { gl.DeleteProgram(id); }
  GladGLContext& gl;
  GLuint id;
};

// Where a plan's programs came from.
struct ProgramCounts {
  int compiled = 0; // compiled from source now
  int disk = 0;     // loaded from a program binary on disk
  int memory = 0;   // shared with another plan of this device
};

class Buffer;

class Device {
public:
  // Opens EGL and a context on a new worker thread. When the calling thread
  // has a desktop GL context current (and settings.context.share), the new
  // context shares its objects. Throws plugin::Failure with the reason.
  explicit Device(const Settings& s);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Runs f on the thread holding the context: the only way in.
  template <class F> auto call(F&& f) { return worker_.call(std::forward<F>(f)); }

  GladGLContext& gl() { return context_->gl; }
  const Context& context() const { return *context_; }
  const Settings& settings() const { return settings_; }
  const Storage& buffer_storage() const { return *storage_; }
  // The Vulkan device that allocates imported storage, opened at its first
  // use; throws plugin::Failure with the reason it cannot be.
  VulkanMemory& vulkan();
  codegen::Device limits() const { return limits_; }
  // A variant's options with what the device decides filled in.
  codegen::Options options(codegen::Options o) const;
  bool software() const { return software_; } // a CPU rasterizer (llvmpipe, softpipe)
  uint32_t max_groups(int axis) const { return max_groups_[axis]; }
  bool buffer_storage_api() const; // glBufferStorage exists
  std::string f64_missing() const; // why F64 is declined, "" when offered
  // The problem planned for this device with a variant's options, its
  // kernels in GLSL 4.30, in chunks of its batch where its buffers exceed
  // what one binding addresses; throws codegen::Unsupported with the reason.
  std::vector<codegen::Chunk> generated(const fftmux_desc& desc,
                                        const codegen::Options& variant) const;
  std::string description() const;
  std::string hardware_key() const;
  std::string binaries_missing() const { return binaries_missing_; } // "" when cached on disk

  // Programs for sources, compiled together (drivers compile in parallel),
  // shared with other plans, cached on disk as program binaries. The most
  // recent kKeptPrograms stay after their plans are gone, so a plan made
  // again in the process neither compiles nor loads a binary.
  std::vector<std::shared_ptr<Program>> programs(const std::vector<std::string>& sources,
                                                 ProgramCounts& counts);
  // programs() in three steps, so that the worker serves other plans while
  // the driver's threads compile (GL_KHR_parallel_shader_compile): start
  // the compilations, ask whether they are done, then finish them into the
  // programs kept in memory.
  struct Compiling {
    struct Pending {
      size_t index;
      GLuint shader, program;
    };
    std::vector<Pending> pending;
    std::vector<std::string> keys;
    std::vector<std::shared_ptr<Program>> out;
  };
  Compiling start(const std::vector<std::string>& sources, ProgramCounts& counts);
  bool compiled(const Compiling& c); // every one done (always, without the extension)
  std::vector<std::shared_ptr<Program>> finish(Compiling& c, ProgramCounts& counts);
  bool parallel_compile() const { return parallel_compile_; }
  // A scratch buffer of at least `bytes`, shared with the live plans (the
  // context runs their passes one after another, each behind a barrier) and
  // kept after them until a larger one is needed or the device closes, as
  // the Vulkan backend's: a warm multi-pass plan allocated its own, up to a
  // GiB of storage. On the worker thread.
  std::shared_ptr<Buffer> scratch(uint64_t bytes);
  // Throws plugin::Failure when GL reports an error, naming what was done.
  void check(const std::string& what);
  // The oldest GL error (GL_NO_ERROR when none), the others cleared.
  GLenum take_error();

private:
  void open(const Share& share);
  void choose_storage();
  std::shared_ptr<Program> load_binary(const std::string& path);
  void save_binary(GLuint program, const std::string& path);

  Settings settings_;
  const Storage* storage_;
  std::unique_ptr<Context> context_;
  codegen::Device limits_;
  uint32_t max_groups_[2] = {65535, 65535};
  uint64_t offset_align_ = 256; // GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT
  bool software_ = false;
  bool parallel_compile_ = false; // GL_KHR_parallel_shader_compile
  std::string renderer_, version_, vendor_, glsl_, uuids_, binaries_missing_, storage_note_;
  uint8_t device_uuid_[VK_UUID_SIZE] = {};
  std::unique_ptr<VulkanMemory> vulkan_;
  static constexpr size_t kKeptPrograms = 128;
  codegen::KernelCache<Program> programs_{kKeptPrograms};
  std::shared_ptr<Buffer> scratch_; // the latest, plans may hold older ones
  Worker worker_;                   // last: stops first, before the members its jobs use go
};

// A storage buffer: owned (device storage, or persistently mapped for
// HOST plans) or a caller's buffer name wrapped.
class Buffer {
public:
  enum class Kind { device, mapped };
  // Device buffers take the device's storage unless given one.
  Buffer(Device& d, uint64_t bytes, Kind kind = Kind::device, const Storage* storage = nullptr);
  Buffer(Device& d, GLuint wrapped, uint64_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void write(uint64_t offset, const void* src, uint64_t bytes);
  void read(uint64_t offset, void* dst, uint64_t bytes);
  GLuint name() const { return name_; }
  uint64_t size() const { return size_; }
  void* mapped() const { return mapped_; }

private:
  void range(uint64_t offset, uint64_t bytes, const char* what) const;
  void import(GladGLContext& g);
  void release(); // the buffer, and its memory object and allocation where imported

  Device& d_;
  GLuint name_ = 0;
  GLuint memory_ = 0;                         // the GL memory object of imported storage
  VkDeviceMemory vk_memory_ = VK_NULL_HANDLE; // its Vulkan allocation
  uint64_t size_ = 0;
  void* mapped_ = nullptr;
  bool owned_ = true;
  bool writable_ = true; // glBufferSubData allowed (else staged through a copy)
};

// A planned transform: programs per direction, tables uploaded once.
class Plan {
public:
  Plan(Device& d, const fftmux_desc& desc, const codegen::Options& options);
  ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  void execute(int direction, const void* in, void* out);       // host memory, waits
  void execute_buffers(int direction, Buffer& in, Buffer& out); // submits
  void synchronize();
  // Issues the passes of direction on (in, out), nothing else: for
  // benchmarks that time repeats with their own queries (after_pass, if
  // given, is called after each pass and its barrier).
  void dispatch(int direction, Buffer& in, Buffer& out,
                const std::function<void()>& after_pass = {});

  const std::string& summary() const { return summary_; }
  const ProgramCounts& programs() const { return counts_; }
  size_t passes(int direction); // kernels per execution (all chunks)
  bool host_mapped() const { return host_mapped_; }
  const Buffer* scratch() const { return scratch_.get(); } // the device's, shared; or none

private:
  struct Pass {
    codegen::Binding src, dst;
    uint64_t groups;
    std::shared_ptr<Program> program;
  };
  struct Direction {
    std::vector<Pass> passes;
    std::unique_ptr<Buffer> table;
  };
  // Batches [first, first + count) with their passes; one covers the
  // problem unless its buffers exceed what one binding addresses.
  struct Chunk {
    int64_t first;
    std::map<int, Direction> dirs;
  };

  Direction& dir(int direction, size_t chunk = 0);
  Buffer& buffer_of(codegen::Binding b, Buffer& in, Buffer& out) const;
  void host_buffers();

  Device& d_;
  fftmux_desc desc_;
  std::vector<Chunk> chunks_;
  std::shared_ptr<Buffer> scratch_;
  std::unique_ptr<Buffer> host_in_, host_out_;
  GLsync fence_ = nullptr;
  std::string summary_;
  ProgramCounts counts_;
  uint64_t in_bytes_ = 0, out_bytes_ = 0;
  bool host_mapped_ = false;
  bool out_gaps_ = false; // the output layout has bytes between its elements
};

} // namespace fftmux::opengl
