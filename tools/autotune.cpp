// fftmux autotune: measure, then route by measurement.
#include "commands.hpp"

#include <fftmux/fftmux.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

namespace fftmux::cli {

namespace {

struct TuneOptions {
  ProblemOptions problem;
  bool quick = false, json = false, exhaustive = false, system = false;
  std::string backends, cache;
  double budget = 0, skip_factor = 0;
  uint32_t repeat = 15, warmup = 3;
  uint64_t seed = 0;
  bool problem_given = false;
  bool kind_given = false, precision_given = false, placement_given = false;
};

std::string family(const fftmux_desc& d) {
  return geometry::kind_text(d) + " " + precision_names[d.precision % precision_names.size()] +
         " " + std::to_string(d.rank) + "D " + placement_names[d.placement % 2];
}

std::string duration(double s) {
  char buf[32];
  if (s < 0)
    return "?";
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0fs", s);
  else
    std::snprintf(buf, sizeof buf, "%dm%02ds", int(s) / 60, int(s) % 60);
  return buf;
}

std::string micros(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 1e-3 ? "%.2f us" : "%.3f ms", s < 1e-3 ? s * 1e6 : s * 1e3);
  return buf;
}

struct Progress {
  bool terminal = ::isatty(2);
  std::vector<fftmux_tune_record> records;
  std::vector<double> done; // seconds from the start of tuning to each record
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  static void callback(void* self, const fftmux_tune_record* r) {
    static_cast<Progress*>(self)->on(*r);
  }

  void keep(const fftmux_tune_record& r) {
    records.push_back(r);
    done.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }

  void on(const fftmux_tune_record& r) {
    keep(r);
    std::string what = r.backend[0] ? std::string(r.backend) + "/" + r.variant : "";
    std::string result = !r.ok          ? std::string(r.reason)
                         : r.same_as[0] ? "the same kernels as " + std::string(r.same_as)
                                        : micros(r.median_seconds);
    if (terminal) {
      int width = 30, done = int(width * double(r.problem_index + 1) / r.problem_count);
      std::fprintf(stderr, "\r\033[K[%s%s] %u/%u %s %s %s  ETA %s", std::string(done, '#').c_str(),
                   std::string(width - done, '.').c_str(), r.problem_index + 1, r.problem_count,
                   describe(r.desc).c_str(), what.c_str(), result.substr(0, 40).c_str(),
                   duration(r.eta_seconds).c_str());
      std::fflush(stderr);
    } else {
      std::printf("%u/%u %s %s: %s\n", r.problem_index + 1, r.problem_count,
                  describe(r.desc).c_str(), what.c_str(), result.c_str());
      std::fflush(stdout);
    }
  }
};

struct Win {
  int wins = 0;
  std::vector<double> speedups; // runner-up time over the winner's
};

// Who wins where: per problem family and backend, the problems won and the
// median speed-up over the runner-up of another backend.
std::map<std::string, std::map<std::string, Win>>
summarize(const std::vector<fftmux_tune_record>& all) {
  std::map<uint32_t, std::vector<const fftmux_tune_record*>> by_problem;
  for (const auto& r : all)
    if (r.ok)
      by_problem[r.problem_index].push_back(&r);
  std::map<std::string, std::map<std::string, Win>> table;
  for (auto& [index, rs] : by_problem) {
    std::sort(rs.begin(), rs.end(),
              [](auto* a, auto* b) { return a->median_seconds < b->median_seconds; });
    const fftmux_tune_record* best = rs.front();
    Win& w = table[family(best->desc)][best->backend];
    ++w.wins;
    for (auto* r : rs)
      if (std::string(r->backend) != best->backend) {
        w.speedups.push_back(r->median_seconds / best->median_seconds);
        break;
      }
  }
  return table;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void print_summary(const std::vector<fftmux_tune_record>& all, const std::string& cache) {
  int ok = 0, failed = 0;
  for (const auto& r : all)
    (r.ok ? ok : failed)++;
  std::printf("\n%d measurements, %d declined, failed or skipped; cache: %s\n\n", ok, failed,
              cache.c_str());
  std::printf("%-22s %-12s %6s  %s\n", "FAMILY", "BACKEND", "WINS", "SPEED-UP OVER RUNNER-UP");
  for (auto& [fam, backends] : summarize(all))
    for (auto& [backend, w] : backends) {
      std::string s = w.speedups.empty() ? "(no other backend)" : "";
      if (!w.speedups.empty()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2fx median", median(w.speedups));
        s = buf;
      }
      std::printf("%-22s %-12s %6d  %s\n", fam.c_str(), backend.c_str(), w.wins, s.c_str());
    }
}

// The records as JSON, each with done_seconds: when tuning had reached it (a problem's records
// come together once it is tuned, so the differences are each problem's time).
nlohmann::json to_json(const Progress& p) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < p.records.size(); ++i) {
    const fftmux_tune_record& r = p.records[i];
    out.push_back({{"problem", describe(r.desc)},
                   {"done_seconds", p.done[i]},
                   {"backend", r.backend},
                   {"variant", r.variant},
                   {"ok", bool(r.ok)},
                   {"reason", r.reason},
                   {"plan_seconds", r.plan_seconds},
                   {"check_seconds", r.check_seconds},
                   {"upload_seconds", r.upload_seconds},
                   {"execute_seconds", r.execute_seconds},
                   {"download_seconds", r.download_seconds},
                   {"median_seconds", r.median_seconds},
                   {"spread_seconds", r.spread_seconds},
                   {"round_trip_error", r.round_trip_error},
                   {"gbytes_per_second", r.gbytes_per_second},
                   {"runs", r.runs},
                   {"same_as", r.same_as}});
    out.back().update(problem_json(r.desc));
  }
  return out;
}

