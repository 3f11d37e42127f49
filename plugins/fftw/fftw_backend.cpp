// The reference CPU backend: FFTW's guru64 interface for every layout
// (plan.hpp), its settings, wisdom and the plugin table.
#include "plan.hpp"
#include "threads.hpp"
#include "work.hpp"

#include <fftmux/plugin.h>
#include <fftmux/plugin_support.hpp>
#include <fftmux/plugin_table.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>

namespace fftmux::fftw {
namespace {

using plugin::guarded;

using plugin::setting;

// A whole number of [backends.fftw] within [low, high]; fallback when unset.
int64_t whole(const fftmux_host_v1* host, const char* key, int64_t fallback, int64_t low,
              int64_t high) {
  std::string v = setting(host, key, "");
  if (v.empty())
    return fallback;
  char* end = nullptr;
  errno = 0;
  long long n = std::strtoll(v.c_str(), &end, 10);
  std::string name = std::string("[backends.fftw] ") + key;
  if (*end || errno)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, name + " = \"" + v + "\": not a whole number");
  if (n < low || n > high)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         name + " must be between " + std::to_string(low) + " and " + std::to_string(high));
  return n;
}

// Seconds of [backends.fftw] key, at least low; fallback when unset.
double seconds(const fftmux_host_v1* host, const char* key, double fallback, double low) {
  std::string v = setting(host, key, "");
  if (v.empty())
    return fallback;
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (*end || !(x >= low) || !std::isfinite(x))
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, std::string("[backends.fftw] ") + key + " = \"" + v +
                                            "\": use a number of seconds, " + std::to_string(low) +
                                            " or more");
  return x;
}

// fftw_init_threads and the planner's own lock, once per process.
void setup_fftw() {
  static const bool ready = [] {
    bool ok = Api<double>::init_threads() && Api<float>::init_threads();
    Api<double>::make_planner_thread_safe();
    Api<float>::make_planner_thread_safe();
    return ok;
  }();
  if (!ready)
    fail(FFTMUX_ERROR_BACKEND, "fftw_init_threads failed");
}

unsigned parse_rigor(const std::string& name) {
  const std::pair<const char*, unsigned> table[] = {{"estimate", FFTW_ESTIMATE},
                                                    {"measure", FFTW_MEASURE},
                                                    {"patient", FFTW_PATIENT},
                                                    {"exhaustive", FFTW_EXHAUSTIVE}};
  for (auto& [n, flag] : table)
    if (name == n)
      return flag;
  fail(FFTMUX_ERROR_INVALID_ARGUMENT,
       "[backends.fftw] planner = \"" + name + "\": use estimate, measure, patient or exhaustive");
}

using plugin::cpu_model;

template <class T> std::string wisdom_path(const Backend& b) {
  return b.wisdom_dir + "/" + Api<T>::wisdom_file;
}

// The administrator's wisdom (/etc/fftw/wisdom, as fftw-wisdom writes it)
// first, then the user's on top, as FFTW's own tools do.
template <class T> void import_wisdom(const Backend& b) {
  Api<T>::import_system_wisdom(); // none installed is the common case
  std::ifstream f(wisdom_path<T>(b));
  std::stringstream s;
  s << f.rdbuf();
  if (!s.str().empty())
    Api<T>::import_wisdom(s.str().c_str()); // stale or corrupt wisdom is ignored
}

template <class T> void export_wisdom(const Backend& b) {
  char* text = Api<T>::export_wisdom();
  if (text)
    b.host.write_file(wisdom_path<T>(b).c_str(), text, std::strlen(text));
  std::free(text);
}

// ---- the table's functions ----

