// The variants' table and what device kind and dialect leave of their options.
#include <fftmux/gpu/variants.hpp>
#include <fftmux/plugin_support.hpp>

#include <string>

namespace fftmux::codegen {

const std::vector<Variant>& variants() {
  static const std::vector<Variant> table = [] {
    // Each variant turns one knob of the default options.
    auto with = [](auto set) {
      Options o;
      set(o);
      return o;
    };
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
        {"small-groups", with([](Options& o) { o.group_threads = 64; })},
        // Lines above 4096 points as several passes: a one-pass kernel that
        // needs a whole multiprocessor's shared memory runs one group at a time.
        {"two-pass", with([](Options& o) { o.max_single = 4096; })},
        // Strided passes read 32 lines at once: 256-byte runs in F32 where the
        // default's 8 lines give 64 (shorter chain lines, so more passes on
        // 48 KiB devices).
        {"wide-strides", with([](Options& o) { o.coalesce_teams = 32; })},
        // Registers capped so that two workgroups share a multiprocessor (64 a
        // thread at 512 invocations): alone, a group's loads cannot overlap
        // another's exchanges (CUDA only; elsewhere it is the default).
        {"two-groups", with([](Options& o) { o.resident_groups = 2; })},
        // The default before radix 32 (H200: 2^17 and 2^18 on CUDA 0.97x
        // the time of radix 32's).
        {"radix16", with([](Options& o) { o.max_radix = 16; })},
        // The radices before composites (10 = 2 x 5 ... 27 = 3 x 9 in
        // registers): one exchange more for lines such as 1000 or 3125.
        {"prime-radices", with([](Options& o) { o.max_composite = 9; })},
        // Generator v10's addressing: each slot its own index (registers rose
        // with the bases in some strided passes: 32768's first 56 -> 72).
        {"slot-addresses", with([](Options& o) { o.slot_addresses = true; })},
        // Lines that overflow one component of shared memory in two passes
        // (the default before chunked exchanges: H200 Vulkan, 16384 points
        // 1.152 ms where one chunked kernel takes 0.750).
        {"unchunked", with([](Options& o) { o.shared_chunks = 1; })},
        // Lines that fill a multiprocessor one group at a time, not streamed
        // (CUDA only: the bulk copies; elsewhere the same kernels as default).
        {"unstreamed", with([](Options& o) { o.stream = false; })},
        // Long real lines with R2C's post or C2R's pre step as a pass of
        // its own (the default before generator v35).
        {"mirror-pass", with([](Options& o) { o.real_rows = false; })},
        // The last stage of every kernel one butterfly at a time, from
        // shared memory to the store (the default only in the bound columns
        // of 1024: plan/chains.cpp, bound_columns).
        {"butterfly-tail", with([](Options& o) { o.butterfly_tail = true; })},
        // An R2C chain over an odd power of two with the longer of its two
        // nearest factors as columns everywhere (the default only in F64
        // under CUDA: plan/chains.cpp, long_f64_columns). H200 CUDA: R2C 2^20
        // 1.42x the default's time; 2^24 x8 1302-1309 us, the default's
        // mirror pass 1188-1197.
        {"long-real-columns", with([](Options& o) { o.long_real_columns = true; })},
        // Bluestein's convolution as two passes of one transform each.
        {"split-convolution", with([](Options& o) { o.split_convolution = true; })},
        // Lines of 2 to 8 groups' values as a cluster of groups of 4 adjacent
        // columns (CUDA only; elsewhere the same kernels as default).
        {"sector-columns", with([](Options& o) { o.sector_columns = true; })},
    };
  }();
  return table;
}

const Options& variant_options(uint32_t i, const char* backend) {
  const auto& v = variants();
  if (i >= v.size())
    plugin::fail(FFTMUX_ERROR_INVALID_ARGUMENT, std::string(backend) + ": variant " +
                                                    std::to_string(i) + " does not exist (0 to " +
                                                    std::to_string(v.size() - 1) + ")");
  return v[i].options;
}

Options device_defaults(Options o, bool cpu) {
  if (!o.group_threads)
    o.group_threads = cpu ? 256 : 64;
  if (!o.values_per_thread && cpu)
    o.values_per_thread = 4;
  return o;
}

Device dialect_limits(Device d, Dialect dialect) {
  d.launch_bounds = dialect == Dialect::cuda;
  if (dialect == Dialect::cuda)
    d.max_composite = 49;
  if (dialect == Dialect::opengl) {
    d.max_composite = 25;
    d.large_composites_from = 2048;
    d.sm_shared_bytes = 65536;
  }
  if (dialect == Dialect::vulkan || dialect == Dialect::vulkan_pointers)
    d.group_value_bytes = 1 << 15;
  if (dialect != Dialect::cuda) { // distributed shared memory and bulk copies are CUDA's alone
    d.cluster = 0;
    d.bulk_copy = false;
  }
  return d;
}

const char* const* variant_names() {
  static const std::vector<const char*> names = [] {
    std::vector<const char*> n;
    for (const Variant& v : variants())
      n.push_back(v.name);
    return n;
  }();
  return names.data();
}

} // namespace fftmux::codegen
