// fftmux_bench: every fftmux backend and variant side by side with FFTW,
// cuFFT and VkFFT called directly, on the same problems and data, in one
// process. docs/performance.md says what it measures and how.
#include "cpu_engines.hpp"
#include "fftmux_engines.hpp"
#include "machine.hpp"
#include "measure.hpp"
#include "peers.hpp"
#include "problems.hpp"
#include "report.hpp"
#include "version.hpp"

#include <CLI/CLI.hpp>
#include <fftw3.h>
#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

namespace {

namespace fs = std::filesystem;
using namespace bench;

struct Options {
  std::vector<std::string> sets = {"all"};
  bool quick = false;
  std::string engines = "*";
  std::string device = "all";
  std::string precision = "all";
  std::vector<std::string> shapes; // e.g. 64, 1024x1024; empty = every shape of the sets
  std::string variants;            // "": all, or default with --quick
  std::string out = "bench-results";
  std::string cpu_elements, gpu_elements; // "" keeps the set's own
  std::string fftw_planner = "measure";
  int fftw_threads = int(std::max(1u, std::thread::hardware_concurrency()));
  std::string cache_dir;
  bool user_caches = false;
  double budget = 0;
  bool list = false;
  std::string peer_dir = default_peer_dir();
  Settings settings;
};

// "4194304" or "2^22".
int64_t parse_count(const std::string& text) {
  try {
    auto caret = text.find('^');
    if (caret == std::string::npos)
      return std::stoll(text);
    return std::llround(
        std::pow(std::stod(text.substr(0, caret)), std::stod(text.substr(caret + 1))));
  } catch (const std::logic_error&) {
    throw std::runtime_error("'" + text + "' is not a count (e.g. 4194304 or 2^22)");
  }
}

unsigned planner_flag(const std::string& name) {
  const std::pair<const char*, unsigned> table[] = {{"estimate", FFTW_ESTIMATE},
                                                    {"measure", FFTW_MEASURE},
                                                    {"patient", FFTW_PATIENT},
                                                    {"exhaustive", FFTW_EXHAUSTIVE}};
  for (auto [n, f] : table)
    if (name == n)
      return f;
  throw std::runtime_error("--fftw-planner: estimate, measure, patient or exhaustive");
}

void add_options(CLI::App& app, Options& o) {
  Settings& s = o.settings;
  app.add_option("-s,--set", o.sets, "problem sets (--list names them; 'all' the big ones)")
      ->delimiter(',');
  app.add_flag("--quick", o.quick, "the quick set: a few minutes at most on a small CPU");
  app.add_option("--shapes", o.shapes,
                 "problems of these transform shapes only (e.g. 64 1024x1024)")
      ->delimiter(',');
  app.add_option("--precision", o.precision,
                 "problems of this precision only: all, f32, f64, f16, bf16")
      ->check(CLI::IsMember({"all", "f32", "f64", "f16", "bf16"}))
      ->capture_default_str();
  app.add_option("-e,--engines", o.engines, "comma-separated globs of engine names")
      ->capture_default_str();
  app.add_option("--variants", o.variants,
                 "fftmux engines: all (each variant too; the default but with --quick) or "
                 "default (the backend's pick)")
      ->check(CLI::IsMember({"all", "default"}));
  app.add_option("--class", o.device, "engines of this class only: all, cpu, gpu")
      ->check(CLI::IsMember({"all", "cpu", "gpu"}))
      ->capture_default_str();
  app.add_option("-o,--out", o.out, "folder for bench.csv and bench.json")->capture_default_str();
  app.add_option("--cpu-elements", o.cpu_elements, "elements per call on CPUs (e.g. 2^22)");
  app.add_option("--gpu-elements", o.gpu_elements, "elements per call on GPUs (e.g. 2^27)");
  app.add_option("--repeats", s.repeats, "timed samples per phase at most")->capture_default_str();
  app.add_option("--min-repeats", s.min_repeats, "timed samples per phase at least")
      ->capture_default_str();
  app.add_option("--warmup", s.warmup, "untimed rounds first")->capture_default_str();
  app.add_option("--gpu-warmup", s.gpu_warmup, "seconds of untimed rounds first on GPUs")
      ->capture_default_str();
  app.add_option("--min-sample-time", s.min_sample, "seconds a sample lasts at least")
      ->capture_default_str();
  app.add_option("--phase-budget", s.phase_budget,
                 "seconds per phase after which --min-repeats samples suffice")
      ->capture_default_str();
  app.add_option("--check-elements", s.check_elements,
                 "elements of rows checked against the reference per problem")
      ->capture_default_str();
  app.add_flag("--all-transfers", s.transfers_every_problem,
               "time upload and download on every problem, not once per engine and size");
  app.add_option("--gpu-memory", s.gpu_memory_gib,
                 "GiB the GPU engines of a problem may hold at once; more run in groups")
      ->capture_default_str();
  app.add_option("--cpu-memory", s.cpu_memory_gib, "the same for CPU engines")
      ->capture_default_str();
  app.add_option("--seed", s.seed, "of the data and the random order")->capture_default_str();
  app.add_option("--budget", o.budget, "seconds after which no new problem starts (0: none)");
  app.add_option("--fftw-planner", o.fftw_planner, "rigor of the direct FFTW plans")
      ->capture_default_str();
  app.add_option("--fftw-threads", o.fftw_threads, "threads of the direct FFTW plans")
      ->capture_default_str();
  app.add_option("--cache-dir", o.cache_dir,
                 "fftmux's cache folder (XDG_CACHE_HOME); default: a fresh temporary one");
  app.add_flag("--user-caches", o.user_caches, "keep the user's caches: cold plans may be warm");
  app.add_option("--peer-dir", o.peer_dir, "folder of the peer modules")->capture_default_str();
  app.add_flag("--list", o.list, "list the sets and engines, then exit");
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t end; (end = text.find(',', start)) != std::string::npos; start = end + 1)
    out.push_back(text.substr(start, end - start));
  out.push_back(text.substr(start));
  return out;
}

