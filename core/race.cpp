#include "race.hpp"

#include "error.hpp"
#include "registry.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <thread>

namespace fftmux {

void fail_record(fftmux_tune_record& r, const std::string& why) {
  r.ok = 0;
  std::snprintf(r.reason, sizeof r.reason, "%s", why.c_str());
}

namespace {

constexpr size_t first_runs = 3;      // every candidate's short timing
constexpr double variant_gain = 0.05; // a share of the time below which variants are not raced

double estimate_of(const Entry* e) {
  return e->t.c.estimate >= 0 ? e->t.c.estimate : std::numeric_limits<double>::infinity();
}

double median(const Entry* e) {
  return quantile(e->runs, 0.5);
}

bool device_backend(const Entry* e) {
  return e->t.b().table().domain != FFTMUX_DOMAIN_HOST;
}

// The entries of distinct code not skipped before the race, in the order of their estimates.
std::vector<Entry*> distinct_of(std::vector<Entry>& entries) {
  std::vector<Entry*> distinct;
  for (Entry& e : entries)
    if (e.same_as < 0 && e.record.ok)
      distinct.push_back(&e);
  std::stable_sort(distinct.begin(), distinct.end(),
                   [](const Entry* a, const Entry* b) { return estimate_of(a) < estimate_of(b); });
  return distinct;
}

// The phases apart, on the backend's own memory: upload, execute, download.
void phases(Entry& e, uint32_t repeats) {
  Trial& t = e.t;
  fftmux_tune_record& r = e.record;
  if (!t.buffers())
    return;
  t.host_sides();
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

void copy_result(const Entry& from, Entry& to) {
  fftmux_tune_record& r = to.record;
  const fftmux_tune_record& f = from.record;
  r.ok = f.ok;
  std::memcpy(r.reason, f.reason, sizeof r.reason);
  r.plan_seconds = f.plan_seconds;
  r.check_seconds = f.check_seconds;
  r.median_seconds = f.median_seconds;
  r.spread_seconds = f.spread_seconds;
  r.execute_seconds = f.execute_seconds;
  r.round_trip_error = f.round_trip_error;
  r.gbytes_per_second = f.gbytes_per_second;
  r.runs = f.runs;
  std::snprintf(r.same_as, sizeof r.same_as, "%s", from.t.c.variant_name.c_str());
}

} // namespace

Race::Race(const fftmux_tune_options& o)
    : o_(o), skip_factor_(o.skip_factor > 0 ? o.skip_factor : 4.0), rng_(o.seed ? o.seed : 0x5eed) {
}

void Race::run(std::vector<Entry>& entries) {
  std::vector<Entry*> distinct = distinct_of(entries);
  CheckInput x; // every candidate's check reads the same input, drawn once
  if (!distinct.empty())
    x = check_input(distinct.front()->t.problem, rng_());
  for (Entry* e : distinct)
    e->t.input = &x;
  if (o_.exhaustive) {
    std::vector<Entry*> live = prepare(distinct);
    time(live, o_.repeats);
  } else {
    rounds(leaders(distinct));
  }
  for (Entry* e : distinct)
    e->t.input = nullptr;
  finish(entries);
}

// f(e) for every entry of list, on as many threads as the machine has.
template <class F> void on_threads(const std::vector<Entry*>& list, F&& f) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < list.size();)
      f(list[i]);
  };
  size_t threads = std::min<size_t>(list.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (size_t i = 1; i < threads; ++i)
    pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool)
    t.join();
}

// Plans (compiles) a device problem's likely candidates of device backends, neither checked
// nor timed, while the tuner races the problem before: run() checks them, planned already.
// Any failure is left for run() to meet again.
void Race::plan_likely(std::vector<Entry>& entries) const {
  std::vector<Entry*> distinct = distinct_of(entries), device;
  if (distinct.empty() || distinct.front()->t.problem.desc.placement != FFTMUX_DEVICE)
    return;
  for (Entry* e : likely(distinct))
    if (device_backend(e))
      device.push_back(e);
  on_threads(device, [](Entry* e) {
    try {
      e->t.make_plan();
    } catch (const Error&) {
    }
  });
}

