// Helpers every GPU backend needs around plan() and emit().
#include <fftmux/gpu_support.hpp>
#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numeric>

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
        // of 1024: planner.cpp, bound_columns).
        {"butterfly-tail", with([](Options& o) { o.butterfly_tail = true; })},
        // An R2C chain over an odd power of two with the longer of its two
        // nearest factors as columns everywhere (the default only in F64
        // under CUDA: planner.cpp, long_f64_columns). H200 CUDA: R2C 2^20
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

// H200, 64 against 256 invocations: CUDA equal or faster on 39 of 44
// benchmark problems; Vulkan 1.16-1.41x and OpenGL 1.3-2.3x at 64-1024
// points, the same kernel (one line a group) from 4096 on.
Options device_defaults(Options o, bool cpu) {
  if (!o.group_threads)
    o.group_threads = cpu ? 256 : 64;
  if (!o.values_per_thread && cpu)
    o.values_per_thread = 4;
  return o;
}

// H200, OpenGL: 2187 as 27 x 9 x 9 took 1.22x the time of 9 x 9 x 9 x 3
// (generator v12); 1000 as 10 x 10 x 10 0.93x Vulkan's time as 25 x 8 x 5
// (v14), so composites above 16 wait for 2048 points, where 12800 as 32 x 25
// x 16 took 0.52x the time of 16 x 16 x 10 x 5. Radix 32 itself from 512
// points, as on Vulkan, since kernels are shaped for the 64 KiB an SM
// (v15, radix 32 against 16: 2^17-2^20 0.86-0.93x the time, 512 and 1024
// points 1.01-1.02x; at v12, before that, 1024 points took 1.26x).
//
// NVIDIA's GL driver grants a multiprocessor 64 KiB of shared memory
// whatever its groups ask (H200, `opengl_bench --only occupancy`: one group
// of 33.8 KiB an SM, three of 16, six of 8), where Vulkan and CUDA give up
// to 228; the planner shapes kernels of few threads for it (lean).
//
// NVIDIA's Vulkan compiler spends some 4 registers a value (H200: 2^20's
// 1024-point columns, 32 values a thread, 243 registers; NVRTC gives the
// same kernels far fewer), so a group of 8 such lines fills the register
// file and runs alone on its SM. A quarter of the file for a group's
// values (4 lines of 1024 points, 8 of 512): H200, generator v17 against
// v16 in the same call, 2^20 F32 1746 -> 1655 and 1749 -> 1482 us (its
// passes 0.85 + 0.80 -> 0.82 + 0.60 ms), 1024^2 x64 757 -> 712, 131072 F64
// 2984 -> 2615; 2^19 and 2^20 R2C within the spread between processes.
// CUDA lost with it (2^21 1480 -> 3288 us, 2^24 2012 -> 7913).
//
// Radix 49 (7 x 7 in registers) on CUDA only: H200, 2401 points x55900 as
// 49 x 49 622-630 us against 7 x 7 x 7 x 7's 652-653 (cuFFT 592-595);
// Vulkan 721 -> 736, GL 765 -> 781 (NVIDIA's GLSL compiler spends more
// registers a value).
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

