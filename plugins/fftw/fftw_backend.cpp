// The reference CPU backend: FFTW's guru64 interface for every layout, plus
// the staging FFTW lacks (numpy shifts, normalization, a preserved C2R input).
#include "fftw_api.hpp"
#include "layout.hpp"
#include "quirks.hpp"
#include "work.hpp"

#include <fftmux/plugin.h>
#include <fftmux/plugin_support.hpp>

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
#include <thread>
#include <type_traits>

namespace fftmux::fftw {
namespace {

using plugin::fail;
using plugin::guarded;
using plugin::Shape;

// FFTW's planner, thread setup and wisdom are the process's, shared by the
// backends of every context: one lock for all of them, not one each.
std::mutex planner;

// One per context, with a copy of that context's host table: the table is
// only valid during init (plugin.h), and one copy for the library would be
// rewritten by another context's init on another thread.
struct Backend {
  fftmux_host_v1 host{};
  int threads = 1;
  int64_t thread_threshold = 1 << 16; // smaller problems run on one thread
  double plan_seconds = 2;            // the most a measuring planner spends on a plan
  unsigned rigor = FFTW_ESTIMATE;     // the default variant's planner
  std::string wisdom_dir;
  bool wisdom_changed = false; // under planner
};

// The estimate planner's threads for a problem, as timed: the process's,
// as FFTW's planner is (under planner).
std::map<std::string, int> estimate_threads;

std::string config(const fftmux_host_v1* host, const char* key, const std::string& fallback) {
  const char* v = host->config ? host->config(host->host_data, key) : nullptr;
  return v ? v : fallback;
}

// A whole number of [backends.fftw] within [low, high]; fallback when unset.
int64_t whole(const fftmux_host_v1* host, const char* key, int64_t fallback, int64_t low,
              int64_t high) {
  std::string v = config(host, key, "");
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
  std::string v = config(host, key, "");
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

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

template <class T> std::string wisdom_path(const Backend& b) {
  return b.wisdom_dir + "/" + Api<T>::wisdom_file;
}

template <class T> void import_wisdom(const Backend& b) {
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

// FFTW's view of one side: guru dimensions and the batch loop.
struct Dims {
  fftw_iodim64 dims[FFTMUX_MAX_RANK];
  fftw_iodim64 batch;
  int rank;
};

Dims guru_dims(const fftmux_desc& d, const Shape& in, const Shape& out) {
  Dims g{};
  g.rank = int(d.rank);
  int offset = FFTMUX_MAX_RANK - g.rank;
  for (int i = 0; i < g.rank; ++i)
    g.dims[i] = {d.n[i], in.stride[offset + i], out.stride[offset + i]};
  g.batch = {d.batch, in.distance, out.distance};
  return g;
}

// A side laid out contiguously: the staging buffers' layout.
Shape packed(Shape s) {
  int64_t step = 1;
  for (int i = FFTMUX_MAX_RANK - 1; i >= 0; --i) {
    s.stride[i] = step;
    step *= s.extent[i];
  }
  s.distance = step;
  return s;
}

int64_t span(const Shape& s, int64_t batch) {
  int64_t last = (batch - 1) * s.distance;
  for (int i = 0; i < FFTMUX_MAX_RANK; ++i)
    last += (s.extent[i] - 1) * s.stride[i];
  return last + 1;
}

// Whether a side is laid out contiguously, as packed() lays it: its
// elements are one run of memory, copied or scaled in one loop.
bool is_packed(const Shape& s) {
  Shape p = packed(s);
  return std::equal(s.stride, s.stride + FFTMUX_MAX_RANK, p.stride) && s.distance == p.distance;
}

struct PlanBase {
  explicit PlanBase(Backend& backend) : b_(backend) {}
  virtual ~PlanBase() = default;
  virtual void execute(int direction, const void* in, void* out) = 0;
  const fftmux_host_v1* host() const { return &b_.host; }

protected:
  Backend& b_;
};

template <class T> class Plan final : public PlanBase {
  using A = Api<T>;
  using Complex = typename A::complex;

public:
  Plan(Backend& backend, const fftmux_desc& d, unsigned rigor)
      : PlanBase(backend), d_(d), rigor_(rigor) {
    user_in_ = plugin::shape(d, true);
    user_out_ = plugin::shape(d, false);
    stage_in_ = (d.flags & FFTMUX_SHIFT_INPUT) || (d.kind == FFTMUX_C2R && !in_place());
    stage_out_ = d.flags & FFTMUX_SHIFT_OUTPUT;
    engine_in_ = stage_in_ ? packed(user_in_) : user_in_;
    engine_out_ = stage_out_ ? packed(user_out_) : user_out_;
    if (stage_in_)
      scratch_in_.reset(alloc(span(engine_in_, d.batch) * width(engine_in_)));
    if (stage_out_)
      scratch_out_.reset(alloc(span(engine_out_, d.batch) * width(engine_out_)));
    Dims g = guru_dims(d, engine_in_, engine_out_);
    unaligned_only_ = std::is_same_v<T, float> && d.kind == FFTMUX_C2C &&
                      f32_c2c_crashes(g.rank, g.dims, g.batch);
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      if (runs(dir))
        planned_[slot(dir)] = make(dir, unaligned_only_ ? FFTW_UNALIGNED : 0);
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      scale_[slot(dir)] = plugin::scale(d, dir);
  }

  ~Plan() override {
    std::lock_guard<std::mutex> lock(planner);
    for (auto* set : {&planned_, &unaligned_})
      for (auto p : *set)
        if (p)
          A::destroy(p);
  }

  void execute(int dir, const void* in, void* out) override {
    const T* src = static_cast<const T*>(in);
    if (stage_in_) {
      gather(src, scratch_in_.get());
      src = scratch_in_.get();
    }
    T* dst = stage_out_ ? scratch_out_.get() : static_cast<T*>(out);
    run(dir, const_cast<T*>(src), dst);
    double s = scale_[slot(dir)];
    if (stage_out_)
      scatter(dst, static_cast<T*>(out), T(s));
    else if (s != 1.0)
      rescale(static_cast<T*>(out), T(s));
  }

private:
  struct Free {
    void operator()(T* p) const { A::free(p); }
  };
  using Memory = std::unique_ptr<T, Free>;

  bool in_place() const { return d_.flags & FFTMUX_IN_PLACE; }
  bool engine_in_place() const { return in_place() && !stage_in_ && !stage_out_; }
  bool runs(int dir) const {
    return d_.kind == FFTMUX_C2C || (d_.kind == FFTMUX_R2C) == (dir == FFTMUX_FORWARD);
  }
  static int slot(int dir) { return dir == FFTMUX_FORWARD ? 0 : 1; }
  static int64_t width(const Shape& s) { return s.complex ? 2 : 1; }

  static T* alloc(int64_t count) {
    T* p = static_cast<T*>(A::malloc(size_t(count) * sizeof(T)));
    if (!p)
      fail(FFTMUX_ERROR_OUT_OF_MEMORY,
           "fftw_malloc of " + std::to_string(count * int64_t(sizeof(T))) + " bytes failed");
    return p;
  }

  // Plans one direction. FFTW_MEASURE overwrites its arrays, so the user
  // sides are planned on scratch memory of the same span; a plan made while
  // executing (extra: FFTW_UNALIGNED) on memory of its own, since the
  // scratch then holds data.
  typename A::plan make(int dir, unsigned extra) {
    Memory tmp_in, tmp_out;
    T* in = extra ? nullptr : scratch_in_.get();
    T* out = extra ? nullptr : scratch_out_.get();
    int64_t in_count = span(engine_in_, d_.batch) * width(engine_in_);
    int64_t out_count = span(engine_out_, d_.batch) * width(engine_out_);
    if (engine_in_place()) {
      tmp_in.reset(alloc(std::max(in_count, out_count)));
      in = out = tmp_in.get();
    } else {
      if (!in)
        tmp_in.reset(in = alloc(in_count));
      if (!out)
        tmp_out.reset(out = alloc(out_count));
    }
    // Waking threads costs more than small transforms take.
    int64_t work = plugin::points(d_) * d_.batch;
    std::lock_guard<std::mutex> lock(planner);
    std::string key = thread_key();
    auto timed_threads = estimate_threads.find(key);
    bool decided = timed_threads != estimate_threads.end();
    int& threads = threads_[slot(dir)];
    if (!extra)
      threads = work < b_.thread_threshold ? 1 : decided ? timed_threads->second : b_.threads;
    A::set_timelimit(b_.plan_seconds); // bounds the measuring planners (FFTW_NO_TIMELIMIT: -1)
    typename A::plan p = plan_on(threads, dir, rigor_ | extra, in, out);
    int64_t points = plugin::points(d_);
    if (!extra && rigor_ == FFTW_ESTIMATE && threads > 1 && !decided &&
        points <= thread_check_points) {
      // Timed on at most thread_check_points points: the batch cut to fit.
      int64_t batch = std::min(d_.batch, std::max<int64_t>(1, thread_check_points / points));
      std::fill(in, in + (engine_in_place() ? std::max(in_count, out_count) : in_count), T(0));
      typename A::plan one = plan_on(1, dir, rigor_, in, out, batch);
      typename A::plan many = batch == d_.batch ? p : plan_on(threads, dir, rigor_, in, out, batch);
      bool single = faster(one, many);
      if (many != p)
        A::destroy(many);
      if (single) {
        A::destroy(p);
        p = batch == d_.batch ? one : plan_on(1, dir, rigor_, in, out);
        threads = 1;
      }
      if (p != one)
        A::destroy(one);
      estimate_threads[key] = threads; // the other direction, and later plans, follow
    }
    b_.wisdom_changed = b_.wisdom_changed || rigor_ != FFTW_ESTIMATE;
    return p;
  }

  // The problem as FFTW sees it, for the thread check's memory.
  std::string thread_key() const {
    Dims g = guru_dims(d_, engine_in_, engine_out_);
    std::string k = std::to_string(d_.kind) + ' ' + std::to_string(sizeof(T)) + ' ' +
                    std::to_string(b_.threads);
    for (const fftw_iodim64& i : g.dims)
      k += ' ' + std::to_string(i.n) + ' ' + std::to_string(i.is) + ' ' + std::to_string(i.os);
    return k + ' ' + std::to_string(g.batch.n) + ' ' + std::to_string(g.batch.is) + ' ' +
           std::to_string(g.batch.os) + (engine_in_place() ? " in" : " out");
  }

  // A plan of the problem, or of its first `batch` transforms.
  typename A::plan plan_on(int threads, int dir, unsigned flags, T* in, T* out, int64_t batch = 0) {
    Dims g = guru_dims(d_, engine_in_, engine_out_);
    if (batch)
      g.batch.n = batch;
    A::plan_with_nthreads(threads);
    typename A::plan p = nullptr;
    if (d_.kind == FFTMUX_C2C)
      p = A::dft(g.rank, g.dims, 1, &g.batch, reinterpret_cast<Complex*>(in),
                 reinterpret_cast<Complex*>(out), dir, flags);
    else if (d_.kind == FFTMUX_R2C)
      p = A::r2c(g.rank, g.dims, 1, &g.batch, in, reinterpret_cast<Complex*>(out), flags);
    else
      p = A::c2r(g.rank, g.dims, 1, &g.batch, reinterpret_cast<Complex*>(in), out, flags);
    if (!p)
      fail(FFTMUX_ERROR_UNSUPPORTED, "FFTW could not plan this layout");
    return p;
  }

  // Whether a runs faster than b, by one timed execution each after a
  // warm-up: FFTW_ESTIMATE's threaded plans can be far slower than its
  // one-thread plans (R2C 45x45x45 on 2 threads 105 ms, on one 0.5 ms;
  // x46 on an H200 machine's 16 threads 3.2 s: docs/fftw.md), and the
  // estimate planner does not time them. Done on at most
  // thread_check_points points (the batch cut to fit), so that three
  // executions cost little next to the plan; transforms of more points
  // than that keep the threads.
  static bool faster(typename A::plan a, typename A::plan b) {
    auto seconds = [](typename A::plan p) {
      auto start = std::chrono::steady_clock::now();
      A::execute(p);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    A::execute(a);
    double tb = seconds(b);
    return seconds(a) < tb;
  }

  // FFTW's new-array execute needs the planning arrays' alignment; callers'
  // arrays that lack it get a plan made with FFTW_UNALIGNED, once.
  typename A::plan pick(int dir, T* in, T* out) {
    if (unaligned_only_ || (A::alignment_of(in) == 0 && A::alignment_of(out) == 0))
      return planned_[slot(dir)];
    std::call_once(unaligned_once_[slot(dir)],
                   [&] { unaligned_[slot(dir)] = make(dir, FFTW_UNALIGNED); });
    return unaligned_[slot(dir)];
  }

  void run(int dir, T* in, T* out) {
    typename A::plan p = pick(dir, in, out);
    if (d_.kind == FFTMUX_C2C)
      A::run_dft(p, reinterpret_cast<Complex*>(in), reinterpret_cast<Complex*>(out));
    else if (d_.kind == FFTMUX_R2C)
      A::run_r2c(p, in, reinterpret_cast<Complex*>(out));
    else
      A::run_c2r(p, reinterpret_cast<Complex*>(in), out);
  }

  static Map map(const Shape& s, bool shifted) {
    return strided_map(s.extent, s.stride, s.distance, shifted ? s.shift_axes : 0);
  }

  template <class F> void walk_side(const Shape& a, bool shift, const Shape& b, F&& f) const {
    walk(a.extent, d_.batch, map(a, shift), map(b, false), f);
  }

  // f(begin, end) over [0, n), split among the plan's threads where n is
  // large enough to pay for starting them: the staging copy and the scaling
  // run as wide as the transform (C2R 4096 x1024 on an H100 machine's 16
  // threads: FFTW 2 ms of 12).
  template <class F> void in_parallel(int64_t n, F&& f) const {
    int threads = n >= 4 * b_.thread_threshold ? b_.threads : 1;
    int64_t step = (n + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i)
      pool.emplace_back([&, i] { f(std::min(n, i * step), std::min(n, (i + 1) * step)); });
    f(0, std::min(n, step));
    for (std::thread& t : pool)
      t.join();
  }

  void gather(const T* user, T* packed) const {
    bool shift = d_.flags & FFTMUX_SHIFT_INPUT;
    int64_t w = width(user_in_);
    if (!shift && is_packed(user_in_)) // C2R 4096 x1024: 20 -> 6.6 ms
      return in_parallel(span(user_in_, d_.batch) * w,
                         [&](int64_t a, int64_t b) { std::copy(user + a, user + b, packed + a); });
    walk_side(user_in_, shift, engine_in_,
              [&](int64_t u, int64_t p) { std::copy_n(user + u * w, w, packed + p * w); });
  }

  void scatter(const T* packed, T* user, T s) const {
    int64_t w = width(user_out_);
    walk_side(user_out_, true, engine_out_, [&](int64_t u, int64_t p) {
      for (int64_t c = 0; c < w; ++c)
        user[u * w + c] = packed[p * w + c] * s;
    });
  }

  void rescale(T* user, T s) const {
    int64_t w = width(user_out_);
    if (is_packed(user_out_))
      return in_parallel(span(user_out_, d_.batch) * w, [&](int64_t a, int64_t b) {
        std::for_each(user + a, user + b, [s](T& v) { v *= s; });
      });
    walk_side(user_out_, false, user_out_, [&](int64_t u, int64_t) {
      for (int64_t c = 0; c < w; ++c)
        user[u * w + c] *= s;
    });
  }

  fftmux_desc d_;
  unsigned rigor_;
  Shape user_in_, user_out_, engine_in_, engine_out_;
  bool stage_in_ = false, stage_out_ = false;
  bool unaligned_only_ = false; // planned FFTW_UNALIGNED (quirks.hpp): any pointer runs
  int threads_[2] = {1, 1};     // each direction's plan's threads
  static constexpr int64_t thread_check_points = int64_t(1) << 20;
  Memory scratch_in_, scratch_out_;
  std::array<typename A::plan, 2> planned_{}, unaligned_{}; // per direction
  double scale_[2] = {1, 1};                                // per direction, computed once
  std::once_flag unaligned_once_[2];
};

// ---- the table's functions ----

fftmux_status init(const fftmux_host_v1* h, void** out) {
  return guarded(h, [&] {
    auto b = std::make_unique<Backend>();
    b->host = *h;
    int64_t cores = std::max(1u, std::thread::hardware_concurrency());
    b->threads = int(whole(h, "threads", cores, 1, 1024));
    b->thread_threshold = whole(h, "thread_threshold", 65536, 0, INT64_MAX);
    b->rigor = parse_rigor(config(h, "planner", "estimate"));
    b->plan_seconds = seconds(h, "plan_seconds", 2, 0.001);
    b->wisdom_dir =
        config(h, "wisdom_dir", std::string(h->cache_dir ? h->cache_dir : "") + "/fftw");
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
    std::snprintf(a->devices, sizeof a->devices, "CPU: %s, %d threads", cpu.c_str(), b->threads);
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s; cpu %s; threads %d", fftw_version,
                  cpu.c_str(), b->threads);
  });
}

// default: the configured planner (estimate unless [backends.fftw] planner
// says otherwise), so that a new shape plans in microseconds; measure:
// FFTW_MEASURE, for autotune to time (its wisdom then serves default too).
const char* const variants[] = {"default", "measure"};

unsigned rigor_of(const Backend& b, uint32_t variant) {
  if (variant >= sizeof variants / sizeof *variants)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT,
         "fftw: variant " + std::to_string(variant) + " does not exist (0: default, 1: measure)");
  return variant == 0 ? b.rigor : FFTW_MEASURE;
}

// The work: one call over the sides, its flops counted for the whole
// machine's threads even where the plan runs on one (thread_threshold), so
// that the model's rate, fitted on threaded probes, prices it right, and
// weighed by the effort of primes and strided passes (work.hpp).
fftmux_status query(void* p, const fftmux_desc* d, uint32_t variant, fftmux_answer_v1* a) {
  auto* b = static_cast<Backend*>(p);
  return guarded(&b->host, [&] {
    unsigned rigor = rigor_of(*b, variant);
    double flops = plugin::fft_flops(*d);
    bool one_thread = plugin::points(*d) * d->batch < b->thread_threshold;
    a->supported = 1;
    a->estimate_seconds = flops / (2e9 * b->threads); // a rough guess: 2 GFLOP/s per thread
    plugin::Work w;
    w.launches = 1;
    w.device_bytes = double(plugin::side_bytes(*d, true) + plugin::side_bytes(*d, false));
    w.flops = (one_thread ? flops * b->threads : flops) * fftw::effort(*d);
    w.fingerprint = rigor == FFTW_ESTIMATE  ? "estimate"
                    : rigor == FFTW_MEASURE ? "measure"
                    : rigor == FFTW_PATIENT ? "patient"
                                            : "exhaustive";
    plugin::report(a, w);
  });
}

fftmux_status plan_create(void* p, const fftmux_desc* d, uint32_t variant, void** out) {
  auto& b = *static_cast<Backend*>(p);
  return guarded(&b.host, [&] {
    std::unique_ptr<PlanBase> plan;
    unsigned rigor = rigor_of(b, variant);
    if (d->precision == FFTMUX_F64)
      plan = std::make_unique<Plan<double>>(b, *d, rigor);
    else
      plan = std::make_unique<Plan<float>>(b, *d, rigor);
    *out = plan.release();
  });
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

const fftmux_backend_v1 table = {
    sizeof(fftmux_backend_v1),
    FFTMUX_PLUGIN_ABI_VERSION,
    "fftw",
    FFTMUX_VERSION_STRING,
    FFTMUX_CAP_F32 | FFTMUX_CAP_F64 | FFTMUX_CAP_C2C | FFTMUX_CAP_R2C | FFTMUX_CAP_STRIDES |
        FFTMUX_CAP_IN_PLACE | FFTMUX_CAP_SHIFT,
    FFTMUX_MAX_RANK,
    FFTMUX_DOMAIN_HOST,
    sizeof variants / sizeof *variants,
    variants,
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
    nullptr, // plan_set_stream: FFTW has no queues
};

} // namespace
} // namespace fftmux::fftw

extern "C" FFTMUX_PLUGIN_EXPORT const fftmux_backend_v1* fftmux_plugin_entry(uint32_t host_abi) {
  return host_abi >= 1 ? &fftmux::fftw::table : nullptr;
}