fftmux_status init(const fftmux_host_v1* h, void** out) {
  return guarded(h, [&] {
    auto b = std::make_unique<Backend>();
    b->host = *h;
    // A wrong threads in the config fails init; the environment's are noted and skipped.
    whole(h, "threads", 0, 1, max_threads);
    Threads t =
        resolve_threads(setting(h, "threads", "").c_str(), std::getenv("FFTMUX_NUM_THREADS"),
                        std::getenv("OMP_NUM_THREADS"), affinity_cpus());
    b->threads = t.count;
    b->threads_from = t.source + (t.notes.empty() ? "" : "; " + t.notes);
    b->thread_threshold = whole(h, "thread_threshold", 65536, 0, INT64_MAX);
    b->rigor = parse_rigor(setting(h, "planner", "estimate"));
    b->plan_seconds = seconds(h, "plan_seconds", 2, 0.001);
    b->wisdom_dir =
        setting(h, "wisdom_dir", std::string(h->cache_dir ? h->cache_dir : "") + "/fftw");
    setup_fftw();
    std::lock_guard<std::mutex> lock(planner);
    import_wisdom<double>(*b);
    import_wisdom<float>(*b);
    *out = b.release();
  });
}

void shutdown(void* p) {
  auto* b = static_cast<Backend*>(p);
  if (b->wisdom_changed) {
    std::lock_guard<std::mutex> lock(planner);
    export_wisdom<double>(*b);
    export_wisdom<float>(*b);
  }
  delete b;
}

fftmux_status about(void* p, fftmux_about_v1* a) {
  auto* b = static_cast<Backend*>(p);
  return guarded(&b->host, [&] {
    std::string cpu = cpu_model();
    std::snprintf(a->devices, sizeof a->devices, "CPU: %s, %d threads (%s)", cpu.c_str(),
                  b->threads, b->threads_from.c_str());
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s; cpu %s; threads %d", fftw_version,
                  cpu.c_str(), b->threads);
  });
}

// default: the configured planner (estimate unless [backends.fftw] planner
// says otherwise), so that a new shape plans in microseconds; measure:
// FFTW_MEASURE, for autotune to time (its wisdom then serves default too).
const std::vector<const char*> variants = {"default", "measure"};

unsigned rigor_of(const Backend& b, uint32_t variant) {
  if (variant >= variants.size())
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "fftw: variant " + std::to_string(variant) + " does not exist (0: default, 1: measure)");
  return variant == 0 ? b.rigor : FFTW_MEASURE;
}

// The work: one call, its sides streamed once a pass past the first cache
// and its flops weighed by the effort of primes and strided passes
// (work.hpp), both counted for the whole machine's threads even where the
// plan runs on one (thread_threshold), so that the model's rates, fitted on
// threaded probes, price it right.
// FFTW computes in F32 and F64 only; converting 16-bit data on the host
// would cost more passes over memory than the transform saves.
const char* const half_declined =
    "fftw: F16 and BF16 are storage formats for the GPU backends; FFTW has no 16-bit "
    "transforms and converting on the host costs more than the transform saves, so "
    "convert the data to F32 and plan in F32";

fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  auto* b = static_cast<Backend*>(p);
  return guarded(&b->host, [&] {
    if (plugin::half_storage(d->precision)) {
      a->supported = 0;
      std::snprintf(a->reason, sizeof a->reason, "%s", half_declined);
      return;
    }
    unsigned rigor = rigor_of(*b, variant);
    double flops = plugin::fft_flops(*d);
    bool one_thread = plugin::points(*d) * d->batch < b->thread_threshold;
    a->supported = 1;
    a->estimate_seconds = flops / (2e9 * b->threads); // a rough guess: 2 GFLOP/s per thread
    plugin::Work w;
    double share = one_thread ? b->threads : 1; // the machine's rate, fitted on all threads
    w.launches = 1;
    w.device_bytes = double(plugin::side_bytes(*d, true) + plugin::side_bytes(*d, false)) *
                     fftw::spill(*d) * share;
    w.flops = flops * share * fftw::effort(*d);
    w.fingerprint = rigor == FFTW_ESTIMATE  ? "estimate"
                    : rigor == FFTW_MEASURE ? "measure"
                    : rigor == FFTW_PATIENT ? "patient"
                                            : "exhaustive";
    plugin::report(a, w);
  });
}

