// The CUDA backend's plugin table: device probing, device buffers (own and
// wrapped CUdeviceptrs), streams, and the plans of both variants.
#include "backend.hpp"
#include "check.hpp"
#include "multi.hpp"
#include "native.hpp"
#include "work.hpp"

#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/variants.hpp>
#include <fftmux/plugin.h>
#include <fftmux/plugin_support.hpp>
#include <fftmux/plugin_table.hpp>

#include <atomic>
#include <cmath>
#include <cstring>
#include <vector>

namespace fftmux::cuda {
namespace {

using plugin::fail;
using plugin::guarded;

// The host's functions, set by every init (plugin::host_functions) and read
// by any thread.
std::atomic<const fftmux_host_v1*> host{nullptr};

std::string config(const fftmux_host_v1* h, const char* key, const std::string& fallback) {
  const char* v = h->config ? h->config(h->host_data, key) : nullptr;
  return v ? v : fallback;
}

Backend* backend_of(void* p) {
  return static_cast<Backend*>(p);
}
// A plan of one device, or one across devices (cuFFT's multi-GPU plans).
struct Handle {
  std::unique_ptr<Plan> one;
  std::unique_ptr<MultiPlan> many;
};

Handle* handle_of(void* p) {
  return static_cast<Handle*>(p);
}
Plan* plan_of(void* p) {
  Handle* h = handle_of(p);
  if (!h->one)
    fail(FFTMUX_ERROR_UNSUPPORTED, "cuda: a plan across devices has no stream of its own: cuFFT's "
                                   "multi-GPU plans run on their own streams");
  return h->one.get();
}

struct Buffer {
  const Backend* backend;
  char* data;
  uint64_t bytes;
  bool owned;
  std::unique_ptr<XtBuffer> xt; // a buffer of a plan across devices: data is NULL
};

Buffer* buffer_of(void* p) {
  return static_cast<Buffer*>(p);
}

// Variant 0 is cuFFT, the others the generator's variants in their order
// (the GPU backends share them), named native-<name>.
constexpr uint32_t kCufft = 0;

// A GPU's defaults (codegen::device_defaults): workgroups of about 64
// invocations unless a variant says otherwise; on the H200 they were as fast
// as 256 or faster on 39 of 44 benchmark problems (1.05-1.26x at 16, 32, 512,
// 1024, 1000, 1536, 3125, F64 1024 and R2C 1024; 0.92-0.94x at 65536 and
// 256^3; H200, cuda_bench).
codegen::Options native_options(uint32_t variant) {
  if (variant == kCufft)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "cuda: variant 0 is cuFFT, not a generated one");
  return codegen::device_defaults(codegen::variant_options(codegen::Api::cuda, variant - 1), false);
}

fftmux_status init(const fftmux_host_v1* h, void** out) {
  if (h)
    host = plugin::host_functions(*h);
  return guarded(h, [&] {
    auto b = std::make_unique<Backend>();
    b->host = host;
    std::string device = config(h, "device", "0");
    if (device.empty() || device.find_first_not_of("0123456789") != std::string::npos)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "[backends.cuda] device = \"" + device + "\": give the device's index, e.g. 0");
    b->device = probe(std::stoi(device));
    b->all = probe_all(b->device);
    b->cufft_fusion = config(h, "cufft_fusion", "pass");
    if (b->cufft_fusion != "callback-experimental" && b->cufft_fusion != "pass")
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, "[backends.cuda] cufft_fusion = \"" + b->cufft_fusion +
                                              "\": use pass or callback-experimental");
    std::string cache =
        config(h, "kernel_cache", h->cache_dir ? std::string(h->cache_dir) + "/cuda" : "");
    FileWriter write = [](const std::string& path, const std::string& data) {
      const fftmux_host_v1* functions = host;
      return functions->write_file &&
             functions->write_file(path.c_str(), data.data(), data.size()) == FFTMUX_OK;
    };
    b->compiler = std::make_unique<Compiler>(b->device.arch(), b->device.name, cache, write);
    *out = b.release();
  });
}

void shutdown(void* p) {
  delete backend_of(p);
}