// Plans and verifies the entries: device backends' on several threads
// (their planning compiles; nothing is timed meanwhile), the host
// backends' one at a time (a planner that measures must have the CPU).
// Returns those that are ready; entries prepared before are not planned again.
std::vector<Entry*> Race::prepare(std::vector<Entry*> list) {
  std::map<Entry*, uint64_t> seeds;
  for (Entry* e : list)
    seeds[e] = rng_();
  auto one = [&](Entry* e) {
    if (e->prepared)
      return;
    e->prepared = true;
    try {
      e->t.prepare(seeds[e], true);
      e->record.plan_seconds = e->t.plan_seconds;
      e->record.check_seconds = e->t.check_seconds;
      e->record.round_trip_error = e->t.round_trip_error;
    } catch (const Error& err) {
      fail_record(e->record, err.what());
    }
  };
  std::vector<Entry*> device, host;
  for (Entry* e : list)
    (device_backend(e) ? device : host).push_back(e);
  on_threads(device, one);
  for (Entry* e : host)
    one(e);
  std::vector<Entry*> ready;
  for (Entry* e : list)
    if (e->record.ok)
      ready.push_back(e);
  return ready;
}

// The first candidate that runs, in the order of the estimates, timed
// briefly; then each other backend's first candidate, planned and timed as
// briefly, but for those of other backends whose calibrated estimate is over
// skip_factor times the best time; then the backends' other variants, but
// for those bounded(). Returns every candidate timed. Variants are never
// skipped by estimate: a model prices them alike where their kernels
// differ, and may be off by a factor on small problems. A backend's own
// estimate is not calibrated: it orders, never skips.
std::vector<Entry*> Race::leaders(std::vector<Entry*>& distinct) {
  if (!distinct.empty() && distinct.front()->t.problem.desc.placement == FFTMUX_DEVICE)
    prepare(likely(distinct));
  std::vector<Entry*> live;
  size_t i = 0;
  while (i < distinct.size() && live.empty()) {
    live = prepare({distinct[i++]});
    time(live, first_runs);
  }
  if (live.empty())
    return live;
  double best = median(live.front());
  std::map<const Backend*, Entry*> lead{{&live.front()->t.b(), live.front()}};
  std::vector<Entry*> firsts, variants;
  for (; i < distinct.size(); ++i) {
    Entry* e = distinct[i];
    bool other = lead.count(&e->t.b()) == 0;
    if (other && e->t.c.estimate_basis == "calibrated" && estimate_of(e) > skip_factor_ * best) {
      char why[256];
      std::snprintf(why, sizeof why,
                    "skipped: its estimate, %.4g us, is over %g times the best time measured, "
                    "%.4g us",
                    estimate_of(e) * 1e6, skip_factor_, best * 1e6);
      fail_record(e->record, why);
      continue;
    }
    (other ? firsts : variants).push_back(e);
    if (other)
      lead[&e->t.b()] = e;
  }
  std::vector<Entry*> more = prepare(firsts);
  time(more, first_runs);
  live.insert(live.end(), more.begin(), more.end());
  for (Entry* e : live)
    best = std::min(best, median(e));
  std::vector<Entry*> open;
  for (Entry* e : variants)
    if (!bounded(*lead[&e->t.b()], *e, best))
      open.push_back(e);
  more = prepare(open);
  time(more, first_runs);
  live.insert(live.end(), more.begin(), more.end());
  return live;
}

// On device data, compiling is most of a problem's time (an H200 machine:
// 74 device problems, 444 s, of which planning took 842 s on its threads in
// three rounds a problem), so the candidates the race will likely time,
// those priced within skip_factor of the cheapest, are planned at once on
// every thread; where a software device is priced far behind (the
// development machine), it is planned only if the race comes to it.
std::vector<Entry*> Race::likely(const std::vector<Entry*>& distinct) const {
  std::vector<Entry*> out;
  for (Entry* e : distinct)
    if (estimate_of(e) <= skip_factor_ * estimate_of(distinct.front()))
      out.push_back(e);
  return out;
}

