// A fake backend compiled into several libraries with different exports and
// behaviours (after the Khronos loader's test drivers). It runs C2C rank-1
// transforms of up to max_n points (default 1024) by a naive DFT; its config
// table ([backends.<name>]) can make it fail at one step (fail_at = "init",
// "query", "plan", "execute" or "alloc") with any status (status = 1234 is
// garbage, 6 out of memory; the default is FFTMUX_ERROR_BACKEND, out of
// memory for "alloc"), give wrong results (wrong = true, or "inverse" in
// that direction alone), take a fixed
// extra time (delay_us), claim another in its estimate (claim_us; default
// delay_us) and report the work of a GPU that moves the data once (work =
// "gpu": one launch, the sides in its memory and, HOST plans, over the bus)
// or none (the default, as plugins before the work fields), and take bus_us
// for each copy between host memory and its buffers, as a GPU's bus would
// (twice in a HOST execution, around its kernels). delay_us and claim_us
// take one number or, as text, one per variant ("100, 100, 300").
//
// Its FixtureConfig (fixture_config.hpp) sets the rest. A trusting fixture
// accepts every problem its host passes and advertises what its DFT runs
// (F32, F64, C2C, strides, in place; rank 1) less the lacks bit: a problem
// that needs a capability it lacks yields NaNs, as an engine fed what it
// cannot run yields garbage, so only the host's checks keep it right. One
// that claims devices (FFTMUX_CAP_DEVICES) still runs the DFT on the host,
// and a plan's buffer is host memory cut into one piece a device, so that
// the host's plumbing is what is tested.
#include "fixture_config.hpp"

#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using fftmux::plugin::fail;
using fftmux::plugin::guarded;

// One per context, with a copy of that context's host table: the table is
// only valid during init (plugin.h), and a copy in a global would be
// rewritten by another context's init on another thread.
struct Backend {
  fftmux_host_v1 host{};
  std::string fail_at;                               // "init", "query", "plan", "execute", "alloc"
  int status = FFTMUX_ERROR_BACKEND;                 // what the failing step returns
  bool wrong_forward = false, wrong_inverse = false; // results off by a factor of two
  std::vector<long> delay_us{0};                     // added to every execution, by variant
  std::vector<long> claim_us;                        // the estimate, by variant; empty: delay_us
  bool gpu_work = false;                             // reports a GPU's work
  long bus_us = 0;                                   // each copy between host memory and buffers
  long max_n = 1024;                                 // longer lines are declined
  std::string hardware;                              // the hardware key; "": "fixture <name>"
};

struct Plan {
  Backend* backend;
  fftmux_desc desc;
  long delay_us;
  bool garbage;                  // needs a capability the table does not advertise
  std::vector<uint32_t> devices; // those it spans; empty: one
};

uint32_t caps() {
  const FixtureConfig& c = fixture_config;
  uint32_t runs = FFTMUX_CAP_F32 | FFTMUX_CAP_F64 | FFTMUX_CAP_C2C | FFTMUX_CAP_STRIDES;
  if (c.trusting)
    return (runs | FFTMUX_CAP_IN_PLACE) & ~c.lacks;
  return c.devices ? runs | FFTMUX_CAP_DEVICES : runs;
}

// Whether d needs a capability the table leaves out.
bool beyond_caps(const fftmux_desc& d) {
  namespace plugin = fftmux::plugin;
  bool layout = false;
  for (bool input : {true, false})
    layout = layout || plugin::custom_strides(d, input) || plugin::custom_distance(d, input);
  const std::pair<bool, uint32_t> needs[] = {
      {d.precision == FFTMUX_F32, FFTMUX_CAP_F32},
      {d.precision == FFTMUX_F64, FFTMUX_CAP_F64},
      {d.kind == FFTMUX_C2C, FFTMUX_CAP_C2C},
      {d.kind != FFTMUX_C2C, FFTMUX_CAP_R2C},
      {(d.flags & FFTMUX_IN_PLACE) != 0, FFTMUX_CAP_IN_PLACE},
      {(d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT)) != 0, FFTMUX_CAP_SHIFT},
      {layout, FFTMUX_CAP_STRIDES},
      {plugin::padded(d), FFTMUX_CAP_PADDING},
  };
  for (auto [needed, cap] : needs)
    if (needed && !(caps() & cap))
      return true;
  return d.rank > 1;
}

