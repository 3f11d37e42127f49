// The cost of routing by measurement: a 10,000-entry tuning cache loaded
// cold (TOML parsed) and warm (its binary index), and the per-plan decision
// with it, on the fixture backends whose own planning costs nothing.
#include <fftmux/fftmux.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const std::string dir = fs::temp_directory_path().string() + "/fftmux_routing_bench";
const std::string cache = dir + "/tuning.toml";
constexpr int entries = 10000;

// Measurements of both fixture backends for 5000 problems each (batches
// vary so every key differs; sizes span 2^3..2^24).
void write_cache() {
  std::ofstream f(cache);
  f << "[meta]\nschema = 1\nfftmux = \"" FFTMUX_VERSION_STRING "\"\n";
  for (int i = 0; i < entries; ++i) {
    int64_t n = int64_t(1) << (3 + i % 22), batch = 1 + i / 44;
    const char* backend = i % 2 ? "fast" : "slow";
    f << "\n[[measurement]]\nproblem = \"c2c f64 " << n << " batch " << batch
      << " host out-of-place default\"\nfamily = \"c2c f64 rank 1 host\"\npoints = " << n
      << "\nbatch = " << batch << "\nbackend = \"" << backend << "\"\nhardware = \"fixture "
      << backend << "\"\nvariant = \"naive\"\nmedian = " << 1e-9 * double(n * batch)
      << "\nspread = 1e-7\nrunner_up = \"\"\nrunner_up_median = 0.0\ntimes = { naive = "
      << 1e-9 * double(n * batch)
      << " }\ngbps = 1.0\nplan = 0.001\nupload = -1.0\nexecute = 1e-6\ndownload = -1.0\n"
         "timestamp = \"2026-11-29T00:00:00Z\"\nfailed = false\nreason = \"\"\n";
  }
}

fftmux::context open() {
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  o.plugin_path = FIXTURES "/routing";
  return fftmux::context(o);
}

fftmux_desc problem(int64_t n, int64_t batch) {
  return fftmux::make_desc({n}, FFTMUX_C2C, FFTMUX_F64, batch);
}

// Context creation plus the first routed plan, which loads the cache.
void load(benchmark::State& s, bool cold) {
  for (auto _ : s) {
    if (cold) {
      s.PauseTiming();
      fs::remove_all(dir + "/xdg/fftmux/index"); // the binary index
      s.ResumeTiming();
    }
    fftmux::context ctx = open();
    benchmark::DoNotOptimize(ctx.make_plan(problem(64, 3)).get());
  }
}

void load_cold(benchmark::State& s) {
  load(s, true);
}
void load_warm(benchmark::State& s) {
  load(s, false);
}

void no_cache(benchmark::State& s) {
  setenv("FFTMUX_TUNING_CACHE", (dir + "/none.toml").c_str(), 1);
  load(s, false);
  setenv("FFTMUX_TUNING_CACHE", cache.c_str(), 1);
}

// plan_create + plan_destroy: routing (query both backends, look up or
// interpolate both) plus the fixture's trivial planning.
void decision(benchmark::State& s, bool exact) {
  fftmux::context ctx = open();
  ctx.make_plan(problem(64, 1));
  fftmux_desc d = exact ? problem(1 << 10, 1) : problem(3000, 7);
  for (auto _ : s)
    benchmark::DoNotOptimize(ctx.make_plan(d).get());
  s.SetLabel(ctx.make_plan(d).explain().substr(0, 0));
}

void decision_exact(benchmark::State& s) {
  decision(s, true);
}
void decision_interpolated(benchmark::State& s) {
  decision(s, false);
}

} // namespace

int main(int argc, char** argv) {
  fs::create_directories(dir);
  setenv("XDG_CACHE_HOME", (dir + "/xdg").c_str(), 1);
  setenv("FFTMUX_TUNING_CACHE", cache.c_str(), 1);
  write_cache();
  benchmark::RegisterBenchmark("load/no_cache", no_cache)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("load/10000/cold_toml", load_cold)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("load/10000/warm_index", load_warm)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("decision/10000/exact", decision_exact)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("decision/10000/interpolated", decision_interpolated)
      ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
