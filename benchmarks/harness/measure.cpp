#include "measure.hpp"

#include "cpu_engines.hpp"
#include "data.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <utility>

namespace bench {

namespace {

template <class F> double wall(F&& f) {
  auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One timed phase of one engine: run(k) does k operations and returns the
// seconds per operation.
struct Series {
  Series(const char* p, std::function<double(int)> f, double b, double fl = 0)
      : phase(p), run(std::move(f)), bytes(b), flops(fl) {}
  const char* phase;
  std::function<double(int)> run;
  double bytes;
  double flops;
  int runs = 1; // per sample, calibrated during warm-up
  std::vector<double> samples;
  double spent = 0;
};

struct Contender {
  explicit Contender(Engine* e) : engine(e) {}
  Engine* engine;
  std::unique_ptr<Run> run;
  double plan_cold = 0, plan_warm = 0;
  Verdict verdict;
  std::string failure;
  std::vector<Series> series;
  std::string timer;   // of its launches, kept once the run is gone
  std::string variant; // its plans', kept likewise
  const EngineInfo& info() const { return engine->info(); }
};

// From host memory to host memory: the engine's own path, or upload,
// launch and download.
void host_run(Run& r, int direction, const Host& h) {
  bool f = direction == FFTMUX_FORWARD;
  Slot from = f ? Slot::in : Slot::mid, to = f ? Slot::mid : Slot::back;
  if (r.has_host_path())
    return r.host(direction, h.at(from), h.at(to));
  r.write(from, h.at(from));
  r.launch(direction);
  r.read(to, h.at(to));
}

// On engine memory, the forward's result staying there for the inverse.
void device_run(Run& r, int direction, const Host& h) {
  bool f = direction == FFTMUX_FORWARD;
  if (f)
    r.write(Slot::in, h.in);
  r.launch(direction);
  r.read(f ? Slot::mid : Slot::back, f ? h.mid : h.back);
}

bool host_placed(const Contender& c, const Data& d) {
  return d.desc.placement == FFTMUX_HOST && c.info().family != Family::copy;
}

// Forward and inverse once on NaN-filled outputs, each result checked.
Verdict verify_run(Contender& c, Data& d) {
  Run& r = *c.run;
  Family family = c.info().family;
  bool on_host = host_placed(c, d);
  // Outputs are poisoned where the engine writes them: the host arrays on
  // its host path, else its own memory (whose download overwrites them all).
  if (on_host && r.has_host_path()) {
    poison_host(d);
  } else {
    r.poison(Slot::mid);
    r.poison(Slot::back);
  }
  auto go = on_host ? host_run : device_run;
  go(r, FFTMUX_FORWARD, d.host);
  Verdict v = verify_forward(d, family);
  if (!v.ok)
    return v;
  if (family != Family::copy && !d.spectrum) {
    d.spectrum = aligned_bytes(d.host.out_bytes);
    std::memcpy(d.spectrum.get(), d.host.mid, d.host.out_bytes);
  }
  go(r, FFTMUX_INVERSE, d.host);
  verify_inverse(d, family, v);
  return v;
}

void prepare(Contender& c, Data& d) {
  try {
    c.run = c.engine->open(d.desc, d.host);
    c.timer = c.run->timer();
    forget_fftw_wisdom(); // cold: no engine inherits another's FFTW planning
    c.plan_cold = wall([&] { c.run->plan(); });
    c.plan_warm = wall([&] { c.run->plan(); });
    c.variant = c.run->variant();
    c.verdict = verify_run(c, d);
    c.failure = c.verdict.reason;
  } catch (const std::exception& e) {
    c.failure = e.what();
  }
  if (!c.failure.empty())
    c.run.reset(); // its memory goes back before the others are timed
}

template <class F> double per_op(int k, F&& f) {
  return wall([&] {
           for (int i = 0; i < k; ++i)
             f();
         }) /
         k;
}

// The phases timed for a contender: what its placement and family make
// sense of. The closures hold pointers to the run and the data, which
// outlive the timing.
std::vector<Series> phases_of(Contender& c, Data& d, Device device, bool transfers) {
  Run* r = c.run.get();
  Data* dp = &d;
  const Host* h = &d.host;
  double traffic = double(h->in_bytes + h->out_bytes), flops = ref::flops(d.desc);
  if (c.info().family == Family::copy)
    return {{"copy", [r](int k) { return r->time_launches(FFTMUX_FORWARD, k); },
             2.0 * double(h->in_bytes)}};
  // FFTW and cuFFT overwrite a C2R input. On a CPU the values left there
  // could time differently (denormals), so it is restored between samples;
  // a GPU's time does not depend on values, and a restore costs a transfer.
  bool restore = d.desc.kind == FFTMUX_R2C && device == Device::cpu;
  auto restore_mid = [r, dp, restore](bool device_memory) {
    if (!restore)
      return;
    if (device_memory)
      r->write(Slot::mid, dp->spectrum.get());
    else
      std::memcpy(dp->host.mid, dp->spectrum.get(), dp->host.out_bytes);
  };
  if (d.desc.placement == FFTMUX_HOST)
    return {{"forward",
             [r, h](int k) { return per_op(k, [&] { host_run(*r, FFTMUX_FORWARD, *h); }); },
             traffic, flops},
            {"inverse",
             [r, h, restore_mid](int k) {
               restore_mid(false);
               return per_op(k, [&] { host_run(*r, FFTMUX_INVERSE, *h); });
             },
             traffic, flops}};
  std::vector<Series> out = {
      {"forward", [r](int k) { return r->time_launches(FFTMUX_FORWARD, k); }, traffic, flops},
      {"inverse",
       [r, restore_mid](int k) {
         restore_mid(true);
         return r->time_launches(FFTMUX_INVERSE, k);
       },
       traffic, flops}};
  if (transfers) {
    out.insert(out.begin(),
               {"upload", [r, h](int k) { return per_op(k, [&] { r->write(Slot::in, h->in); }); },
                double(h->in_bytes)});
    out.push_back({"download",
                   [r, h](int k) { return per_op(k, [&] { r->read(Slot::mid, h->mid); }); },
                   double(h->out_bytes)});
  }
  return out;
}

bool wants_more(const Series& s, const Settings& o) {
  int n = int(s.samples.size());
  return n < o.min_repeats || (n < o.repeats && s.spent < o.phase_budget);
}

// One sample of each series of c that wants one (all of them in warm-up,
// which calibrates the runs per sample). An engine that throws now is
// failed and leaves the timing. Returns whether a sample was taken.
bool sample(Contender& c, const Settings& o, bool warmup) {
  bool took = false;
  try {
    for (Series& s : c.series) {
      if (!warmup && !wants_more(s, o))
        continue;
      // One untimed run first: other engines ran since this one's last
      // sample, and a worker thread that went to sleep or a GPU context
      // switched out would otherwise be timed too (H200: OpenGL 1024^2 took
      // 317 us a call in one-run samples, 44 us back to back).
      if (!warmup)
        s.run(1);
      double t = s.run(s.runs);
      took = true;
      if (warmup) {
        s.runs = int(std::clamp(std::ceil(o.min_sample / std::max(t, 1e-9)), 1.0, 1e5));
        continue;
      }
      s.samples.push_back(t);
      s.spent += t * s.runs;
    }
  } catch (const std::exception& e) {
    c.failure = std::string("while timed: ") + e.what();
  }
  return took;
}

// Warm-up rounds (for at least warm_seconds), then rounds in a fresh random
// order each, until every series has its samples.
void time_all(std::vector<Contender*>& live, const Settings& o, std::mt19937_64& rng,
              double warm_seconds) {
  auto start = std::chrono::steady_clock::now();
  auto warming = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
           warm_seconds;
  };
  for (int round = 0, more = 1; more; ++round) {
    bool warmup = round < o.warmup || warming();
    more = warmup;
    std::shuffle(live.begin(), live.end(), rng);
    for (Contender* c : live)
      more |= sample(*c, o, warmup);
    live.erase(std::remove_if(live.begin(), live.end(),
                              [](const Contender* c) { return !c->failure.empty(); }),
               live.end());
  }
}

// Contenders in groups whose memory fits the class's budget: all of a
// group live at once, interleaved; a problem with many engines (every
// variant of every GPU backend at 2^27 elements) would not fit otherwise.
std::vector<std::vector<Contender*>> groups(std::vector<Contender>& cs, const Data& d,
                                            Device device, const Settings& o) {
  // Three slots, and as much again for an engine's own workspace.
  double each = 1.5 * double(2 * d.host.in_bytes + d.host.out_bytes);
  double budget = (device == Device::gpu ? o.gpu_memory_gib : o.cpu_memory_gib) * 0x1p30;
  std::vector<std::vector<Contender*>> out;
  double used = 0;
  for (Contender& c : cs) {
    if (out.empty() || used + each > budget) {
      out.emplace_back();
      used = 0;
    }
    out.back().push_back(&c);
    used += each;
  }
  return out;
}

// Plans and verification one engine after another, then the phases of
// those verified, interleaved.
void time_group(std::vector<Contender*>& group, Data& data, Device device, const Settings& o,
                Campaign& campaign) {
  std::vector<Contender*> live;
  for (Contender* c : group) {
    prepare(*c, data);
    if (c->failure.empty())
      live.push_back(c);
  }
  for (Contender* c : live) {
    auto key = std::make_tuple(c->info().name, data.host.in_bytes, data.host.out_bytes);
    bool transfers = data.desc.placement == FFTMUX_DEVICE &&
                     (o.transfers_every_problem || campaign.transfers_timed.insert(key).second);
    c->series = phases_of(*c, data, device, transfers);
  }
  time_all(live, o, campaign.rng, device == Device::gpu ? o.gpu_warmup : 0.0);
}

Row base_row(const Problem& p, const fftmux_desc& d, const EngineInfo& e) {
  Row r;
  r.set = p.set;
  r.desc = d;
  r.engine = &e;
  r.phase = "none";
  return r;
}

void add_results(const Problem& p, const Contender& c, const fftmux_desc& d, Report& report) {
  Row r = base_row(p, d, c.info());
  r.verdict = c.verdict;
  if (!c.failure.empty()) {
    r.phase = "verify";
    r.status = "failed";
    r.reason = c.failure;
    report.add(r);
    return;
  }
  r.status = "ok";
  r.timer = "wall";
  r.variant = c.variant;
  // A copy has nothing to plan.
  for (auto [phase, t] : {std::pair{"plan_cold", c.plan_cold}, std::pair{"plan_warm", c.plan_warm}})
    if (c.info().family != Family::copy) {
      r.phase = phase;
      r.stats = summarize({t}, 1);
      report.add(r);
    }
  for (const Series& s : c.series) {
    Row t = r;
    t.phase = s.phase;
    t.stats = summarize(s.samples, s.runs);
    bool launches = std::strcmp(s.phase, "upload") && std::strcmp(s.phase, "download") &&
                    d.placement == FFTMUX_DEVICE;
    t.timer = launches || c.info().family == Family::copy ? c.timer : "wall";
    t.bytes = s.bytes;
    t.flops = s.flops;
    report.add(t);
  }
}

std::string summary(const Contender& c) {
  if (!c.failure.empty())
    return c.info().name + " FAILED (" + c.failure + ")";
  for (const Series& s : c.series)
    if (!std::strcmp(s.phase, "forward") || !std::strcmp(s.phase, "copy")) {
      char b[160];
      double t = summarize(s.samples, s.runs).median;
      std::snprintf(b, sizeof b, "%s %.3g us %.0f GB/s", c.info().name.c_str(), t * 1e6,
                    s.bytes / t / 1e9);
      return b;
    }
  return c.info().name;
}

} // namespace

std::string measure(const Problem& p, Device device, int64_t elements,
                    const std::vector<Engine*>& engines, const Settings& o, Campaign& campaign,
                    Report& report) {
  Instance inst = instantiate(p.spec, elements);
  std::vector<Contender> cs;
  for (Engine* e : engines) {
    const EngineInfo& i = e->info();
    Row r = base_row(p, inst.desc, i);
    r.status = "skipped";
    r.reason = !i.skipped.empty() ? i.skipped : inst.too_big;
    if (r.reason.empty()) {
      r.status = "declined";
      try {
        r.reason = e->declines(inst.desc);
      } catch (const std::exception& x) {
        r.reason = x.what();
      }
    }
    if (r.reason.empty())
      cs.emplace_back(e);
    else
      report.add(r);
  }
  if (cs.empty())
    return "";
  uint64_t seed = o.seed ^ std::hash<std::string>{}(describe(inst.desc));
  std::unique_ptr<Data> data = make_data(inst.desc, seed, o.check_elements);
  std::shuffle(cs.begin(), cs.end(), campaign.rng);
  std::string line;
  for (std::vector<Contender*>& group : groups(cs, *data, device, o)) {
    time_group(group, *data, device, o, campaign);
    for (Contender* c : group) {
      add_results(p, *c, inst.desc, report);
      line += (line.empty() ? "" : "; ") + summary(*c);
      c->run.reset();
    }
  }
  return line;
}

} // namespace bench
