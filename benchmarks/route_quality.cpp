// How good untuned routing is: for a set of problems across kinds,
// precisions, ranks, sizes (powers of two, smooth, prime, odd), batches and
// both placements, the time of the plan "auto" makes with no tuning cache
// against every backend forced (each with its own best variant by its
// model, and its preferred variant), all timed in the same rounds (on device
// data, each timed call right after an untimed one of its own). Prints a
// table and, with --json, writes every row. docs/routing.md shows results.
//
//   route_quality [--set cpu|gpu] [--placement host|device] [--match A,B,..] [--repeat N]
//                 [--json FILE]
//
// --match keeps the problems whose row names one of the pieces ("4097",
// "45x45x45 x46").
#include <fftmux/fftmux.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

struct Problem {
  std::vector<int64_t> n;
  fftmux_kind kind;
  fftmux_precision precision;
  int64_t batch;
  fftmux_placement placement;
};

// Elements a call: the batches fill it (the GPU set's is larger so that a
// GPU runs long enough to be more than its launch).
std::vector<Problem> problem_set(bool gpu) {
  int64_t total = gpu ? 1 << 22 : 1 << 16;
  std::vector<std::vector<int64_t>> shapes = {
      {16},    {64},    {256},    {1000},     {1024},       {4093},       {4096},      {6000},
      {10007}, {65536}, {64, 64}, {300, 300}, {1024, 1024}, {32, 32, 32}, {45, 45, 45}};
  if (gpu)
    for (std::vector<int64_t> n :
         {std::vector<int64_t>{4097}, {1 << 20}, {4096, 4096}, {256, 256, 256}})
      shapes.push_back(n);
  std::vector<Problem> out;
  for (fftmux_placement placement : {FFTMUX_HOST, FFTMUX_DEVICE})
    for (const auto& n : shapes) {
      int64_t points = 1;
      for (int64_t v : n)
        points *= v;
      int64_t batch = std::max<int64_t>(1, total / points);
      bool odd = points % 2 != 0 || n.size() > 1; // F64 and R2C on alternate shapes
      out.push_back({n, FFTMUX_C2C, FFTMUX_F32, batch, placement});
      out.push_back({n, odd ? FFTMUX_R2C : FFTMUX_C2R, FFTMUX_F32, batch, placement});
      out.push_back({n, FFTMUX_C2C, FFTMUX_F64, std::max<int64_t>(1, batch / 2), placement});
    }
  return out;
}

std::string describe(const Problem& p) {
  static const char* kinds[] = {"c2c", "r2c", "c2r"};
  std::string s = std::string(kinds[p.kind]) + (p.precision == FFTMUX_F64 ? " f64 " : " f32 ");
  for (size_t i = 0; i < p.n.size(); ++i)
    s += (i ? "x" : "") + std::to_string(p.n[i]);
  return s + " x" + std::to_string(p.batch) + (p.placement == FFTMUX_DEVICE ? " device" : " host");
}

// A plan with its data in the problem's placement, and its runs.
struct Contender {
  std::string name; // backend/variant; the first is the plan "auto" made
  fftmux::plan plan;
  std::vector<unsigned char> in, out;
  fftmux::buffer bin, bout;
  std::vector<double> runs;

  void run(const fftmux_desc& d) {
    int dir = d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
    if (d.placement == FFTMUX_DEVICE) {
      plan.execute(dir, bin, bout);
      plan.synchronize();
    } else {
      plan.execute(dir, in.data(), out.data());
    }
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? -1 : v[v.size() / 2];
}

void prepare(Contender& c, const fftmux_desc& d) {
  fftmux_layout l = fftmux::layout(d);
  c.in.assign(l.in_bytes, 0);
  c.out.assign(l.out_bytes, 0);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  if (d.precision == FFTMUX_F32)
    for (size_t i = 0; i + 4 <= c.in.size(); i += 4) {
      float v = u(rng);
      std::memcpy(&c.in[i], &v, 4);
    }
  if (d.placement == FFTMUX_DEVICE) {
    c.bin = c.plan.make_buffer(l.in_bytes);
    c.bout = c.plan.make_buffer(l.out_bytes);
    c.bin.write(c.in.data(), l.in_bytes);
  }
}

struct Options {
  bool gpu = false;
  int repeat = 9;
  std::string json;
  std::string placement;          // "host" or "device": that half of the set; empty: both
  std::vector<std::string> match; // pieces of the problems' names kept; empty: all
};

// Whether problem p's row name holds one of o.match's pieces (any, when none is given).
bool kept(const Options& o, const std::string& name) {
  return o.match.empty() || std::any_of(o.match.begin(), o.match.end(), [&](const std::string& m) {
           return name.find(m) != std::string::npos;
         });
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "route_quality: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return std::string(argv[++i]);
    };
    if (a == "--set")
      o.gpu = value() == "gpu";
    else if (a == "--repeat")
      o.repeat = std::max(1, std::atoi(value().c_str()));
    else if (a == "--json")
      o.json = value();
    else if (a == "--placement") {
      o.placement = value();
      if (o.placement != "host" && o.placement != "device") {
        std::fprintf(stderr, "route_quality: --placement must be host or device\n");
        std::exit(2);
      }
    } else if (a == "--match") {
      std::string list = value();
      for (size_t at = 0; at <= list.size();) {
        size_t comma = std::min(list.find(',', at), list.size());
        if (comma > at)
          o.match.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
    } else {
      std::fprintf(stderr, "usage: route_quality [--set cpu|gpu] [--placement host|device] "
                           "[--match A,B,..] [--repeat N] [--json FILE]\n");
      std::exit(2);
    }
  }
  return o;
}