// Variants of a backend differ in its kernels only: on host data the bus
// takes the rest of the round trip, so a variant gains at most the kernels'
// share of its backend's first candidate. Records why a variant is left
// out when that share cannot make it the fastest, or is under
// variant_gain.
bool Race::bounded(Entry& first, Entry& variant, double best) {
  if (!first.record.ok || first.t.problem.desc.placement != FFTMUX_HOST || !first.t.buffers())
    return false;
  if (first.record.execute_seconds == 0)
    phases(first, first_runs);
  double total = median(&first), kernels = first.record.execute_seconds;
  double floor = total - kernels; // the variant's time, were its kernels free
  if (kernels <= 0 || (floor <= best && kernels >= variant_gain * total))
    return false;
  char reason[64], why[256];
  if (floor > best)
    std::snprintf(reason, sizeof reason, "the rest is over the best time");
  else
    std::snprintf(reason, sizeof reason, "they are under %g%%", variant_gain * 100);
  std::snprintf(why, sizeof why,
                "skipped: the kernels take %.4g us of %s's %.4g us on host data (the bus the "
                "rest); a variant changes only them, and %s",
                kernels * 1e6, first.t.b().name().c_str(), total * 1e6, reason);
  fail_record(variant.record, why);
  return true;
}

// Successive halving: the faster half of the field goes on with twice the
// runs, until the repeats; a field of one gets the repeats at once.
void Race::rounds(std::vector<Entry*> live) {
  size_t runs = first_runs;
  while (runs < o_.repeats && !live.empty()) {
    live.erase(std::remove_if(live.begin(), live.end(), [](Entry* e) { return !e->record.ok; }),
               live.end());
    std::sort(live.begin(), live.end(),
              [](const Entry* a, const Entry* b) { return median(a) < median(b); });
    live.resize((live.size() + 1) / 2);
    runs = live.size() == 1 ? o_.repeats : std::min<size_t>(2 * runs, o_.repeats);
    time(live, runs);
  }
}

// Brings every live entry to `runs` timed runs (after its warm-up), one
// run each in turn, in a new random order every turn, so that drift and
// caches favour none.
void Race::time(std::vector<Entry*>& live, size_t runs) {
  for (Entry* e : live)
    if (e->runs.empty())
      for (uint32_t w = 0; w < o_.warmup && e->record.ok; ++w)
        try {
          e->t.run();
        } catch (const Error& err) {
          fail_record(e->record, std::string("execution failed: ") + err.what());
        }
  for (size_t turn = 0; turn < runs; ++turn) {
    std::shuffle(live.begin(), live.end(), rng_);
    for (Entry* e : live)
      if (e->record.ok && e->runs.size() < runs)
        try {
          e->runs.push_back(timed([&] { e->t.run(); }));
        } catch (const Error& err) {
          fail_record(e->record, std::string("execution failed: ") + err.what());
        }
  }
}

// Medians and spreads of the timed entries, the phases of each backend's
// fastest, and the entries of the same code as the one timed.
void Race::finish(std::vector<Entry>& entries) {
  std::map<Backend*, Entry*> best;
  for (Entry& e : entries) {
    fftmux_tune_record& r = e.record;
    if (e.same_as >= 0 || !r.ok || e.runs.empty())
      continue;
    r.runs = uint32_t(e.runs.size());
    r.median_seconds = median(&e);
    r.spread_seconds = quantile(e.runs, 0.75) - quantile(e.runs, 0.25);
    r.execute_seconds = r.median_seconds;
    r.gbytes_per_second =
        double(e.t.problem.in.span_bytes + e.t.problem.out.span_bytes) / r.median_seconds * 1e-9;
    Entry*& b = best[&e.t.b()];
    if (!b || r.median_seconds < b->record.median_seconds)
      b = &e;
  }
  for (auto& [backend, e] : best)
    try {
      phases(*e, std::max(3u, o_.repeats / 3));
    } catch (const Error& err) {
      fail_record(e->record, std::string("buffer phases failed: ") + err.what());
    }
  for (Entry& e : entries)
    if (e.same_as >= 0)
      copy_result(entries[size_t(e.same_as)], e);
}

} // namespace fftmux