const char* const many_variants[] = {"naive",
                                     "variant-with-a-long-name-01",
                                     "variant-with-a-long-name-02",
                                     "variant-with-a-long-name-03",
                                     "variant-with-a-long-name-04",
                                     "variant-with-a-long-name-05",
                                     "variant-with-a-long-name-06",
                                     "variant-with-a-long-name-07",
                                     "variant-with-a-long-name-08",
                                     "variant-with-a-long-name-09",
                                     "variant-with-a-long-name-10"};
const char* const twin_variants[] = {"naive", "naive-again", "other"};
const char* const one_variant[] = {"naive"};

// The code a variant runs: naive-again runs naive's.
const char* fingerprint(uint32_t variant) {
  const char* name = fixture_table()->variants[variant];
  return std::strcmp(name, "naive-again") == 0 ? "naive" : name;
}

// The value of a per-variant list: its own, else the last.
long of_variant(const std::vector<long>& v, uint32_t variant) {
  return v.empty() ? 0 : v[std::min<size_t>(variant, v.size() - 1)];
}

std::string config(const fftmux_host_v1* host, const char* key) {
  const char* v = host->config(host->host_data, key);
  return v ? v : "";
}

extern "C" fftmux_status fixture_status(int value); // fixture_status.c

// Whether step is configured to fail; if so, with its message set.
bool fails(const Backend& b, const char* step) {
  if (b.fail_at != step)
    return false;
  b.host.set_error(
      (std::string("fixture ") + fixture_config.name + " fails at " + step + " as configured")
          .c_str());
  return true;
}

// One number, or several separated by commas; fallback when absent.
std::vector<long> numbers(const fftmux_host_v1* host, const char* key, std::vector<long> fallback) {
  std::string v = config(host, key);
  if (v.empty())
    return fallback;
  std::vector<long> out;
  for (const char* at = v.c_str(); *at;) {
    char* end = nullptr;
    out.push_back(std::strtol(at, &end, 10));
    while (*end == ' ' || *end == ',')
      ++end;
    if (end == at)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, std::string(key) + " = \"" + v + "\" is not a number");
    at = end;
  }
  return out;
}

long number(const fftmux_host_v1* host, const char* key, long fallback) {
  return numbers(host, key, {fallback}).front();
}

template <class T> void dft(const Plan& p, int dir, const void* in, void* out) {
  const fftmux_desc& d = p.desc;
  int64_t n = d.n[0];
  auto* x = static_cast<const std::complex<T>*>(in);
  auto* y = static_cast<std::complex<T>*>(out);
  bool wrong = dir == FFTMUX_FORWARD ? p.backend->wrong_forward : p.backend->wrong_inverse;
  double s = fftmux::plugin::scale(d, dir) * (wrong ? 2 : 1);
  std::vector<std::complex<double>> line(static_cast<size_t>(n)), root(static_cast<size_t>(n));
  for (int64_t m = 0; m < n; ++m) // the n roots once: autotune's checks run batches of 2^22
    root[size_t(m)] = std::polar(1.0, dir * 2 * M_PI * double(m) / double(n));
  for (int64_t b = 0; b < d.batch; ++b) {
    for (int64_t k = 0; k < n; ++k) {
      std::complex<double> acc = 0;
      for (int64_t j = 0; j < n; ++j)
        acc += std::complex<double>(x[b * d.in_distance + j * d.in_strides[0]]) *
               root[size_t((j * k) % n)];
      line[size_t(k)] = acc * s;
    }
    for (int64_t k = 0; k < n; ++k)
      y[b * d.out_distance + k * d.out_strides[0]] = std::complex<T>(line[size_t(k)]);
  }
}

fftmux_status init(const fftmux_host_v1* h, void** out) {
  auto b = std::make_unique<Backend>();
  b->host = *h;
  fftmux_status s = guarded(h, [&] {
    b->fail_at = config(h, "fail_at");
    b->status = int(number(
        h, "status", b->fail_at == "alloc" ? FFTMUX_ERROR_OUT_OF_MEMORY : FFTMUX_ERROR_BACKEND));
    std::string wrong = config(h, "wrong");
    b->wrong_forward = wrong == "true";
    b->wrong_inverse = wrong == "true" || wrong == "inverse";
    b->delay_us = numbers(h, "delay_us", {0});
    b->claim_us = numbers(h, "claim_us", {});
    b->gpu_work = config(h, "work") == "gpu";
    b->bus_us = number(h, "bus_us", 0);
    b->max_n = number(h, "max_n", 1024);
    b->hardware = config(h, "hardware");
  });
  if (s != FFTMUX_OK)
    return s;
  if (fails(*b, "init"))
    return fixture_status(b->status);
  *out = b.release();
  return FFTMUX_OK;
}

