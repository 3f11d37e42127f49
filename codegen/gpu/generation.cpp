// Both directions planned, remembered with their sources and tables, split into
// batch chunks; and what a query reports of them.
#include <fftmux/desc_geometry.hpp>
#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/kernel_cache.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <tuple>

namespace fftmux::codegen {

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
  uint64_t elem = arithmetic_bytes(desc); // scratch and tables
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

// Appends each of a tuple's fields by value: the structs' padding bytes are not theirs to key.
void append(std::string& k, uint64_t v) {
  k.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class Tuple> void append_fields(std::string& k, const Tuple& fields) {
  std::apply([&](const auto&... f) { (append(k, uint64_t(f)), ...); }, fields);
}

std::string generated_key(const fftmux_desc& desc, const Device& d, const Options& o,
                          uint64_t max_buffer_bytes, Dialect dialect) {
  static_assert(sizeof(fftmux_desc) == 60 + 44 * FFTMUX_MAX_RANK, "fftmux_desc has no padding");
  std::string k(reinterpret_cast<const char*>(&desc), sizeof desc);
  append_fields(k, o.fields());
  append_fields(k, d.fields());
  append(k, max_buffer_bytes);
  append(k, uint64_t(dialect));
  // A product by where its values lie: its plans hold it, so while they are kept no other
  // product has that address.
  append(k, reinterpret_cast<uintptr_t>(o.product.get()));
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
  g->precision = arithmetic(desc);
  g->dialect = dialect;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto known = kept.find(key)) // another thread generated it meanwhile
    return known;
  kept.add(key, g);
  return g;
}

uint64_t batch_offset(const fftmux_desc& desc, bool input, int64_t first) {
  uint64_t elem = complex_bytes(desc) / (geometry::real_side(desc, input) ? 2 : 1);
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

namespace {

// Bytes of a complex value of one side of a kernel.
double bytes(const Kernel& k, const Side& side) {
  return half_side(k, side) ? 4 : k.precision == Precision::f64 ? 16 : 8;
}

} // namespace

Work work(const std::vector<Chunk>& chunks, const fftmux_desc& desc) {
  Work w;
  for (const Chunk& c : chunks) {
    const Generated& g = *c.generated;
    for (const Pass& pass : g.planned.plans.front().passes) { // the problem's own direction
      const Kernel& k = pass.kernel;
      double values = double(k.transforms()) * double(k.length);
      w.launches += 1;
      w.device_bytes += values * (bytes(k, k.load) + bytes(k, k.store));
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

std::string summary(const std::vector<Chunk>& chunks) {
  std::string s = chunks.at(0).generated->planned.plans.back().summary;
  if (chunks.size() > 1)
    s += "; in " + std::to_string(chunks.size()) + " batch chunks";
  return s;
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
