#include "tuner.hpp"

#include "error.hpp"
#include "paths.hpp"
#include "race.hpp"
#include "router.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <thread>
#include <utility>

namespace fftmux {

namespace {

void fill_record(fftmux_tune_record& r, const Problem& p, const Candidate& c) {
  std::memset(&r, 0, sizeof r);
  r.struct_size = sizeof r;
  r.desc = p.desc;
  std::snprintf(r.backend, sizeof r.backend, "%s", c.backend->name().c_str());
  std::snprintf(r.variant, sizeof r.variant, "%s", c.variant_name.c_str());
  r.upload_seconds = r.download_seconds = -1;
  r.eta_seconds = -1;
}

// What a problem's entries say about each backend, for the cache.
std::vector<Measurement> summarize(const Problem& p, const std::vector<Entry>& entries) {
  std::map<std::string, Measurement> by_backend;
  std::map<std::string, std::string> code; // variant -> the first variant of its code
  for (const Entry& e : entries) {
    code[e.t.c.variant_name] =
        e.same_as >= 0 ? entries[size_t(e.same_as)].t.c.variant_name : e.t.c.variant_name;
    Measurement& m = by_backend[e.t.b().name()];
    if (m.backend.empty()) {
      m.problem = problem_key(p);
      m.family = family_key(p.desc);
      m.points = p.points;
      m.log_points = std::log2(double(p.points));
      m.batch = p.desc.batch;
      m.backend = e.t.b().name();
      m.hardware = hardware_class(e.t.b().hardware_key()); // what identical machines share
      m.timestamp = utc_now();
      m.failed = true;
    }
    const fftmux_tune_record& r = e.record;
    if (!r.ok) { // a backend whose every candidate failed or was skipped is a negative entry
      if (m.reason.empty())
        m.reason = e.t.c.variant_name + ": " + r.reason;
      continue;
    }
    m.times[e.t.c.variant_name] = r.median_seconds;
    if (m.failed || r.median_seconds < m.median) {
      m.failed = false;
      m.reason.clear();
      m.variant = e.t.c.variant_name;
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
    for (auto& [variant, t] : m.times) // the runner-up runs other code than the winner
      if (code[variant] != code[m.variant] && (m.runner_up.empty() || t < m.runner_up_median)) {
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

// A thread joined at the latest when it goes out of scope.
struct Joined {
  std::thread t;
  void join() {
    if (t.joinable())
      t.join();
  }
  ~Joined() { join(); }
};

class Tuner {
  // A device problem's entries, planned while the one before it raced.
  struct Ahead {
    uint32_t index;
    std::vector<Entry> entries;
    std::vector<fftmux_tune_record> declined;
  };

public:
  Tuner(fftmux_context ctx, const std::vector<Problem>& problems, const fftmux_tune_options& o)
      : ctx_(ctx), problems_(problems), o_(o), race_(o) {
    only_ = split_path_list(o.backends ? o.backends : "", ',');
    for (const Problem& p : problems_)
      remaining_ += weight(p);
    path_ = o.cache_path ? o.cache_path : ctx->tuning_path;
  }

  // Device problems first: on host data a device backend then runs the
  // kernels its device twin chose (kernels_).
  void run() {
    std::vector<uint32_t> order(problems_.size());
    for (uint32_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_partition(order.begin(), order.end(),
                          [&](uint32_t i) { return problems_[i].desc.placement == FFTMUX_DEVICE; });
    for (size_t k = 0; k < order.size(); ++k) {
      // The next device problem's likely candidates compile while this one races (device
      // data: its timings are the GPU's; host data is timed with the CPU alone).
      bool device = problems_[order[k]].desc.placement == FFTMUX_DEVICE;
      std::optional<Ahead> planned = std::exchange(ahead_, std::nullopt);
      Joined ahead;
      if (device && k + 1 < order.size() && problems_[order[k + 1]].desc.placement == FFTMUX_DEVICE)
        ahead.t = std::thread([this, next = order[k + 1]] { plan_ahead(next); });
      tune(order[k], std::move(planned));
      ahead.join();
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

  // Whether problem p fits the budget and the memory; else the reason.
  std::string unfit(const Problem& p) const {
    if (o_.budget_seconds > 0 && since(start_) > o_.budget_seconds)
      return "skipped: the time budget of " + std::to_string(o_.budget_seconds) + " s is spent";
    uint64_t need = uint64_t(weight(p)) * 6;
    if (need > physical_memory() / 3)
      return "skipped: needs about " + std::to_string(need >> 20) +
             " MiB, more than a third of this machine's memory";
    return "";
  }

  // Problem index's candidates, their likely ones planned (compiled), for tune() to race.
  void plan_ahead(uint32_t index) {
    const Problem& p = problems_[index];
    if (!unfit(p).empty())
      return;
    try {
      Ahead a{index, {}, {}};
      a.entries = candidates(p, a.declined);
      Race(o_).plan_likely(a.entries);
      ahead_ = std::move(a);
    } catch (const std::exception&) { // tune() meets it again on this thread and reports it
    }
  }

  // Races problem index: its entries as planned ahead, if they were.
  void tune(uint32_t index, std::optional<Ahead> planned) {
    const Problem& p = problems_[index];
    remaining_ -= weight(p);
    if (std::string why = unfit(p); !why.empty())
      return skip(p, index, why);
    std::vector<fftmux_tune_record> declined;
    std::vector<Entry> entries;
    if (planned && planned->index == index) {
      entries = std::move(planned->entries);
      declined = std::move(planned->declined);
    } else {
      entries = candidates(p, declined);
    }
    for (fftmux_tune_record& r : declined)
      report(r, index);
    if (p.desc.placement == FFTMUX_HOST)
      follow_device_twin(p, entries);
    race_.run(entries);
    for (Entry& e : entries)
      report(e.record, index);
    done_ += weight(p);
    std::vector<Measurement> m = summarize(p, entries);
    if (p.desc.placement == FFTMUX_DEVICE)
      for (const Measurement& one : m)
        if (!one.failed)
          kernels_[one.problem][one.backend] = one.variant;
    pending_.insert(pending_.end(), m.begin(), m.end());
  }

  // The variant a device backend ran fastest on the device twin of host
  // problem p, measured in this run or found in the cache; "" when unknown.
  std::string twin_variant(const Problem& p, Backend& b) {
    fftmux_desc d = p.desc;
    d.placement = FFTMUX_DEVICE;
    std::string key = problem_key(validate(&d));
    auto it = kernels_.find(key);
    if (it != kernels_.end() && it->second.count(b.name()))
      return it->second.at(b.name());
    const Measurement* m = ctx_->tuning()->exact(key, b.name(), b.hardware_key());
    return m && !m->failed ? m->variant : "";
  }

  // On host data a device backend's variants differ only in their kernels,
  // and the bus adds the same time to each: the kernels that were fastest
  // on the device twin are the fastest here too, so the backend's other
  // variants are recorded as skipped, not compiled and timed again.
  void follow_device_twin(const Problem& p, std::vector<Entry>& entries) {
    std::map<Backend*, int> code; // backend -> the entry of its twin's fastest kernels
    for (size_t i = 0; i < entries.size(); ++i) {
      Backend* b = &entries[i].t.b();
      if (b->table().domain == FFTMUX_DOMAIN_HOST || code.count(b))
        continue;
      std::string v = twin_variant(p, *b);
      code[b] = -1;
      for (size_t j = i; j < entries.size(); ++j)
        if (&entries[j].t.b() == b && !v.empty() && entries[j].t.c.variant_name == v)
          code[b] = entries[j].same_as >= 0 ? entries[j].same_as : int(j);
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      Entry& e = entries[i];
      auto it = code.find(&e.t.b());
      if (it == code.end() || it->second < 0 || e.same_as >= 0 || int(i) == it->second)
        continue;
      const Entry& kept = entries[size_t(it->second)];
      fail_record(e.record, "skipped: " + kept.t.c.variant_name + " ran " + e.t.b().name() +
                                "'s fastest kernels on device data of this shape, and on host "
                                "data the bus adds the same time to every variant");
    }
  }

  // The accepted candidates as entries (those of the same code marked);
  // the declined ones' records into declined, to be reported.
  std::vector<Entry> candidates(const Problem& p, std::vector<fftmux_tune_record>& declined) {
    std::vector<Entry> entries;
    std::vector<int> at; // decision index -> entry index
    Decision d = route(ctx_, p, "auto", nullptr, only_);
    for (const Candidate& c : d.candidates) {
      at.push_back(-1);
      if (!c.accepted) {
        fftmux_tune_record& r = declined.emplace_back();
        fill_record(r, p, c);
        fail_record(r, "declined: " + c.reason);
        continue;
      }
      at.back() = int(entries.size());
      Entry& e = entries.emplace_back();
      e.t.c = c;
      e.t.problem = p;
      e.same_as = c.same_as >= 0 ? at[size_t(c.same_as)] : -1;
      fill_record(e.record, p, c);
      e.record.ok = 1;
    }
    return entries;
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
  Race race_;
  std::optional<Ahead> ahead_; // written by plan_ahead's thread, read after its join
  std::vector<std::string> only_;
  std::string path_;
  std::vector<Measurement> pending_;
  // device problem -> backend -> its fastest variant
  std::map<std::string, std::map<std::string, std::string>> kernels_;
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