void shutdown(void* b) {
  delete static_cast<Backend*>(b);
}

fftmux_status about(void* p, fftmux_about_v1* a) {
  const std::string& hardware = static_cast<Backend*>(p)->hardware;
  uint32_t devices = fixture_config.devices;
  std::string lines = devices ? "" : "fixture device";
  for (uint32_t i = 0; i < devices; ++i)
    lines += (i ? "\n" : "") + std::string("fixture device ") + std::to_string(i);
  std::snprintf(a->devices, sizeof a->devices, "%s", lines.c_str());
  if (devices)
    a->max_devices = devices;
  if (hardware.empty())
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "fixture %s", fixture_config.name);
  else
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s", hardware.c_str());
  return FFTMUX_OK;
}

fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  auto* b = static_cast<Backend*>(p);
  if (fails(*b, "query"))
    return fixture_status(b->status);
  a->supported = fixture_config.trusting ||
                 (d->kind == FFTMUX_C2C && d->rank == 1 && d->flags == 0 && d->n[0] <= b->max_n);
  if (!a->supported)
    std::snprintf(a->reason, sizeof a->reason,
                  "runs only out-of-place rank-1 C2C without shifts, up to %ld points", b->max_n);
  const std::vector<long>& claim = b->claim_us.empty() ? b->delay_us : b->claim_us;
  a->estimate_seconds = 1e-6 * double(of_variant(claim, variant));
  fftmux::plugin::Work w;
  w.fingerprint = fingerprint(variant);
  if (b->gpu_work) {
    double sides =
        double(fftmux::plugin::side_bytes(*d, true) + fftmux::plugin::side_bytes(*d, false));
    w.launches = 1;
    w.device_bytes = sides;
    w.host_bytes = d->placement == FFTMUX_HOST ? sides : 0;
  }
  fftmux::plugin::report(a, w);
  return FFTMUX_OK;
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  auto* b = static_cast<Backend*>(p);
  if (fails(*b, "plan"))
    return fixture_status(b->status);
  *out = new Plan{b, *d, of_variant(b->delay_us, variant), beyond_caps(*d), {}};
  return FFTMUX_OK;
}

void plan_destroy(void* p) {
  delete static_cast<Plan*>(p);
}

void wait_us(long us) {
  std::this_thread::sleep_for(std::chrono::microseconds(us));
}

// The plan's "kernels": its delay and the DFT, or NaNs over the output.
fftmux_status kernels(Plan& plan, int dir, const void* in, void* out) {
  wait_us(plan.delay_us);
  if (plan.garbage) {
    std::vector<float> nans(fftmux::plugin::side_bytes(plan.desc, false) / sizeof(float), NAN);
    std::memcpy(out, nans.data(), nans.size() * sizeof(float));
    return FFTMUX_OK;
  }
  return guarded(&plan.backend->host, [&] {
    if (plan.desc.precision == FFTMUX_F64)
      dft<double>(plan, dir, in, out);
    else
      dft<float>(plan, dir, in, out);
  });
}

fftmux_status execute(void* p, int dir, const void* in, void* out) {
  auto* plan = static_cast<Plan*>(p);
  if (fails(*plan->backend, "execute"))
    return fixture_status(plan->backend->status);
  wait_us(plan->backend->bus_us); // up
  fftmux_status s = kernels(*plan, dir, in, out);
  wait_us(plan->backend->bus_us); // and down
  return s;
}

struct Buffer {
  std::vector<unsigned char> bytes;
  long bus_us;
  std::vector<uint32_t> devices; // a plan's buffer: one piece each; empty: one piece
};

fftmux_status execute_buffers(void* p, int dir, void* in, void* out) {
  auto* plan = static_cast<Plan*>(p);
  if (fails(*plan->backend, "execute"))
    return fixture_status(plan->backend->status);
  return kernels(*plan, dir, static_cast<Buffer*>(in)->bytes.data(),
                 static_cast<Buffer*>(out)->bytes.data());
}

fftmux_status buffer_alloc(void* p, uint64_t bytes, void** out) {
  auto* b = static_cast<Backend*>(p);
  if (fails(*b, "alloc"))
    return fixture_status(b->status);
  return guarded(&b->host, [&] {
    *out = new Buffer{std::vector<unsigned char>(bytes), b->bus_us, {}};
  });
}

void buffer_free(void* b) {
  delete static_cast<Buffer*>(b);
}

