#include "tuner.hpp"

#include "error.hpp"
#include "log.hpp"
#include "paths.hpp"
#include "router.hpp"

#include <fftmux/plugin_support.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <map>
#include <random>
#include <utility>

namespace fftmux {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

template <class F> double timed(F&& f) {
  auto t = Clock::now();
  f();
  return since(t);
}

double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return -1;
  std::sort(v.begin(), v.end());
  return v[size_t(q * double(v.size() - 1) + 0.5)];
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// ---- data in a side's layout ----

using plugin::Shape;

// Calls f(element offset, logical index) for every logical element.
template <class F> void each_element(const fftmux_desc& d, const Shape& s, F&& f) {
  int64_t logical = 0;
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t i = 0; i < s.extent[0]; ++i)
      for (int64_t j = 0; j < s.extent[1]; ++j)
        for (int64_t k = 0; k < s.extent[2]; ++k)
          f(b * s.distance + i * s.stride[0] + j * s.stride[1] + k * s.stride[2], logical++);
}

int width(const Shape& s) {
  return s.complex ? 2 : 1;
}

// Reads or writes the logical elements of one side as doubles.
template <class T>
void transfer(const fftmux_desc& d, const Shape& s, void* data, std::vector<double>& v,
              bool store) {
  T* p = static_cast<T*>(data);
  int w = width(s);
  each_element(d, s, [&](int64_t at, int64_t i) {
    for (int c = 0; c < w; ++c)
      if (store)
        p[at * w + c] = T(v[size_t(i * w + c)]);
      else
        v[size_t(i * w + c)] = double(p[at * w + c]);
  });
}

size_t count(const fftmux_desc& d, const Shape& s) {
  return size_t(s.extent[0] * s.extent[1] * s.extent[2] * d.batch * width(s));
}

void store(const fftmux_desc& d, bool input, std::vector<double>& v, void* data) {
  Shape s = plugin::shape(d, input);
  d.precision == FFTMUX_F64 ? transfer<double>(d, s, data, v, true)
                            : transfer<float>(d, s, data, v, true);
}

std::vector<double> load(const fftmux_desc& d, bool input, const void* data) {
  Shape s = plugin::shape(d, input);
  std::vector<double> v(count(d, s));
  void* p = const_cast<void*>(data);
  d.precision == FFTMUX_F64 ? transfer<double>(d, s, p, v, false)
                            : transfer<float>(d, s, p, v, false);
  return v;
}

// The plan that undoes d: kinds, layouts and shift flags swapped.
fftmux_desc inverse_of(const fftmux_desc& d) {
  fftmux_desc r = d;
  r.kind = d.kind == FFTMUX_R2C ? FFTMUX_C2R : d.kind == FFTMUX_C2R ? FFTMUX_R2C : FFTMUX_C2C;
  std::swap(r.in_strides, r.out_strides);
  std::swap(r.in_distance, r.out_distance);
  r.flags = (d.flags & FFTMUX_IN_PLACE) | ((d.flags & FFTMUX_SHIFT_INPUT) << 1) |
            ((d.flags & FFTMUX_SHIFT_OUTPUT) >> 1);
  return r;
}

int own_direction(const fftmux_desc& d) {
  return d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
}

// ---- one candidate under measurement ----

// A plugin object released by Release; moves pass ownership on.
template <class Release> struct Owned {
  Backend* backend = nullptr;
  void* handle = nullptr;
  Owned() = default;
  Owned(Owned&& o) noexcept : backend(o.backend), handle(std::exchange(o.handle, nullptr)) {}
  Owned& operator=(Owned&&) = delete;
  ~Owned() {
    if (handle)
      Release()(backend->table(), handle);
  }
};

struct DestroyPlan {
  void operator()(const fftmux_backend_v1& t, void* h) const { t.plan_destroy(h); }
};
struct FreeBuffer {
  void operator()(const fftmux_backend_v1& t, void* h) const { t.buffer_free(h); }
};
using Plan = Owned<DestroyPlan>;
using Buffer = Owned<FreeBuffer>;