fftmux_status about(void* p, fftmux_about_v1* a) {
  return guarded(host, [&] {
    const Backend& b = *backend_of(p);
    std::string lines; // every device, in index order: a plan across devices names them
    for (const Device& d : b.all)
      lines += (lines.empty() ? "" : "\n") + d.line();
    std::snprintf(a->devices, sizeof a->devices, "%s", lines.c_str());
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s", b.device.hardware_key().c_str());
    if (a->struct_size >= offsetof(fftmux_about_v1, max_devices) + sizeof a->max_devices)
      a->max_devices = uint32_t(std::min<size_t>(b.all.size(), FFTMUX_MAX_DEVICES));
  });
}

// cuFFT's half transforms take power-of-two sizes only: 16-bit storage runs
// on the generated variants, which take every size.
const char* const cufft_half =
    "cuda: the cufft variant runs F32 and F64 only (cuFFT's half transforms take powers of "
    "two alone); the native variants run F16 and BF16";

// Why the variant does not run d; "" when it does.
std::string declines(const Device& device, const fftmux_desc& d, uint32_t variant) {
  if (variant == kCufft && d.kind == FFTMUX_R2R)
    return "cuda: cuFFT has no real-to-real (DCT, DST) transforms; the native variants run them";
  if (variant == kCufft && geometry::padded(d))
    return "cuda: cuFFT reads and writes whole arrays (no in_extent, out_extent); the native "
           "variants pad";
  if (variant == kCufft)
    return plugin::half_storage(d.precision) ? cufft_half : "";
  return native_declines(d, native_limits(device.shared_optin, device.major),
                         native_options(variant));
}

fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  return guarded(host, [&] {
    const Device& device = backend_of(p)->device;
    std::string why = declines(device, *d, variant);
    if (!why.empty()) {
      std::snprintf(a->reason, sizeof a->reason, "%s", why.c_str());
      a->supported = 0;
      return;
    }
    codegen::Work work = variant == kCufft
                             ? cufft_work(*d)
                             : native_work(*d, native_limits(device.shared_optin, device.major),
                                           native_options(variant));
    // Memory-bound: the bytes over a conservative 3 TB/s plus a launch.
    double bytes = double(codegen::side_bytes(*d, true) + codegen::side_bytes(*d, false));
    a->supported = 1;
    a->estimate_seconds = 5e-6 + bytes / 3e12;
    plugin::report(a, work);
  });
}

bool spans(const fftmux_plan_params_v1* params) {
  return params &&
         params->struct_size >= offsetof(fftmux_plan_params_v1, order) + sizeof params->order &&
         params->devices;
}

// Why cuFFT's multi-GPU plans do not run the problem; "" when they do.
std::string across_declines(const Backend& b, const fftmux_desc& d, uint32_t variant,
                            const fftmux_plan_params_v1& params) {
  if (variant != kCufft)
    return "cuda: only the cufft variant spans devices (cuFFT's multi-GPU plans); the native "
           "variants run on one";
  return multi_declines(b.all, d, params);
}

// query with the plan's devices: cuFFT's multi-GPU rules where it spans several.
fftmux_status query_v2(void* p, const fftmux_desc* d, uint32_t variant,
                       const fftmux_plan_params_v1* params, fftmux_answer_v1* a) {
  if (!spans(params))
    return query(p, d, variant, a);
  return guarded(host, [&] {
    std::string why = across_declines(*backend_of(p), *d, variant, *params);
    a->supported = why.empty();
    std::snprintf(a->reason, sizeof a->reason, "%s", why.c_str());
  });
}

