// The Vulkan backend: kernels from the shared generator (codegen/), compiled
// to SPIR-V with shaderc at plan time, run on the first discrete GPU (or the
// configured device). fftmux buffers of this backend are VkBuffers.
#include "engine.hpp"

#include <fftmux/gpu/variants.hpp>
#include <fftmux/plugin.h>
#include <fftmux/plugin_support.hpp>
#include <fftmux/plugin_table.hpp>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>

namespace fftmux::vulkan {
namespace {

using plugin::fail;
using plugin::guarded;

// The host's functions, set by every init (plugin::host_functions) and read
// by any thread.
std::atomic<const fftmux_host_v1*> host{nullptr};

struct Backend {
  std::unique_ptr<Device> device;
};

std::string config(const fftmux_host_v1* h, const char* key) {
  const char* v = h->config ? h->config(h->host_data, key) : nullptr;
  return v ? v : "";
}

// A non-negative integer of the plugin's config, or fallback when absent.
long index(const fftmux_host_v1* h, const char* key, const char* rule, long fallback) {
  std::string v = config(h, key);
  if (v.empty())
    return fallback;
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (*end || n < 0)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         std::string("[backends.vulkan] ") + key + " = \"" + v + "\": use " + rule);
  return n;
}

struct PlanHandle {
  Device* device;
  std::unique_ptr<Plan> plan;
};

struct BufferHandle {
  std::unique_ptr<Buffer> buffer;
};

// ---- the table's functions ----

fftmux_status init(const fftmux_host_v1* h, void** out) {
  host = plugin::host_functions(*h);
  return guarded(h, [&] {
    Settings s;
    s.device = int(index(h, "device", "a device index, 0 or more", -1));
    s.single_pass_limit =
        uint32_t(index(h, "single_pass_limit", "a length, 16 or more (0: no limit)", 0));
    if (s.single_pass_limit && s.single_pass_limit < 16)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "[backends.vulkan] single_pass_limit = " + std::to_string(s.single_pass_limit) +
               ": use 16 or more (0: no limit)");
    s.max_binding_bytes = uint64_t(
        index(h, "max_binding_bytes", "a byte count (0: the device's maxStorageBufferRange)", 0));
    std::string opt = config(h, "spirv_opt");
    s.spirv_opt = opt.empty() ? -1 : plugin::flag("vulkan", "spirv_opt", opt);
    std::string pointers = config(h, "pointers");
    s.pointers = !pointers.empty() && plugin::flag("vulkan", "pointers", pointers);
    std::string staging = config(h, "staging");
    s.staging = !staging.empty() && plugin::flag("vulkan", "staging", staging);
    if (h->struct_size >= offsetof(fftmux_host_v1, native_count) + sizeof h->native_count &&
        h->native)
      s.native.assign(h->native, h->native + h->native_count);
    if (h->cache_dir && *h->cache_dir)
      s.cache_dir = std::string(h->cache_dir) + "/vulkan";
    if (auto write = h->write_file)
      s.write_file = [write](const std::string& path, const std::vector<char>& data) {
        write(path.c_str(), data.data(), data.size()); // a cache: failures only cost time
      };
    auto b = std::make_unique<Backend>();
    b->device = std::make_unique<Device>(s);
    *out = b.release();
  });
}

void shutdown(void* p) {
  guarded(host, [&] { delete static_cast<Backend*>(p); });
}

fftmux_status about(void* p, fftmux_about_v1* a) {
  return guarded(host, [&] {
    const Device& d = *static_cast<Backend*>(p)->device;
    std::snprintf(a->devices, sizeof a->devices, "%s", d.description().c_str());
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s", d.hardware_key().c_str());
  });
}

const codegen::Options& options_of(uint32_t variant) {
  return codegen::variant_options(codegen::Api::vulkan, variant);
}

fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  return guarded(host, [&] {
    const Device& dev = *static_cast<Backend*>(p)->device;
    a->supported = 0;
    a->estimate_seconds = -1;
    std::vector<codegen::Chunk> chunks;
    try {
      chunks = dev.generated(*d, options_of(variant));
    } catch (const codegen::Unsupported& e) {
      std::snprintf(a->reason, sizeof a->reason, "vulkan: %s", e.what());
      return;
    }
    size_t passes = chunks[0].generated->planned.passes;
    a->supported = 1;
    std::snprintf(a->reason, sizeof a->reason, "%s", codegen::summary(chunks).c_str());
    plugin::report(a, codegen::work(chunks, *d));
    // Memory-bound: every pass reads and writes the data once. lavapipe
    // (measured): about 1 GB/s and 0.1 ms per dispatch, like llvmpipe.
    VkPhysicalDeviceType type = dev.props.deviceType;
    a->estimate_seconds =
        type == VK_PHYSICAL_DEVICE_TYPE_CPU
            ? codegen::estimate_seconds(*d, passes, 1e9, 1e-4, 1e10)
            : codegen::estimate_seconds(*d, passes,
                                        type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 1e12 : 1e11,
                                        2e-5, 1e10);
  });
}

// params: a product to fuse (plugin::product_of); the plans have no thread count.
fftmux_status plan_create_v2(void* p, const fftmux_desc* d, uint32_t variant,
                             fftmux_plan_params_v1* params, void** out) {
  return guarded(host, [&] {
    Device& dev = *static_cast<Backend*>(p)->device;
    codegen::Options options = options_of(variant);
    options.product = plugin::product_of(params);
    auto h = std::make_unique<PlanHandle>();
    h->device = &dev;
    h->plan = std::make_unique<Plan>(dev, *d, options);
    if (params)
      params->threads = 0;
    *out = h.release();
  });
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  return plan_create_v2(p, d, variant, nullptr, out);
}

void plan_destroy(void* plan) {
  guarded(host, [&] { delete static_cast<PlanHandle*>(plan); });
}

fftmux_status execute(void* plan, int direction, const void* in, void* out) {
  return guarded(host, [&] { static_cast<PlanHandle*>(plan)->plan->execute(direction, in, out); });
}

fftmux_status execute_buffers(void* plan, int direction, void* in, void* out) {
  return guarded(host, [&] {
    auto* bin = static_cast<BufferHandle*>(in);
    auto* bout = static_cast<BufferHandle*>(out ? out : in);
    static_cast<PlanHandle*>(plan)->plan->execute_buffers(direction, *bin->buffer, *bout->buffer);
  });
}

fftmux_status synchronize(void* plan) {
  return guarded(host, [&] { static_cast<PlanHandle*>(plan)->plan->synchronize(); });
}

fftmux_status buffer_alloc(void* p, uint64_t bytes, void** out) {
  return guarded(host, [&] {
    auto h = std::make_unique<BufferHandle>();
    h->buffer = std::make_unique<Buffer>(*static_cast<Backend*>(p)->device, bytes);
    *out = h.release();
  });
}

// native is a VkBuffer made on this backend's VkDevice (fftmux_buffer_native
// of another buffer of the backend), with storage and transfer usage.
fftmux_status buffer_wrap(void* p, uint64_t native, uint64_t bytes, void** out) {
  return guarded(host, [&] {
    if (!native)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, "vulkan: native = 0 is not a VkBuffer");
    auto h = std::make_unique<BufferHandle>();
    h->buffer = std::make_unique<Buffer>(*static_cast<Backend*>(p)->device,
                                         reinterpret_cast<VkBuffer>(native), bytes);
    *out = h.release();
  });
}

void buffer_free(void* b) {
  guarded(host, [&] { delete static_cast<BufferHandle*>(b); });
}

fftmux_status buffer_write(void* b, uint64_t offset, const void* src, uint64_t bytes) {
  return guarded(host, [&] { static_cast<BufferHandle*>(b)->buffer->write(offset, src, bytes); });
}

fftmux_status buffer_read(void* b, uint64_t offset, void* dst, uint64_t bytes) {
  return guarded(host, [&] { static_cast<BufferHandle*>(b)->buffer->read(offset, dst, bytes); });
}

uint64_t buffer_native(void* b) {
  return reinterpret_cast<uint64_t>(static_cast<BufferHandle*>(b)->buffer->handle());
}

} // namespace
} // namespace fftmux::vulkan

// No plan_set_stream: the backend owns its queue.
FFTMUX_PLUGIN_TABLE_OPTIONAL(
    fftmux::vulkan,
    fftmux::plugin::whole_identity("vulkan", FFTMUX_DOMAIN_VULKAN,
                                   codegen::offered(codegen::Api::vulkan).names,
                                   codegen::generated_caps),
    nullptr, plan_create_v2)