struct Trial {
  Candidate c;
  Problem problem;
  Plan plan;
  std::vector<unsigned char> in, out;
  Buffer bin, bout;
  std::vector<double> runs;
  fftmux_tune_record record{};

  Backend& b() const { return *c.backend; }
  bool buffers() const { return b().table().buffer_alloc != nullptr; }
  bool on_device() const { return problem.desc.placement == FFTMUX_DEVICE && buffers(); }

  void create(const Problem& p, Plan& into) {
    into.backend = c.backend;
    b().call("plan_create", [&] {
      return b().table().plan_create(b().handle(), &p.desc, c.variant, &into.handle);
    });
  }

  void run_host(const Plan& p, int dir, const void* x, void* y) {
    b().call("execute", [&] { return b().table().execute(p.handle, dir, x, y); });
  }

  void run_device() {
    const fftmux_backend_v1& t = b().table();
    void* out = problem.in_place() ? bin.handle : bout.handle;
    b().call("execute_buffers", [&] {
      return t.execute_buffers(plan.handle, own_direction(problem.desc), bin.handle, out);
    });
    if (t.synchronize)
      b().call("synchronize", [&] { return t.synchronize(plan.handle); });
  }

  // One timed execution: what routing compares for this placement.
  void run() {
    if (on_device())
      return run_device();
    void* y = problem.in_place() ? in.data() : out.data();
    run_host(plan, own_direction(problem.desc), in.data(), y);
  }
};

size_t span(const Problem& p) {
  return std::max(p.in.span_bytes, p.out.span_bytes);
}

// inverse(forward(x)) against x, scaled by what the norms leave over.
double round_trip(Trial& t, uint64_t seed) {
  const Problem& p = t.problem;
  fftmux_desc undo = inverse_of(p.desc);
  Problem q = validate(&undo);
  Plan other;
  t.create(q, other);
  bool c2r = p.desc.kind == FFTMUX_C2R;
  const Problem& first = c2r ? q : p;
  const Plan& a = c2r ? other : t.plan;
  const Plan& b = c2r ? t.plan : other;
  std::vector<double> x(count(first.desc, plugin::shape(first.desc, true)));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : x)
    v = u(rng);
  std::vector<unsigned char> buf(span(p)), mid(p.in_place() ? 0 : span(p));
  store(first.desc, true, x, buf.data());
  void* y = p.in_place() ? buf.data() : mid.data();
  t.run_host(a, FFTMUX_FORWARD, buf.data(), y);
  t.run_host(b, FFTMUX_INVERSE, y, buf.data());
  std::vector<double> z = load(first.desc, true, buf.data());
  double c = scale_factor(p, FFTMUX_FORWARD) * scale_factor(p, FFTMUX_INVERSE) * double(p.points);
  long double diff = 0, norm = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    diff += (z[i] - c * x[i]) * (z[i] - c * x[i]);
    norm += (c * x[i]) * (c * x[i]);
  }
  return std::isfinite(double(diff)) ? double(std::sqrt(diff / norm)) : INFINITY;
}

double bound(const Problem& p) {
  double eps = p.desc.precision == FFTMUX_F64 ? 0x1p-52 : 0x1p-23;
  return 2 * eps * (5 * std::max(1.0, std::log2(double(p.points))) + 4);
}