bool selected(const EngineInfo& e, const Options& o) {
  if (o.device != "all" && o.device != device_name(e.device))
    return false;
  for (const std::string& glob : split(o.engines))
    if (fnmatch(glob.c_str(), e.name.c_str(), 0) == 0)
      return true;
  return false;
}

void list(const Engines& engines) {
  std::printf("sets:\n");
  for (const SetInfo& s : sets())
    std::printf("  %-8s %s (elements per call: cpu %lld, gpu %lld)\n", s.name.c_str(),
                s.about.c_str(), (long long)s.cpu_elements, (long long)s.gpu_elements);
  std::printf("engines:\n");
  for (const auto& e : engines) {
    const EngineInfo& i = e->info();
    std::printf(
        "  %-24s %-6s %-3s %s\n", i.name.c_str(), family_name(i.family), device_name(i.device),
        (i.skipped.empty() ? i.version + ": " + i.devices : "skipped: " + i.skipped).c_str());
  }
}

// A fresh XDG_CACHE_HOME, so that cold plans find no compiled kernels or
// wisdom from earlier runs; a temporary one is removed at the end, after
// the context that writes into it.
class Caches {
public:
  explicit Caches(const Options& o) {
    if (o.user_caches)
      return;
    std::string dir = o.cache_dir;
    if (dir.empty()) {
      dir = (fs::temp_directory_path() / "fftmux-bench-XXXXXX").string();
      if (!mkdtemp(dir.data()))
        throw std::runtime_error("cannot create a temporary cache folder");
      temporary_ = dir;
    }
    setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  }
  ~Caches() {
    std::error_code ignored;
    if (!temporary_.empty())
      fs::remove_all(temporary_, ignored);
  }
  Caches(const Caches&) = delete;
  Caches& operator=(const Caches&) = delete;

private:
  std::string temporary_;
};

using Context = std::unique_ptr<fftmux_context_s, fftmux_status (*)(fftmux_context)>;

Context open_context() {
  fftmux_context ctx = nullptr;
  if (fftmux_context_create(nullptr, &ctx) != FFTMUX_OK)
    throw std::runtime_error(std::string("fftmux_context_create: ") + fftmux_last_error());
  return Context(ctx, fftmux_context_destroy);
}

// The GPUs the selected engines run on, each once: "none" on a machine without.
std::string gpu_devices(const std::vector<const EngineInfo*>& engines) {
  std::vector<std::string> seen;
  for (const EngineInfo* e : engines)
    if (e->device == Device::gpu && e->skipped.empty() &&
        std::find(seen.begin(), seen.end(), e->devices) == seen.end())
      seen.push_back(e->devices);
  return seen.empty() ? "none" : CLI::detail::join(seen, "; ");
}

std::string clock_text(double seconds) {
  char b[32];
  int s = int(seconds + 0.5);
  std::snprintf(b, sizeof b, "%d:%02d", s / 60, s % 60);
  return b;
}

