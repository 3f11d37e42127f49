// The Vulkan backend: kernels from the shared generator (codegen/), compiled
// to SPIR-V with shaderc at plan time, run on the first discrete GPU (or the
// configured device). fftmux buffers of this backend are VkBuffers.
#include "engine.hpp"

#include <fftmux/plugin.h>
#include <fftmux/plugin_support.hpp>

#include <atomic>
#include <cmath>
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
    std::string dev = config(h, "device");
    if (!dev.empty()) {
      char* end = nullptr;
      long v = std::strtol(dev.c_str(), &end, 10);
      if (*end || v < 0)
        fail(FFTMUX_ERROR_INVALID_ARGUMENT,
             "[backends.vulkan] device = \"" + dev + "\": use a device index, 0 or more");
      s.device = int(v);
    }
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
  const auto& v = variants();
  if (variant >= v.size())
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "vulkan: variant " + std::to_string(variant) +
                                            " does not exist (0 to " +
                                            std::to_string(v.size() - 1) + ")");
  return v[variant].options;
}

fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  return guarded(host, [&] {
    const Device& dev = *static_cast<Backend*>(p)->device;
    a->supported = 0;
    a->estimate_seconds = -1;
    uint64_t in_bytes = codegen::side_bytes(*d, true), out_bytes = codegen::side_bytes(*d, false);
    uint64_t limit = dev.props.limits.maxStorageBufferRange;
    size_t passes = 0;
    try {
      for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE}) {
        if ((d->kind == FFTMUX_R2C && dir != FFTMUX_FORWARD) ||
            (d->kind == FFTMUX_C2R && dir != FFTMUX_INVERSE))
          continue;
        codegen::Plan plan = codegen::plan(*d, dir, dev.limits(), dev.tuned(options_of(variant)));
        passes = std::max(passes, plan.passes.size());
        size_t elem = d->precision == FFTMUX_F64 ? 16 : 8;
        uint64_t scratch = plan.scratch_elements * elem;
        uint64_t biggest = std::max({in_bytes, out_bytes, scratch});
        if (biggest > limit)
          throw codegen::Unsupported("a buffer of " + std::to_string(biggest) +
                                     " bytes exceeds maxStorageBufferRange (" +
                                     std::to_string(limit) + ")");
      }
    } catch (const codegen::Unsupported& e) {
      std::snprintf(a->reason, sizeof a->reason, "vulkan: %s", e.what());
      return;
    }
    a->supported = 1;
    // Memory-bound: every pass reads and writes the data once.
    double bandwidth = dev.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 5e9
                       : dev.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 1e12
                                                                                   : 1e11;
    double bytes = double(in_bytes + out_bytes) * double(passes);
    if (d->placement == FFTMUX_HOST)
      bytes += double(in_bytes + out_bytes) * 20; // transfers over the bus
    a->estimate_seconds = 2e-5 * double(passes) + bytes / bandwidth;
  });
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  return guarded(host, [&] {
    Device& dev = *static_cast<Backend*>(p)->device;
    auto h = std::make_unique<PlanHandle>();
    h->device = &dev;
    h->plan = std::make_unique<Plan>(dev, *d, options_of(variant));
    *out = h.release();
  });
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

const char* const* variant_names() {
  static std::vector<const char*> names = [] {
    std::vector<const char*> n;
    for (const Variant& v : variants())
      n.push_back(v.name);
    return n;
  }();
  return names.data();
}

const fftmux_backend_v1 table = {
    sizeof(fftmux_backend_v1),
    FFTMUX_PLUGIN_ABI_VERSION,
    "vulkan",
    FFTMUX_VERSION_STRING,
    FFTMUX_CAP_F32 | FFTMUX_CAP_F64 | FFTMUX_CAP_C2C | FFTMUX_CAP_R2C | FFTMUX_CAP_STRIDES |
        FFTMUX_CAP_IN_PLACE | FFTMUX_CAP_SHIFT,
    FFTMUX_MAX_RANK,
    FFTMUX_DOMAIN_VULKAN,
    uint32_t(variants().size()),
    variant_names(),
    init,
    shutdown,
    about,
    query,
    plan_create,
    plan_destroy,
    execute,
    execute_buffers,
    synchronize,
    buffer_alloc,
    buffer_wrap,
    buffer_free,
    buffer_write,
    buffer_read,
    buffer_native,
};

} // namespace
} // namespace fftmux::vulkan

extern "C" FFTMUX_PLUGIN_EXPORT const fftmux_backend_v1* fftmux_plugin_entry(uint32_t host_abi) {
  return host_abi >= 1 ? &fftmux::vulkan::table : nullptr;
}