std::string summary(const std::vector<Chunk>& chunks) {
  std::string s = chunks.at(0).generated->planned.plans.back().summary;
  if (chunks.size() > 1)
    s += "; in " + std::to_string(chunks.size()) + " batch chunks";
  return s;
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

std::vector<int> directions(const fftmux_desc& desc) {
  std::vector<int> d;
  if (desc.kind != FFTMUX_C2R)
    d.push_back(FFTMUX_FORWARD);
  if (desc.kind != FFTMUX_R2C)
    d.push_back(FFTMUX_INVERSE);
  return d;
}

Planned plan_all(const fftmux_desc& desc, const Device& device, const Options& options,
                 uint64_t max_buffer_bytes) {
  Planned p;
  p.in_bytes = side_bytes(desc, true);
  p.out_bytes = side_bytes(desc, false);
  uint64_t elem = complex_bytes(desc);
  auto check = [&](uint64_t bytes, const char* what) {
    if (bytes > max_buffer_bytes)
      throw Unsupported("the " + std::string(what) + " needs a buffer of " + std::to_string(bytes) +
                        " bytes, more than the " + std::to_string(max_buffer_bytes) +
                        " one binding of the device addresses");
  };
  check(p.in_bytes, "input");
  check(p.out_bytes, "output");
  for (int dir : directions(desc)) {
    p.plans.push_back(plan(desc, dir, device, options));
    p.directions.push_back(dir);
    const Plan& last = p.plans.back();
    p.scratch_bytes = std::max<uint64_t>(p.scratch_bytes, last.scratch_elements * elem);
    p.passes = std::max(p.passes, last.passes.size());
    check(uint64_t(last.table_size) * elem, "twiddle table");
  }
  check(p.scratch_bytes, "scratch");
  return p;
}

namespace {

std::string generated_key(const fftmux_desc& desc, const Device& d, const Options& o,
                          uint64_t max_buffer_bytes, Dialect dialect) {
  static_assert(sizeof(fftmux_desc) == 56 + 24 * FFTMUX_MAX_RANK, "fftmux_desc has no padding");
  std::string k(reinterpret_cast<const char*>(&desc), sizeof desc);
  // Every field by value: the structs' padding bytes are not theirs to key.
  static_assert(sizeof(Options) == 40 && sizeof(Device) == 56, "a new field joins the key");
  for (uint64_t v : {uint64_t(o.max_radix),
                     uint64_t(o.max_composite),
                     uint64_t(o.values_per_thread),
                     uint64_t(o.group_threads),
                     uint64_t(o.max_single),
                     uint64_t(o.coalesce_teams),
                     uint64_t(o.resident_groups),
                     uint64_t(o.slot_addresses),
                     uint64_t(o.stream),
                     uint64_t(o.real_rows),
                     uint64_t(o.butterfly_tail),
                     uint64_t(o.long_real_columns),
                     uint64_t(o.split_convolution),
                     uint64_t(o.sector_columns),
                     uint64_t(o.shared_chunks),
                     uint64_t(d.shared_bytes),
                     uint64_t(d.max_threads),
                     uint64_t(d.subgroup),
                     d.max_binding_bytes,
                     uint64_t(d.f64),
                     uint64_t(d.max_radix),
                     uint64_t(d.max_composite),
                     uint64_t(d.large_composites_from),
                     uint64_t(d.sm_shared_bytes),
                     uint64_t(d.group_value_bytes),
                     uint64_t(d.cluster),
                     uint64_t(d.bulk_copy),
                     uint64_t(d.launch_bounds),
                     max_buffer_bytes,
                     uint64_t(dialect)})
    k.append(reinterpret_cast<const char*>(&v), sizeof v);
  return k;
}

} // namespace

std::shared_ptr<const Generated> generate(const fftmux_desc& desc, const Device& device,
                                          const Options& options, uint64_t max_buffer_bytes,
                                          Dialect dialect) {
  static std::mutex mutex;
  static KernelCache<const Generated> kept(256);
  std::string key = generated_key(desc, device, options, max_buffer_bytes, dialect);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto known = kept.find(key))
      return known;
  }
  auto g = std::make_shared<Generated>();
  g->planned = plan_all(desc, device, options, max_buffer_bytes);
  g->precision = desc.precision == FFTMUX_F64 ? Precision::f64 : Precision::f32;
  g->dialect = dialect;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto known = kept.find(key)) // another thread generated it meanwhile
    return known;
  kept.add(key, g);
  return g;
}

uint64_t batch_offset(const fftmux_desc& desc, bool input, int64_t first) {
  bool real = input ? desc.kind == FFTMUX_R2C : desc.kind == FFTMUX_C2R;
  uint64_t elem = complex_bytes(desc) / (real ? 2 : 1);
  return uint64_t(first) * uint64_t(input ? desc.in_distance : desc.out_distance) * elem;
}

uint64_t binding_offset(const fftmux_desc& desc, Binding b, int64_t first) {
  return b == Binding::scratch ? 0 : batch_offset(desc, b == Binding::input, first);
}

std::vector<Chunk> generate_chunks(const fftmux_desc& desc, const Device& device,
                                   const Options& options, uint64_t max_buffer_bytes,
                                   Dialect dialect, uint64_t offset_align) {
  auto part = [&](int64_t batch) {
    fftmux_desc d = desc;
    d.batch = batch;
    return generate(d, device, options, max_buffer_bytes, dialect);
  };
  try {
    return {{0, desc.batch, part(desc.batch)}};
  } catch (const Unsupported&) {
    // Chunk starts are multiples of `step` batches, aligned on both sides.
    auto step_of = [&](bool input) {
      uint64_t a = std::max<uint64_t>(offset_align, 1), b = batch_offset(desc, input, 1);
      return int64_t(a / std::gcd(a, b ? b : a));
    };
    int64_t step = std::lcm(step_of(true), step_of(false));
    for (int64_t c = desc.batch / 2 / step * step; c >= step; c = c / 2 / step * step) {
      std::shared_ptr<const Generated> g;
      try {
        g = part(c);
      } catch (const Unsupported&) {
        continue;
      }
      std::vector<Chunk> out;
      int64_t first = 0;
      for (; first + c <= desc.batch; first += c)
        out.push_back({first, c, g});
      if (first < desc.batch)
        out.push_back({first, desc.batch - first, part(desc.batch - first)});
      return out;
    }
    throw;
  }
}