// The phases apart, on the backend's own memory: upload, execute, download.
void phases(Trial& t, uint32_t repeats) {
  fftmux_tune_record& r = t.record;
  if (!t.buffers()) {
    r.upload_seconds = r.download_seconds = -1;
    return;
  }
  const fftmux_backend_v1& tab = t.b().table();
  std::vector<double> up, ex, down;
  for (uint32_t i = 0; i < repeats; ++i) {
    up.push_back(timed([&] {
      t.b().call("buffer_write", [&] {
        return tab.buffer_write(t.bin.handle, 0, t.in.data(), t.problem.in.span_bytes);
      });
    }));
    ex.push_back(timed([&] { t.run_device(); }));
    down.push_back(timed([&] {
      void* from = t.problem.in_place() ? t.bin.handle : t.bout.handle;
      t.b().call("buffer_read",
                 [&] { return tab.buffer_read(from, 0, t.out.data(), t.problem.out.span_bytes); });
    }));
  }
  r.upload_seconds = quantile(up, 0.5);
  r.execute_seconds = quantile(ex, 0.5);
  r.download_seconds = quantile(down, 0.5);
}

void prepare(Trial& t, uint64_t seed) {
  auto start = Clock::now();
  t.create(t.problem, t.plan);
  t.record.plan_seconds = since(start);
  t.record.round_trip_error = round_trip(t, seed);
  if (!(t.record.round_trip_error <= bound(t.problem)))
    fail(FFTMUX_ERROR_BACKEND, "wrong results: the round trip error " +
                                   std::to_string(t.record.round_trip_error) + " exceeds " +
                                   std::to_string(bound(t.problem)));
  t.in.assign(span(t.problem), 0);
  t.out.assign(span(t.problem), 0);
  if (!t.buffers())
    return;
  const fftmux_backend_v1& tab = t.b().table();
  for (Buffer* b : {&t.bin, &t.bout}) {
    b->backend = &t.b();
    t.b().call("buffer_alloc",
               [&] { return tab.buffer_alloc(t.b().handle(), span(t.problem), &b->handle); });
  }
  t.b().call("buffer_write", [&] {
    return tab.buffer_write(t.bin.handle, 0, t.in.data(), t.problem.in.span_bytes);
  });
}

void fill_record(fftmux_tune_record& r, const Problem& p, const Candidate& c) {
  std::memset(&r, 0, sizeof r);
  r.struct_size = sizeof r;
  r.desc = p.desc;
  std::snprintf(r.backend, sizeof r.backend, "%s", c.backend->name().c_str());
  std::snprintf(r.variant, sizeof r.variant, "%s", c.variant_name.c_str());
  r.upload_seconds = r.download_seconds = -1;
  r.eta_seconds = -1;
}

void fail_record(fftmux_tune_record& r, const std::string& why) {
  r.ok = 0;
  std::snprintf(r.reason, sizeof r.reason, "%s", why.c_str());
}

// What a problem's trials say about each backend, for the cache.
std::vector<Measurement> summarize(const Problem& p, const std::vector<Trial>& trials) {
  std::map<std::string, Measurement> by_backend;
  for (const Trial& t : trials) {
    Measurement& m = by_backend[t.b().name()];
    if (m.backend.empty()) {
      m.problem = problem_key(p);
      m.family = family_key(p.desc);
      m.points = p.points;
      m.log_points = std::log2(double(p.points));
      m.batch = p.desc.batch;
      m.backend = t.b().name();
      m.hardware = t.b().hardware_key();
      m.timestamp = utc_now();
      m.failed = true;
    }
    const fftmux_tune_record& r = t.record;
    if (!r.ok) {
      if (m.reason.empty())
        m.reason = t.c.variant_name + ": " + r.reason;
      continue;
    }
    m.times[t.c.variant_name] = r.median_seconds;
    if (m.failed || r.median_seconds < m.median) {
      m.failed = false;
      m.reason.clear();
      m.variant = t.c.variant_name;
      m.median = r.median_seconds;
      m.spread = r.spread_seconds;
      m.gbps = r.gbytes_per_second;
      m.plan = r.plan_seconds;
      m.upload = r.upload_seconds;
      m.execute = r.execute_seconds;
      m.download = r.download_seconds;
    }
  }
  std::vector<Measurement> out;
  for (auto& [name, m] : by_backend) {
    for (auto& [variant, t] : m.times)
      if (variant != m.variant && (m.runner_up.empty() || t < m.runner_up_median)) {
        m.runner_up = variant;
        m.runner_up_median = t;
      }
    out.push_back(m);
  }
  return out;
}

