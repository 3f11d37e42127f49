// The OpenGL backend: kernels from the shared generator (codegen/) as GLSL
// 4.30 compute shaders on a headless EGL context. fftmux buffers of this
// backend are GL buffer objects. Every GL call, from whichever thread, runs
// on the device's worker thread, which alone holds the context; errors come
// back to the caller's thread and are reported there. Generating kernels
// needs no GL: queries and the generation of a plan's kernels (remembered
// by the generator) run on the caller's thread, so that autotune's threads
// generate side by side; where the driver compiles on its own threads, a
// plan's compilation leaves the worker free until it is done.
#include "engine.hpp"

#include <fftmux/gpu/variants.hpp>
#include <fftmux/plugin.h>
#include <fftmux/plugin_support.hpp>
#include <fftmux/plugin_table.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

namespace fftmux::opengl {
namespace {

using plugin::fail;
using plugin::guarded;

struct Backend {
  fftmux_host_v1 host; // a copy: the host's table belongs to one context, and init only
  std::unique_ptr<Device> device;
};

struct PlanHandle {
  Backend* backend;
  std::unique_ptr<Plan> plan;
};

struct BufferHandle {
  Backend* backend;
  std::unique_ptr<Buffer> buffer;
};

// Runs body on the worker of backend b, reporting failures on this thread.
template <class Body> fftmux_status on_worker(Backend* b, Body&& body) {
  return guarded(&b->host, [&] { b->device->call(body); });
}

fftmux_status init(const fftmux_host_v1* h, void** out) {
  return guarded(h, [&] {
    Settings s = settings_from(
        [h](const char* key) { return h->config ? h->config(h->host_data, key) : nullptr; });
    if (h->cache_dir && *h->cache_dir)
      s.cache_dir = std::string(h->cache_dir) + "/opengl";
    if (auto write = h->write_file) // the function outlives the host's table
      s.write_file = [write](const std::string& path, const std::vector<char>& data) {
        write(path.c_str(), data.data(), data.size()); // a cache: failures only cost time
      };
    auto b = std::make_unique<Backend>();
    b->host = *h;
    b->host.config = nullptr; // valid during init only
    b->host.host_data = nullptr;
    b->device = std::make_unique<Device>(s); // shares this thread's GL context, if any
    *out = b.release();
  });
}

void shutdown(void* p) {
  auto* b = static_cast<Backend*>(p);
  fftmux_host_v1 host = b->host;
  guarded(&host, [&] { delete b; });
}

fftmux_status about(void* p, fftmux_about_v1* a) {
  auto* b = static_cast<Backend*>(p);
  return on_worker(b, [&] {
    std::snprintf(a->devices, sizeof a->devices, "%s", b->device->description().c_str());
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s", b->device->hardware_key().c_str());
  });
}

fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  auto* b = static_cast<Backend*>(p);
  return guarded(&b->host, [&] {
    const Device& dev = *b->device;
    a->supported = 0;
    a->estimate_seconds = -1;
    std::vector<codegen::Chunk> chunks;
    try {
      chunks = dev.generated(*d, codegen::variant_options(codegen::Api::opengl, variant));
    } catch (const codegen::Unsupported& e) {
      std::snprintf(a->reason, sizeof a->reason, "opengl: %s", e.what());
      return;
    }
    size_t passes = chunks[0].generated->planned.passes;
    a->supported = 1;
    std::snprintf(a->reason, sizeof a->reason, "%s", codegen::summary(chunks).c_str());
    plugin::report(a, codegen::work(chunks, *d));
    // llvmpipe (measured): about 1 GB/s and 0.1 ms per dispatch; GPUs about
    // a TB/s, with GL's dispatch and fence costs per pass.
    a->estimate_seconds = dev.software() ? codegen::estimate_seconds(*d, passes, 1e9, 1e-4, 1e10)
                                         : codegen::estimate_seconds(*d, passes, 1e12, 2e-5, 2e10);
  });
}

// The kernels of a plan compiled with the worker free meanwhile: started on
// it, waited for off it (the driver's threads compile), finished into the
// programs it keeps, so that the plan made next takes them from memory and
// other threads' plans start their compilations in the meantime.
void compile_off_worker(Device& dev, const std::vector<std::string>& sources) {
  if (sources.empty() || !dev.parallel_compile()) // set once, when the device opened
    return;
  ProgramCounts counts;
  Device::Compiling c = dev.call([&] { return dev.start(sources, counts); });
  while (!dev.call([&] { return dev.compiled(c); }))
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  dev.call([&] { dev.finish(c, counts); });
}

// params: a product to fuse (plugin::product_of); the plans have no thread count.
fftmux_status plan_create_v2(void* p, const fftmux_desc* d, uint32_t variant,
                             fftmux_plan_params_v1* params, void** out) {
  auto* b = static_cast<Backend*>(p);
  codegen::Options options = codegen::variant_options(codegen::Api::opengl, variant);
  if (params)
    params->threads = 0;
  fftmux_status s = guarded(&b->host, [&] { options.product = plugin::product_of(params); });
  if (s != FFTMUX_OK)
    return s;
  try { // generated here, compiled with the worker free: the plan takes them from memory
    std::vector<std::string> sources;
    for (const codegen::Chunk& part : b->device->generated(*d, options)) {
      const std::vector<std::string>& s = part.generated->sources();
      sources.insert(sources.end(), s.begin(), s.end());
      for (size_t i = 0; i < part.generated->planned.plans.size(); ++i)
        part.generated->table(i);
    }
    compile_off_worker(*b->device, sources);
  } catch (...) { // the plan on the worker meets it again and reports it
  }
  return on_worker(b, [&] {
    auto h = std::make_unique<PlanHandle>();
    h->backend = b;
    h->plan = std::make_unique<Plan>(*b->device, *d, options);
    *out = h.release();
  });
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  return plan_create_v2(p, d, variant, nullptr, out);
}

void plan_destroy(void* plan) {
  auto* h = static_cast<PlanHandle*>(plan);
  on_worker(h->backend, [&] { delete h; });
}

fftmux_status execute(void* plan, int direction, const void* in, void* out) {
  auto* h = static_cast<PlanHandle*>(plan);
  return on_worker(h->backend, [&] { h->plan->execute(direction, in, out); });
}

fftmux_status execute_buffers(void* plan, int direction, void* in, void* out) {
  auto* h = static_cast<PlanHandle*>(plan);
  return on_worker(h->backend, [&] {
    auto* bin = static_cast<BufferHandle*>(in);
    auto* bout = static_cast<BufferHandle*>(out ? out : in);
    h->plan->execute_buffers(direction, *bin->buffer, *bout->buffer);
  });
}

fftmux_status synchronize(void* plan) {
  auto* h = static_cast<PlanHandle*>(plan);
  return on_worker(h->backend, [&] { h->plan->synchronize(); });
}

fftmux_status buffer_alloc(void* p, uint64_t bytes, void** out) {
  auto* b = static_cast<Backend*>(p);
  return on_worker(b, [&] {
    auto h = std::make_unique<BufferHandle>();
    h->backend = b;
    h->buffer = std::make_unique<Buffer>(*b->device, bytes);
    *out = h.release();
  });
}

// native is a GL buffer name of this backend's context, or, when the
// backend was initialized on a thread with the application's GL context
// current, of that context (the two share objects).
fftmux_status buffer_wrap(void* p, uint64_t native, uint64_t bytes, void** out) {
  auto* b = static_cast<Backend*>(p);
  return on_worker(b, [&] {
    if (native > 0xFFFFFFFFull)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "opengl: native = " + std::to_string(native) + " is not a GL buffer name (32 bits)");
    auto h = std::make_unique<BufferHandle>();
    h->backend = b;
    h->buffer = std::make_unique<Buffer>(*b->device, GLuint(native), bytes);
    *out = h.release();
  });
}

void buffer_free(void* buffer) {
  auto* h = static_cast<BufferHandle*>(buffer);
  on_worker(h->backend, [&] { delete h; });
}

fftmux_status buffer_write(void* buffer, uint64_t offset, const void* src, uint64_t bytes) {
  auto* h = static_cast<BufferHandle*>(buffer);
  return on_worker(h->backend, [&] { h->buffer->write(offset, src, bytes); });
}

fftmux_status buffer_read(void* buffer, uint64_t offset, void* dst, uint64_t bytes) {
  auto* h = static_cast<BufferHandle*>(buffer);
  return on_worker(h->backend, [&] { h->buffer->read(offset, dst, bytes); });
}

uint64_t buffer_native(void* buffer) {
  return static_cast<BufferHandle*>(buffer)->buffer->name();
}

} // namespace
} // namespace fftmux::opengl

// No plan_set_stream: GL has one queue per context.
FFTMUX_PLUGIN_TABLE_OPTIONAL(
    fftmux::opengl,
    fftmux::plugin::whole_identity("opengl", FFTMUX_DOMAIN_OPENGL,
                                   codegen::offered(codegen::Api::opengl).names,
                                   codegen::generated_caps),
    nullptr, plan_create_v2)