// The contenders of one problem: the plan "auto" makes, then every backend
// forced (its variant as its model ranks them) and its preferred variant,
// each plan once: a forced plan that is auto's is auto's contender.
std::vector<Contender> contenders(fftmux::context& ctx, const fftmux_desc& d) {
  std::vector<Contender> out;
  auto add = [&](const char* backend, const char* variant) {
    try {
      fftmux::plan p = ctx.make_plan(d, backend, variant);
      std::string name = p.backend() + "/" + p.variant();
      for (const Contender& c : out)
        if (c.name == name)
          return;
      out.push_back({name, std::move(p), {}, {}, {}, {}, {}});
      prepare(out.back(), d);
    } catch (const fftmux::error&) {
    } // declined: not a contender
  };
  add(nullptr, nullptr);
  if (out.empty())
    return out;
  std::vector<fftmux_backend_info> backends = ctx.backends();
  for (uint32_t i = 0; i < backends.size(); ++i) {
    if (backends[i].state != FFTMUX_BACKEND_READY)
      continue;
    add(backends[i].name, nullptr);
    std::string first = ctx.variants(i);
    add(backends[i].name, first.substr(0, first.find(',')).c_str());
  }
  return out;
}

// Writes the rows so far to --json, if given.
void save(const Options& o, const nlohmann::json& rows, double worst, int over) {
  if (!o.json.empty())
    std::ofstream(o.json) << nlohmann::json{{"set", o.gpu ? "gpu" : "cpu"},
                                            {"repeat", o.repeat},
                                            {"worst_ratio", worst},
                                            {"over_1_5", over},
                                            {"rows", rows}}
                                 .dump(1)
                          << "\n";
}

} // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  namespace fs = std::filesystem;
  std::string empty = (fs::temp_directory_path() / "route_quality_no_cache.toml").string();
  fs::remove(empty);
  setenv("FFTMUX_TUNING_CACHE", empty.c_str(), 1); // untuned: no measurement applies
  auto t0 = std::chrono::steady_clock::now();
  fftmux::context ctx;
  nlohmann::json rows = nlohmann::json::array();
  double worst = 0;
  int over = 0;
  std::printf("%-34s %-28s %10s %-28s %10s %6s\n", "PROBLEM", "AUTO", "US", "BEST", "US", "RATIO");
  std::mt19937 rng(7);
  for (const Problem& p : problem_set(o.gpu)) {
    if (!o.placement.empty() && (p.placement == FFTMUX_DEVICE) != (o.placement == "device"))
      continue;
    if (!kept(o, describe(p)))
      continue;
    fftmux_desc d = fftmux::make_desc(p.n, p.kind, p.precision, p.batch);
    d.placement = p.placement;
    std::vector<Contender> cs = contenders(ctx, d);
    if (cs.empty())
      continue;
    for (Contender& c : cs)
      c.run(d); // warm-up
    std::vector<Contender*> order;
    for (Contender& c : cs)
      order.push_back(&c);
    for (int r = 0; r < o.repeat; ++r) {
      std::shuffle(order.begin(), order.end(), rng);
      for (Contender* c : order) {
        // On device data each timed call follows one of its own: after the other contenders'
        // calls (FFTW's on the host among them) a call took about 200 us on every GPU engine of
        // an H100, where back-to-back calls took 31-38 us (docs/routing.md).
        if (d.placement == FFTMUX_DEVICE)
          c->run(d);
        auto t = std::chrono::steady_clock::now();
        c->run(d);
        c->runs.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
      }
    }
    const Contender* best = &cs[0];
    for (const Contender& c : cs)
      if (median(c.runs) < median(best->runs))
        best = &c;
    const std::string& chosen = cs[0].name;
    const std::string& best_name = best->name;
    double t_auto = median(cs[0].runs), t_best = median(best->runs);
    double ratio = t_auto / t_best;
    worst = std::max(worst, ratio);
    over += ratio > 1.5;
    std::printf("%-34s %-28s %10.1f %-28s %10.1f %6.2f\n", describe(p).c_str(), chosen.c_str(),
                t_auto * 1e6, best_name.c_str(), t_best * 1e6, ratio);
    std::fflush(stdout);
    nlohmann::json times = nlohmann::json::object();
    for (const Contender& c : cs)
      times[c.name] = median(c.runs);
    rows.push_back({{"problem", describe(p)},
                    {"auto", chosen},
                    {"auto_seconds", t_auto},
                    {"best", best_name},
                    {"best_seconds", t_best},
                    {"ratio", ratio},
                    {"seconds", times}});
    save(o, rows, worst, over); // what is done survives a run cut short
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("\n%zu problems; worst auto/best %.2f; %d over 1.5; %.0f s\n", rows.size(), worst,
              over, wall);
  save(o, rows, worst, over);
  return 0;
}