uint64_t physical_memory() {
  long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : ~0ull;
}

bool wanted(const Candidate& c, const std::vector<std::string>& only) {
  return only.empty() || std::find(only.begin(), only.end(), c.backend->name()) != only.end();
}

class Tuner {
public:
  Tuner(fftmux_context ctx, const std::vector<Problem>& problems, const fftmux_tune_options& o)
      : ctx_(ctx), problems_(problems), o_(o), rng_(o.seed ? o.seed : 0x5eed) {
    only_ = split_path_list(o.backends ? o.backends : "", ',');
    for (const Problem& p : problems_)
      remaining_ += weight(p);
    path_ = o.cache_path ? o.cache_path : ctx->tuning_path;
  }

  void run() {
    for (uint32_t i = 0; i < problems_.size(); ++i) {
      tune(i);
      if (since(last_flush_) > 60)
        flush();
    }
    flush();
  }

private:
  static double weight(const Problem& p) {
    return double(p.in.span_bytes + p.out.span_bytes) + 1e6;
  }

  void report(fftmux_tune_record& r, uint32_t index) {
    r.problem_index = index;
    r.problem_count = uint32_t(problems_.size());
    r.elapsed_seconds = since(start_);
    r.eta_seconds = done_ > 0 ? r.elapsed_seconds / done_ * remaining_ : -1;
    if (o_.progress)
      o_.progress(o_.user, &r);
  }

  void skip(const Problem& p, uint32_t index, const std::string& why) {
    fftmux_tune_record r;
    std::memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    r.desc = p.desc;
    fail_record(r, why);
    report(r, index);
  }

  void tune(uint32_t index) {
    const Problem& p = problems_[index];
    remaining_ -= weight(p);
    if (o_.budget_seconds > 0 && since(start_) > o_.budget_seconds)
      return skip(p, index,
                  "skipped: the time budget of " + std::to_string(o_.budget_seconds) +
                      " s is spent");
    uint64_t need = uint64_t(weight(p)) * 6;
    if (need > physical_memory() / 3)
      return skip(p, index,
                  "skipped: needs about " + std::to_string(need >> 20) +
                      " MiB, more than a third of this machine's memory");
    std::vector<Trial> trials = candidates(p, index);
    measure(trials);
    for (Trial& t : trials)
      report(t.record, index);
    done_ += weight(p);
    std::vector<Measurement> m = summarize(p, trials);
    pending_.insert(pending_.end(), m.begin(), m.end());
  }

  std::vector<Trial> candidates(const Problem& p, uint32_t index) {
    std::vector<Trial> trials;
    for (Candidate& c : route(ctx_, p, "auto", nullptr).candidates) {
      if (!wanted(c, only_))
        continue;
      if (!c.accepted) {
        fftmux_tune_record r;
        fill_record(r, p, c);
        fail_record(r, "declined: " + c.reason);
        report(r, index);
        continue;
      }
      Trial& t = trials.emplace_back();
      t.c = c;
      t.problem = p;
      fill_record(t.record, p, c);
      t.record.ok = 1;
      try {
        prepare(t, rng_());
      } catch (const Error& e) {
        fail_record(t.record, e.what());
      }
    }
    return trials;
  }

  // Warm-up, then rounds in which every candidate runs once, in a new
  // random order each round, so drift and caches favour none.
  void measure(std::vector<Trial>& trials) {
    std::vector<Trial*> live;
    for (Trial& t : trials)
      if (t.record.ok)
        live.push_back(&t);
    for (uint32_t round = 0; round < o_.warmup + o_.repeats; ++round) {
      std::shuffle(live.begin(), live.end(), rng_);
      for (Trial* t : live)
        try {
          double s = timed([&] { t->run(); });
          if (round >= o_.warmup)
            t->runs.push_back(s);
        } catch (const Error& e) {
          fail_record(t->record, std::string("execution failed: ") + e.what());
        }
      live.erase(std::remove_if(live.begin(), live.end(), [](Trial* t) { return !t->record.ok; }),
                 live.end());
    }
    for (Trial* t : live)
      finish(*t);
  }