// A plan on params->threads (0: the backend's choice), answering the most
// threads it runs on.
fftmux_status plan_create_v2(void* p, const fftmux_desc* d, uint32_t variant,
                             fftmux_plan_params_v1* params, void** out) {
  auto& b = *static_cast<Backend*>(p);
  return guarded(&b.host, [&] {
    if (params->threads > uint32_t(max_threads))
      fail(FFTMUX_ERROR_INVALID_ARGUMENT, "fftw: threads = " + std::to_string(params->threads) +
                                              ": must be at most " + std::to_string(max_threads));
    if (plugin::half_storage(d->precision))
      fail(FFTMUX_ERROR_UNSUPPORTED, half_declined);
    std::unique_ptr<PlanBase> plan;
    unsigned rigor = rigor_of(b, variant);
    int threads = int(params->threads);
    if (d->precision == FFTMUX_F64)
      plan = std::make_unique<Plan<double>>(b, *d, rigor, threads);
    else
      plan = std::make_unique<Plan<float>>(b, *d, rigor, threads);
    params->threads = uint32_t(plan->threads());
    *out = plan.release();
  });
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  fftmux_plan_params_v1 params{};
  params.struct_size = sizeof params;
  return plan_create_v2(p, d, variant, &params, out);
}

void plan_destroy(void* plan) {
  delete static_cast<PlanBase*>(plan);
}

fftmux_status execute(void* plan, int direction, const void* in, void* out) {
  auto* p = static_cast<PlanBase*>(plan);
  return guarded(p->host(), [&] { p->execute(direction, in, out); });
}

// fftmux buffers of this backend are host memory: the handle is the pointer.
struct Buffer {
  void* data;
  bool owned;
};

fftmux_status execute_buffers(void* plan, int direction, void* in, void* out) {
  return execute(plan, direction, static_cast<Buffer*>(in)->data, static_cast<Buffer*>(out)->data);
}

fftmux_status synchronize(void*) {
  return FFTMUX_OK;
}

fftmux_status buffer_alloc(void* p, uint64_t bytes, void** out) {
  return guarded(&static_cast<Backend*>(p)->host, [&] {
    void* data = fftw_malloc(size_t(bytes));
    if (!data)
      fail(FFTMUX_ERROR_OUT_OF_MEMORY, "fftw_malloc of " + std::to_string(bytes) + " bytes failed");
    *out = new Buffer{data, true};
  });
}

fftmux_status buffer_wrap(void* p, uint64_t native, uint64_t, void** out) {
  return guarded(&static_cast<Backend*>(p)->host, [&] {
    *out = new Buffer{reinterpret_cast<void*>(native), false};
  });
}

void buffer_free(void* p) {
  auto* b = static_cast<Buffer*>(p);
  if (b->owned)
    fftw_free(b->data);
  delete b;
}

fftmux_status buffer_write(void* p, uint64_t offset, const void* src, uint64_t bytes) {
  std::memcpy(static_cast<char*>(static_cast<Buffer*>(p)->data) + offset, src, bytes);
  return FFTMUX_OK;
}

fftmux_status buffer_read(void* p, uint64_t offset, void* dst, uint64_t bytes) {
  std::memcpy(dst, static_cast<const char*>(static_cast<Buffer*>(p)->data) + offset, bytes);
  return FFTMUX_OK;
}

uint64_t buffer_native(void* p) {
  return reinterpret_cast<uint64_t>(static_cast<Buffer*>(p)->data);
}

// The whole API, real-to-real kinds and padded sides included.
plugin::Identity identity() {
  // F16 and BF16 are declined in query, with the reason.
  return plugin::whole_identity("fftw", FFTMUX_DOMAIN_HOST, variants,
                                plugin::half_caps | FFTMUX_CAP_R2R | FFTMUX_CAP_PADDING);
}

} // namespace
} // namespace fftmux::fftw

// No plan_set_stream: FFTW has no queues.
FFTMUX_PLUGIN_TABLE_OPTIONAL(fftmux::fftw, identity(), nullptr, plan_create_v2)