fftmux_status plan_create_v2(void* p, const fftmux_desc* d, uint32_t variant,
                             fftmux_plan_params_v1* params, void** out) {
  return guarded(host, [&] {
    Backend& b = *backend_of(p);
    b.use();
    auto h = std::make_unique<Handle>();
    if (spans(params)) {
      std::string why = across_declines(b, *d, variant, *params);
      if (!why.empty())
        fail(FFTMUX_ERROR_UNSUPPORTED, why);
      h->many = std::make_unique<MultiPlan>(b, *d, *params);
    } else if (variant == kCufft && plugin::half_storage(d->precision)) {
      fail(FFTMUX_ERROR_UNSUPPORTED, cufft_half);
    } else if (variant == kCufft && plugin::product_of(params)) {
      fail(FFTMUX_ERROR_UNSUPPORTED, "cuda: the cufft variant fuses no product (cuFFT's callbacks "
                                     "need its LTO build); the native variants fuse it");
    } else if (variant == kCufft) {
      h->one = make_cufft_plan(b, *d);
    } else {
      codegen::Options options = native_options(variant);
      options.product = plugin::product_of(params);
      h->one = make_native_plan(b, *d, options);
    }
    params->threads = 0; // cuFFT and the kernels have no thread count
    *out = h.release();
  });
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  fftmux_plan_params_v1 params{};
  params.struct_size = sizeof params;
  return plan_create_v2(p, d, variant, &params, out);
}

void plan_destroy(void* plan) {
  if (!plan)
    return;
  Handle* h = handle_of(plan);
  if (h->one) {
    h->one->backend().use();
    h->one->drain();
  } else {
    try { // a failed device fails no destruction
      h->many->synchronize();
    } catch (const std::exception&) {
    }
  }
  delete h;
}

fftmux_status execute(void* plan, int direction, const void* in, void* out) {
  return guarded(host, [&] {
    Handle* h = handle_of(plan);
    if (h->many)
      h->many->execute_host(direction, in, out);
    else
      h->one->execute_host(direction, in, out);
  });
}

// Kernels and cuFFT move whole complex elements (the real sides of R2C and
// C2R in pairs too): a wrapped pointer off that alignment would fault on the
// device, and a fault poisons the CUDA context.
void check_aligned(const Plan& plan, const char* side, const char* data) {
  uint64_t a = codegen::complex_bytes(plan.desc());
  if (reinterpret_cast<uintptr_t>(data) % a)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, std::string(side) + ": a buffer at address " +
                                            std::to_string(reinterpret_cast<uintptr_t>(data)) +
                                            " is not aligned to the " + std::to_string(a) +
                                            "-byte complex element of the plan's precision");
}

fftmux_status execute_buffers(void* plan, int direction, void* in, void* out) {
  return guarded(host, [&] {
    if (MultiPlan* many = handle_of(plan)->many.get()) {
      for (void* b : {in, out})
        if (!buffer_of(b)->xt)
          fail(FFTMUX_ERROR_INVALID_ARGUMENT, "the plan spans devices; its buffers come from "
                                              "fftmux_buffer_create_for_plan");
      many->execute(direction, *buffer_of(in)->xt, *buffer_of(out)->xt);
      return;
    }
    Plan& p = *plan_of(plan);
    check_aligned(p, "in", buffer_of(in)->data);
    check_aligned(p, "out", buffer_of(out)->data);
    p.enqueue(direction, buffer_of(in)->data, buffer_of(out)->data);
    p.queued();
  });
}

fftmux_status synchronize(void* plan) {
  return guarded(host, [&] {
    Handle* h = handle_of(plan);
    if (h->many)
      h->many->synchronize();
    else
      h->one->synchronize();
  });
}

fftmux_status plan_set_stream(void* plan, uint64_t stream) {
  return guarded(host, [&] {
    plan_of(plan)->backend().use();
    plan_of(plan)->set_stream(reinterpret_cast<cudaStream_t>(stream));
  });
}

fftmux_status buffer_alloc(void* p, uint64_t bytes, void** out) {
  return guarded(host, [&] {
    const Backend& b = *backend_of(p);
    b.use();
    void* data = nullptr;
    check(cudaMalloc(&data, bytes), ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
    *out = new Buffer{&b, static_cast<char*>(data), bytes, true, nullptr};
  });
}

fftmux_status plan_buffer_alloc(void* plan, uint64_t bytes, void** out) {
  return guarded(host, [&] {
    Handle* h = handle_of(plan);
    if (!h->many)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, "cuda: the plan runs on one device: use buffer_alloc");
    const Backend& b = h->many->backend();
    *out = new Buffer{&b, nullptr, bytes, true, h->many->allocate(bytes)};
  });
}