fftmux_status buffer_write(void* b, uint64_t off, const void* src, uint64_t n) {
  wait_us(static_cast<Buffer*>(b)->bus_us);
  std::memcpy(static_cast<Buffer*>(b)->bytes.data() + off, src, n);
  return FFTMUX_OK;
}

fftmux_status buffer_read(void* b, uint64_t off, void* dst, uint64_t n) {
  wait_us(static_cast<Buffer*>(b)->bus_us);
  std::memcpy(dst, static_cast<Buffer*>(b)->bytes.data() + off, n);
  return FFTMUX_OK;
}

uint64_t buffer_native(void* b) {
  return reinterpret_cast<uint64_t>(static_cast<Buffer*>(b)->bytes.data());
}

fftmux_status query_v2(void* p, const fftmux_desc* d, uint32_t variant,
                       const fftmux_plan_params_v1* params, fftmux_answer_v1* a) {
  for (uint32_t i = 0; i < params->device_count; ++i)
    if (params->devices[i] >= fixture_config.devices) {
      std::snprintf(a->reason, sizeof a->reason, "fixture: device %u is not present (%u devices)",
                    params->devices[i], fixture_config.devices);
      return FFTMUX_OK;
    }
  return query(p, d, variant, a);
}

fftmux_status plan_create_v2(void* p, const fftmux_desc* d, uint32_t variant,
                             fftmux_plan_params_v1* params, void** out) {
  fftmux_status s = plan_create(p, d, variant, out);
  if (s == FFTMUX_OK && params->devices)
    static_cast<Plan*>(*out)->devices.assign(params->devices,
                                             params->devices + params->device_count);
  return s;
}

fftmux_status plan_buffer_alloc(void* p, uint64_t bytes, void** out) {
  auto* plan = static_cast<Plan*>(p);
  fftmux_status s = buffer_alloc(plan->backend, bytes, out);
  if (s == FFTMUX_OK)
    static_cast<Buffer*>(*out)->devices = plan->devices;
  return s;
}

// Equal pieces, the last one shorter where the bytes do not divide.
fftmux_status buffer_piece(void* b, uint32_t index, uint32_t* count, fftmux_piece* piece) {
  auto* buf = static_cast<Buffer*>(b);
  *count = std::max<uint32_t>(uint32_t(buf->devices.size()), 1);
  if (index >= *count)
    return FFTMUX_OK;
  uint64_t size = buf->bytes.size(), each = (size + *count - 1) / *count;
  piece->device = buf->devices.empty() ? 0 : buf->devices[index];
  piece->offset = std::min(size, each * index);
  piece->bytes = std::min(size - piece->offset, each);
  piece->native = reinterpret_cast<uint64_t>(buf->bytes.data() + piece->offset);
  piece->order = FFTMUX_ORDER_NATURAL;
  return FFTMUX_OK;
}

// The table: without devices, a plugin's built before plan_create_v2, which
// hosts still load and plan with plan_create.
fftmux_backend_v1 make_table() {
  const FixtureConfig& c = fixture_config;
  fftmux_backend_v1 t{};
  t.struct_size = c.devices ? sizeof t : offsetof(fftmux_backend_v1, plan_create_v2);
  t.abi_version = c.abi;
  t.name = c.name;
  t.version = "1.0";
  t.caps = caps();
  t.max_rank = 1;
  t.domain = c.domain;
  t.variant_count = c.many_variants ? std::size(many_variants)
                    : c.twins       ? std::size(twin_variants)
                                    : std::size(one_variant);
  t.variants = c.many_variants ? many_variants : c.twins ? twin_variants : one_variant;
  t.init = init;
  t.shutdown = shutdown;
  t.about = about;
  t.query = query;
  t.plan_create = plan_create;
  t.plan_destroy = plan_destroy;
  t.execute = execute;
  if (!c.no_buffers) {
    t.execute_buffers = execute_buffers;
    t.buffer_alloc = buffer_alloc;
    t.buffer_free = buffer_free;
    t.buffer_write = buffer_write;
    t.buffer_read = buffer_read;
    t.buffer_native = buffer_native;
  }
  if (c.devices) {
    t.plan_create_v2 = plan_create_v2;
    t.query_v2 = query_v2;
    t.plan_buffer_alloc = plan_buffer_alloc;
    t.buffer_piece = buffer_piece;
  }
  return t;
}

} // namespace

const fftmux_backend_v1* fixture_table() {
  static const fftmux_backend_v1 table = make_table();
  return &table;
}