Meta header(const Options& o, const std::vector<const EngineInfo*>& engines, int argc,
            char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i)
    command += (i ? " " : "") + std::string(argv[i]);
  Meta meta = {
      {"harness", "fftmux_bench " FFTMUX_BENCH_GIT}, {"command", command}, {"started", utc_now()}};
  for (auto& m : machine())
    meta.push_back(m);
  meta.emplace_back("gpus", gpu_devices(engines));
  const Settings& s = o.settings;
  meta.insert(
      meta.end(),
      {{"sets", CLI::detail::join(o.sets, ",") +
                    (o.shapes.empty() ? "" : ", shapes " + CLI::detail::join(o.shapes, ",")) +
                    ", precision " + o.precision + ", variants " + o.variants},
       {"settings", "repeats " + std::to_string(s.repeats) + ", min-repeats " +
                        std::to_string(s.min_repeats) + ", warmup " + std::to_string(s.warmup) +
                        ", min-sample-time " + std::to_string(s.min_sample) + " s, phase-budget " +
                        std::to_string(s.phase_budget) + " s, check-elements " +
                        std::to_string(s.check_elements) + ", seed " + std::to_string(s.seed)},
       {"fftw direct", o.fftw_planner + ", " + std::to_string(o.fftw_threads) +
                           " threads (1 below 65536 points x batch)"},
       {"caches", o.user_caches ? "the user's" : "fresh (cold plans start empty)"}});
  return meta;
}

std::vector<Problem> selected_problems(const Options& o) {
  std::vector<Problem> out; // problems() fails early on an unknown set
  for (const Problem& p : problems(o.sets)) {
    bool shaped = o.shapes.empty() || std::find(o.shapes.begin(), o.shapes.end(),
                                                shape_text(p.spec.shape)) != o.shapes.end();
    if (shaped && (o.precision == "all" || o.precision == precision_name(p.spec.precision)))
      out.push_back(p);
  }
  return out;
}

// Every problem on the engines of each class, the files rewritten after each.
void run_problems(const Options& o, const std::vector<Engine*>& engines, Report& report) {
  std::vector<Problem> todo = selected_problems(o);
  fs::create_directories(o.out);
  std::string csv = (fs::path(o.out) / "bench.csv").string();
  std::string json = (fs::path(o.out) / "bench.json").string();
  Campaign campaign{std::mt19937_64(o.settings.seed), {}};
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (size_t done = 0; done < todo.size(); ++done) {
    const Problem& p = todo[done];
    if (o.budget > 0 && elapsed() > o.budget) {
      report.note("stopped", "the --budget of " + std::to_string(o.budget) + " s was spent; " +
                                 std::to_string(todo.size() - done) + " problems not run");
      break;
    }
    for (Device d : {Device::cpu, Device::gpu}) {
      std::vector<Engine*> of_class;
      for (Engine* e : engines)
        if (e->info().device == d)
          of_class.push_back(e);
      const std::string& option = d == Device::gpu ? o.gpu_elements : o.cpu_elements;
      int64_t elements =
          parse_count(option.empty() ? std::to_string(elements_of(p.set, d)) : option);
      std::string line =
          of_class.empty() ? "" : measure(p, d, elements, of_class, o.settings, campaign, report);
      if (line.empty()) // no engine of the class ran it: the rows say why
        continue;
      double t = elapsed();
      std::fprintf(stderr, "[%zu/%zu %s eta %s] %s %s %s: %s\n", done + 1, todo.size(),
                   clock_text(t).c_str(),
                   clock_text(t / double(done + 1) * double(todo.size() - done - 1)).c_str(),
                   p.set.c_str(), device_name(d),
                   describe(instantiate(p.spec, elements).desc).c_str(), line.c_str());
    }
    report.write(csv, json);
  }
  report.note("finished", utc_now());
  report.note("elapsed", std::to_string(elapsed()) + " s");
  report.write(csv, json);
  std::fprintf(stderr, "wrote %s and %s\n", csv.c_str(), json.c_str());
}

int run(const Options& o, int argc, char** argv) {
  // Unknown sets and bad counts fail before anything starts.
  selected_problems(o);
  for (const std::string* count : {&o.cpu_elements, &o.gpu_elements})
    if (!count->empty() && parse_count(*count) < 1)
      throw std::runtime_error("elements per call must be at least 1");
  Caches caches(o);
  Context ctx = open_context();
  Engines all;
  add_fftmux_engines(ctx.get(), o.variants == "all", all);
  add_cpu_engines({planner_flag(o.fftw_planner), o.fftw_threads, 65536}, all);
  add_peer_modules(o.peer_dir, all);
  if (o.list) {
    list(all);
    return 0;
  }
  std::vector<Engine*> engines;
  std::vector<const EngineInfo*> infos;
  for (auto& e : all)
    if (selected(e->info(), o)) {
      engines.push_back(e.get());
      infos.push_back(&e->info());
    }
  Report report(header(o, infos, argc, argv), infos);
  run_problems(o, engines, report);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"fftmux_bench: fftmux's backends side by side with FFTW, cuFFT and VkFFT"};
  Options o;
  add_options(app, o);
  CLI11_PARSE(app, argc, argv);
  // The quick set is for small machines: one engine per backend unless asked.
  if (o.quick)
    o.sets = {"quick"};
  if (o.variants.empty())
    o.variants = o.quick ? "default" : "all";
  try {
    return run(o, argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fftmux_bench: %s\n", e.what());
    return 1;
  }
}