// A plain buffer is one piece on the backend's device; a buffer across
// devices one a device, as cufftXtMalloc laid it out.
fftmux_status buffer_piece(void* p, uint32_t index, uint32_t* count, fftmux_piece* piece) {
  return guarded(host, [&] {
    Buffer* buf = buffer_of(p);
    *count = buf->xt ? buf->xt->pieces() : 1;
    if (index >= *count)
      return;
    if (buf->xt) {
      buf->xt->piece(index, *piece);
      return;
    }
    piece->device = uint32_t(buf->backend->device.index);
    piece->native = reinterpret_cast<uint64_t>(buf->data);
    piece->offset = 0;
    piece->bytes = buf->bytes;
    piece->order = FFTMUX_ORDER_NATURAL;
  });
}

// A caller's CUdeviceptr: checked to be device (or managed) memory of the
// backend's device, never freed here.
fftmux_status buffer_wrap(void* p, uint64_t native, uint64_t bytes, void** out) {
  return guarded(host, [&] {
    const Backend& b = *backend_of(p);
    b.use();
    void* ptr = reinterpret_cast<void*>(native);
    cudaPointerAttributes attr{};
    check(cudaPointerGetAttributes(&attr, ptr), "cudaPointerGetAttributes");
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "native = " + std::to_string(native) + " is not CUDA device memory");
    if (attr.type == cudaMemoryTypeDevice && attr.device != b.device.index)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "native is memory of device " + std::to_string(attr.device) +
               ", the backend runs on device " + std::to_string(b.device.index));
    *out = new Buffer{&b, static_cast<char*>(ptr), bytes, false, nullptr};
  });
}

void buffer_free(void* p) {
  Buffer* buf = buffer_of(p);
  if (buf->owned && !buf->xt) {
    buf->backend->use();
    cudaFree(buf->data);
  }
  delete buf;
}

// A buffer across devices moves whole: cufftXtMemcpy scatters and gathers
// the array in natural order.
XtBuffer& whole(XtBuffer& xt, uint64_t offset, uint64_t bytes) {
  if (offset != 0 || bytes != xt.bytes)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "offset " + std::to_string(offset) + ", bytes " + std::to_string(bytes) +
             ": a buffer across devices is written and read whole (offset 0, " +
             std::to_string(xt.bytes) + " bytes); its pieces are the caller's to fill in place");
  return xt;
}

// cudaMemcpy runs on the legacy stream, which plans' streams wait for; the
// explicit synchronization also orders it before callers' non-blocking streams.
fftmux_status buffer_write(void* p, uint64_t offset, const void* src, uint64_t bytes) {
  return guarded(host, [&] {
    Buffer* buf = buffer_of(p);
    if (buf->xt)
      return whole(*buf->xt, offset, bytes).write(src);
    buf->backend->use();
    check(cudaMemcpy(buf->data + offset, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
  });
}

fftmux_status buffer_read(void* p, uint64_t offset, void* dst, uint64_t bytes) {
  return guarded(host, [&] {
    Buffer* buf = buffer_of(p);
    if (buf->xt)
      return whole(*buf->xt, offset, bytes).read(dst);
    buf->backend->use();
    check(cudaMemcpy(dst, buf->data + offset, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  });
}

uint64_t buffer_native(void* p) { // 0 for a buffer across devices: its pieces have theirs
  return reinterpret_cast<uint64_t>(buffer_of(p)->data);
}

// cuFFT, then the generator's variants as native-<name> (the default as native).
const std::vector<const char*>& variant_names() {
  static const std::vector<std::string> text = [] {
    std::vector<std::string> t{"cufft"};
    for (const char* v : codegen::offered(codegen::Api::cuda).names)
      t.push_back(t.size() == 1 ? "native" : "native-" + std::string(v));
    return t;
  }();
  static const std::vector<const char*> names = [] {
    std::vector<const char*> n;
    for (const auto& t : text)
      n.push_back(t.c_str());
    return n;
  }();
  return names;
}

} // namespace
} // namespace fftmux::cuda

FFTMUX_PLUGIN_TABLE_DEVICES(fftmux::cuda,
                            plugin::whole_identity("cuda", FFTMUX_DOMAIN_CUDA, variant_names(),
                                                   codegen::generated_caps | FFTMUX_CAP_DEVICES),
                            plan_set_stream)