std::vector<fftmux_desc> problem_set(const TuneOptions& o) {
  if (o.problem_given)
    return {o.problem.desc()};
  size_t n = 0;
  uint32_t set = o.quick ? FFTMUX_TUNE_QUICK : FFTMUX_TUNE_DEFAULT;
  check(fftmux_autotune_problems(set, nullptr, 0, &n));
  std::vector<fftmux_desc> all(n);
  check(fftmux_autotune_problems(set, all.data(), n, &n));
  // --kind, --precision and --placement without --shape: the set's problems of those.
  fftmux_desc want = o.problem.desc();
  all.erase(std::remove_if(all.begin(), all.end(),
                           [&](const fftmux_desc& d) {
                             return (o.kind_given && d.kind != want.kind) ||
                                    (o.precision_given && d.precision != want.precision) ||
                                    (o.placement_given && d.placement != want.placement);
                           }),
            all.end());
  if (all.empty())
    throw std::runtime_error("the problem set has no problem of the --kind, --precision and "
                             "--placement given");
  return all;
}

int tune(TuneOptions& o) {
  std::vector<fftmux_desc> problems = problem_set(o);
  context ctx;
  if (o.system) // every user reads it beneath their own cache
    o.cache = detail::text([&](char* s, size_t n, size_t* need) {
      return fftmux_system_tuning_path(ctx.get(), s, n, need);
    });
  Progress progress;
  progress.terminal = progress.terminal && !o.json;
  fftmux_tune_options t;
  fftmux_tune_options_init(&t);
  t.repeats = o.repeat;
  t.warmup = o.warmup;
  t.budget_seconds = o.budget;
  t.backends = o.backends.empty() ? nullptr : o.backends.c_str();
  t.cache_path = o.cache.empty() ? nullptr : o.cache.c_str();
  t.seed = o.seed;
  t.exhaustive = o.exhaustive;
  t.skip_factor = o.skip_factor;
  t.progress = o.json ? nullptr : Progress::callback;
  t.user = &progress;
  if (o.json)
    t.progress = [](void* self, const fftmux_tune_record* r) {
      static_cast<Progress*>(self)->keep(*r);
    };
  check(fftmux_autotune(ctx.get(), problems.data(), problems.size(), &t));
  if (progress.terminal)
    std::fprintf(stderr, "\n");
  std::string cache = o.cache;
  if (cache.empty())
    cache = detail::text([&](char* s, size_t n, size_t* need) {
      return fftmux_tuning_cache_path(ctx.get(), s, n, need);
    });
  if (o.json)
    std::printf("%s\n",
                nlohmann::json{{"cache", cache}, {"records", to_json(progress)}}.dump(2).c_str());
  else
    print_summary(progress.records, cache);
  return 0;
}

} // namespace

Action add_autotune(CLI::App& app) {
  auto* sub = app.add_subcommand("autotune", "measure the backends and variants; route by it");
  auto o = std::make_shared<TuneOptions>();
  o->problem.add_to(*sub);
  sub->add_flag("--quick", o->quick, "a short subset of the default problem set");
  sub->add_option("--backends", o->backends, "comma-separated backends to measure (default: all)");
  sub->add_option("--budget", o->budget, "seconds after which no new problem starts (0: none)");
  sub->add_option("--repeat", o->repeat, "timed runs per candidate")->capture_default_str();
  sub->add_option("--warmup", o->warmup, "untimed runs first")->capture_default_str();
  sub->add_option("--seed", o->seed, "seed of the interleaving order");
  sub->add_flag("--exhaustive", o->exhaustive,
                "time every distinct candidate with every repeat instead of racing them");
  sub->add_option("--skip-factor", o->skip_factor,
                  "race: skip candidates estimated over this many times the best time (0: 4)");
  sub->add_option("--cache", o->cache, "tuning cache to write (default: the configured one)");
  sub->add_flag("--system", o->system,
                "write the system tuning cache every user reads (/var/lib/fftmux/tuning.toml)")
      ->excludes(sub->get_option("--cache"));
  sub->add_flag("--json", o->json, "print the measurements as JSON");
  return [o, sub] {
    o->problem_given = sub->count("--shape") > 0;
    o->kind_given = sub->count("--kind") > 0;
    o->precision_given = sub->count("--precision") > 0;
    o->placement_given = sub->count("--placement") > 0;
    return tune(*o);
  };
}

} // namespace fftmux::cli