  void finish(Trial& t) {
    fftmux_tune_record& r = t.record;
    r.median_seconds = quantile(t.runs, 0.5);
    r.spread_seconds = quantile(t.runs, 0.75) - quantile(t.runs, 0.25);
    r.execute_seconds = r.median_seconds;
    r.gbytes_per_second =
        double(t.problem.in.span_bytes + t.problem.out.span_bytes) / r.median_seconds * 1e-9;
    try {
      phases(t, std::max(3u, o_.repeats / 3));
    } catch (const Error& e) {
      fail_record(r, std::string("buffer phases failed: ") + e.what());
    }
  }

  void flush() {
    last_flush_ = Clock::now();
    if (!o_.write_cache || pending_.empty())
      return;
    std::vector<std::string> notes;
    merge_cache(path_, pending_, notes);
    pending_.clear();
    std::lock_guard<std::mutex> lock(ctx_->notes_mutex);
    ctx_->notes.insert(ctx_->notes.end(), notes.begin(), notes.end());
  }

  fftmux_context ctx_;
  const std::vector<Problem>& problems_;
  fftmux_tune_options o_;
  std::mt19937_64 rng_;
  std::vector<std::string> only_;
  std::string path_;
  std::vector<Measurement> pending_;
  Clock::time_point start_ = Clock::now(), last_flush_ = Clock::now();
  double done_ = 0, remaining_ = 0;
};

} // namespace

void autotune(fftmux_context ctx, const std::vector<Problem>& problems,
              const fftmux_tune_options& options) {
  Tuner(ctx, problems, options).run();
  ctx->reload_tuning();
}

std::vector<fftmux_desc> tune_problems(uint32_t set) {
  bool quick = set == FFTMUX_TUNE_QUICK;
  std::vector<fftmux_desc> out;
  auto add = [&](std::vector<int64_t> n, uint32_t kind, uint32_t precision, uint32_t placement,
                 int64_t total) {
    fftmux_desc d;
    fftmux_desc_init(&d);
    d.rank = uint32_t(n.size());
    int64_t points = 1;
    for (size_t i = 0; i < n.size(); ++i)
      points *= d.n[i] = n[i];
    d.batch = std::max<int64_t>(1, total / points);
    d.kind = kind;
    d.precision = precision;
    d.placement = placement;
    out.push_back(d);
  };
  std::vector<int64_t> sizes;
  for (int e = 3; e <= (quick ? 20 : 24); e += quick ? 4 : 1)
    sizes.push_back(int64_t(1) << e);
  for (int64_t n : {12, 100, 1000, 3125, 2187, 2401, 6000, 4093, 10007})
    if (!quick || n == 1000 || n == 10007)
      sizes.push_back(n);
  int64_t total = quick ? 1 << 18 : 1 << 22; // elements per call: batches fill it
  for (uint32_t placement : {FFTMUX_HOST, FFTMUX_DEVICE}) {
    if (quick && placement == FFTMUX_DEVICE)
      continue;
    for (uint32_t precision : {FFTMUX_F32, FFTMUX_F64}) {
      if (quick && precision == FFTMUX_F64)
        continue;
      for (int64_t n : sizes)
        for (uint32_t kind : {FFTMUX_C2C, FFTMUX_R2C})
          add({n}, kind, precision, placement, total);
      for (int64_t n = 64; n <= (quick ? 256 : 4096); n *= 2)
        add({n, n}, FFTMUX_C2C, precision, placement, total);
      for (int64_t n = 32; n <= (quick ? 32 : 512); n *= 2)
        add({n, n, n}, FFTMUX_C2C, precision, placement, total);
    }
  }
  return out;
}

} // namespace fftmux
