// The variants' table and what each API offers of it.
#include <fftmux/gpu/variants.hpp>

#include <stdexcept>
#include <string>

namespace fftmux::codegen {
namespace {

Offer offer(Api api) {
  Offer o;
  for (const Variant& v : variants())
    if (v.apis & api_bit(api)) {
      o.variants.push_back(&v);
      o.names.push_back(v.name);
    }
  return o;
}

} // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = [] {
    // Each variant turns one knob of the default options.
    auto with = [](auto set) {
      Options o;
      set(o);
      return o;
    };
    const uint32_t cuda = api_bit(Api::cuda), not_opengl = cuda | api_bit(Api::vulkan),
                   not_cuda = api_bit(Api::vulkan) | api_bit(Api::opengl);
    return std::vector<Variant>{
        {"default", Options{}},
        {"radix8", with([](Options& o) { o.max_radix = 8; })},
        {"radix4", with([](Options& o) { o.max_radix = 4; })},
        {"wide",
         with([](Options& o) { o.values_per_thread = 32; })}, // fewer threads, more registers
        {"narrow", with([](Options& o) { o.values_per_thread = 4; })},
        // Radix 8 on 8 values a thread: twice radix8's threads, each with half
        // the registers (NVIDIA's Vulkan compiler gave 4096 points 85
        // registers a thread where NVRTC gave the same kernel 54).
        {"radix8-narrow", with([](Options& o) {
           o.max_radix = 8;
           o.values_per_thread = 8;
         })},
        // A GPU's groups on a CPU device (CUDA's devices are all GPUs).
        {"small-groups", with([](Options& o) { o.group_threads = 64; }), not_cuda},
        // Lines above 4096 points as several passes: a one-pass kernel that
        // needs a whole multiprocessor's shared memory runs one group at a time.
        {"two-pass", with([](Options& o) { o.max_single = 4096; })},
        // Strided passes read 32 lines at once: 256-byte runs in F32 where the
        // default's 8 lines give 64 (shorter chain lines, so more passes on
        // 48 KiB devices).
        {"wide-strides", with([](Options& o) { o.coalesce_teams = 32; })},
        // Registers capped so that two workgroups share a multiprocessor (64 a
        // thread at 512 invocations): alone, a group's loads cannot overlap
        // another's exchanges (launch bounds: CUDA's alone).
        {"two-groups", with([](Options& o) { o.resident_groups = 2; }), cuda},
        // The default before radix 32, kept where it wins (H200 CUDA: 2^17
        // and 2^18 in 0.97x radix 32's time).
        {"radix16", with([](Options& o) { o.max_radix = 16; })},
        // Long real lines with R2C's post or C2R's pre step as a pass of
        // its own, kept where it wins (docs/codegen-rules.md: mirror_pass;
        // OpenGL's plans take the pass anyway).
        {"mirror-pass", with([](Options& o) { o.real_rows = false; }), not_opengl},
        // The last stage of every kernel one butterfly at a time, from
        // shared memory to the store (the default only in the bound columns
        // of 1024: plan/chains.cpp, bound_columns).
        {"butterfly-tail", with([](Options& o) { o.butterfly_tail = true; })},
        // An R2C chain over an odd power of two with the longer of its two
        // nearest factors as columns everywhere (the default only in F64
        // under CUDA: docs/codegen-rules.md, long_f64_columns).
        {"long-real-columns", with([](Options& o) { o.long_real_columns = true; }), not_opengl},
        // Bluestein's convolution as two passes of one transform each.
        {"split-convolution", with([](Options& o) { o.split_convolution = true; })},
        // Lines of 2 to 8 groups' values as a cluster of groups of 4 adjacent
        // columns (clusters: CUDA's alone).
        {"sector-columns", with([](Options& o) { o.sector_columns = true; }), cuda},
    };
  }();
  return table;
}

const Offer& offered(Api api) {
  static const Offer offers[3] = {offer(Api::vulkan), offer(Api::opengl), offer(Api::cuda)};
  return offers[int(api)];
}

const Options& variant_options(Api api, uint32_t i) {
  const Offer& o = offered(api);
  if (i >= o.variants.size())
    throw std::invalid_argument(std::string(api_name(api)) + ": generated variant " +
                                std::to_string(i) + " does not exist (0 to " +
                                std::to_string(o.variants.size() - 1) + ")");
  return o.variants[i]->options;
}

const char* api_name(Api api) {
  static const char* const names[] = {"vulkan", "opengl", "cuda"};
  return names[int(api)];
}

} // namespace fftmux::codegen