const std::vector<std::string>& Generated::sources() const {
  std::call_once(sources_once_, [this] {
    for (const Plan& p : planned.plans)
      for (const Pass& pass : p.passes)
        sources_.push_back(emit(pass.kernel, dialect));
  });
  return sources_;
}

const std::vector<unsigned char>& Generated::table(size_t i) const {
  std::call_once(tables_once_, [this] {
    for (const Plan& p : planned.plans)
      tables_.push_back(table_bytes(p, precision));
  });
  return tables_.at(i);
}

const std::string& Generated::fingerprint() const {
  std::call_once(fingerprint_once_, [this] {
    std::string code;
    for (const std::string& source : sources())
      code += source;
    for (const Plan& p : planned.plans) {
      for (const Pass& pass : p.passes)
        code += ' ' + std::to_string(pass.kernel.groups()) + ' ' +
                std::to_string(pass.kernel.workgroup()) + ' ' + std::to_string(int(pass.src)) +
                std::to_string(int(pass.dst));
      code += ' ' + std::to_string(p.table_size) + ' ' + std::to_string(p.scratch_elements);
    }
    fingerprint_ = hash_hex(code);
  });
  return fingerprint_;
}

plugin::Work work(const std::vector<Chunk>& chunks, const fftmux_desc& desc) {
  plugin::Work w;
  for (const Chunk& c : chunks) {
    const Generated& g = *c.generated;
    for (const Pass& pass : g.planned.plans.front().passes) { // the problem's own direction
      const Kernel& k = pass.kernel;
      double values = double(k.transforms()) * double(k.length);
      w.launches += 1;
      w.device_bytes += 2 * values * (k.precision == Precision::f64 ? 16 : 8);
      w.flops +=
          (k.convolution ? 10 : 5) * values * std::log2(std::max<double>(2, double(k.length)));
    }
    w.fingerprint += g.fingerprint();
  }
  if (chunks.size() > 1)
    w.fingerprint = hash_hex(w.fingerprint);
  if (desc.placement == FFTMUX_HOST)
    w.host_bytes = double(side_bytes(desc, true) + side_bytes(desc, false));
  return w;
}

std::vector<Dispatch> dispatches(uint64_t groups, uint32_t max_x, uint32_t max_y) {
  std::vector<Dispatch> out;
  uint64_t x = std::min<uint64_t>(groups, max_x);
  for (uint64_t done = 0; done < groups;) {
    uint64_t y = std::min<uint64_t>((groups - done + x - 1) / x, max_y);
    out.push_back({uint32_t(x), uint32_t(y), uint32_t(done)});
    done += x * y;
  }
  return out;
}

std::vector<unsigned char> table_bytes(const Plan& plan, Precision p) {
  std::vector<std::complex<double>> t = table_values(plan);
  std::vector<unsigned char> bytes;
  if (p == Precision::f64) {
    bytes.resize(t.size() * sizeof t[0]);
    std::copy_n(reinterpret_cast<const unsigned char*>(t.data()), bytes.size(), bytes.data());
    return bytes;
  }
  std::vector<std::complex<float>> f(t.begin(), t.end()); // rounded once, from double
  bytes.resize(f.size() * sizeof f[0]);
  std::copy_n(reinterpret_cast<const unsigned char*>(f.data()), bytes.size(), bytes.data());
  return bytes;
}

std::string hash_hex(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ull;
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)h);
  return b;
}

std::string bytes_hex(const unsigned char* bytes, size_t n) {
  std::string s;
  char t[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(t, sizeof t, "%02x", bytes[i]);
    s += t;
  }
  return s;
}

double estimate_seconds(const fftmux_desc& desc, size_t passes, double bandwidth, double launch,
                        double host_bandwidth) {
  double sides = double(side_bytes(desc, true) + side_bytes(desc, false));
  double t = launch * double(passes) + sides * double(passes) / bandwidth;
  if (desc.placement == FFTMUX_HOST)
    t += sides / host_bandwidth;
  return t;
}

} // namespace fftmux::codegen
