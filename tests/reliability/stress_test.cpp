// Thread safety and memory: eight threads creating, running and
// destroying plans on one context, with backends failing for some of them;
// contexts created, used and destroyed side by side and in any order;
// 10,000 plan cycles (2,000 under a sanitizer) and 200 context cycles without
// growth of the heap.
#include <fixture_test.hpp>
#include <reference.hpp>

#ifdef FFTMUX_SANITIZED
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

namespace {

namespace ref = fftmux::ref;
using fftmux::test::has;
using fftmux::test::routing;

const std::string plugins = std::string(FFTW_PLUGIN_DIR) + ":" + routing;

// One problem out of every family the FFTW and fixture backends run.
fftmux_desc pick(std::mt19937_64& rng) {
  static const std::vector<std::vector<int64_t>> shapes = {
      {8}, {12}, {17}, {64}, {100}, {6, 10}, {16, 9}, {4, 6, 5}, {3, 8, 8}};
  auto u = [&](uint64_t n) { return rng() % n; };
  const auto& n = shapes[u(shapes.size())];
  fftmux_kind kind = fftmux_kind(u(3));
  fftmux_desc d = fftmux::make_desc(n, kind, fftmux_precision(u(2)), int64_t(1 + u(3)));
  d.norm = uint32_t(u(4));
  d.flags = uint32_t(u(4)) | (u(3) == 0 ? FFTMUX_IN_PLACE : 0u);
  if (u(4) == 0 && !(d.flags & FFTMUX_IN_PLACE)) { // padded rows, spaced batches
    d.in_strides[n.size() - 1] = 2;
    d.in_strides[0] = n.size() > 1 ? 2 * 64 * 64 : 2;
    d.in_distance = 2 * 64 * 64 * 8;
  }
  return d;
}

int direction_of(const fftmux_desc& d, std::mt19937_64& rng) {
  if (d.kind == FFTMUX_C2C)
    return rng() % 2 ? FFTMUX_FORWARD : FFTMUX_INVERSE;
  return d.kind == FFTMUX_R2C ? FFTMUX_FORWARD : FFTMUX_INVERSE;
}

struct Outcome {
  double error;        // relative, against the reference
  std::string backend; // that ran it
};

// Runs a fresh plan of d once, on backend (NULL: routed), on host memory or
// backend buffers.
Outcome run_once(const fftmux::context& ctx, const fftmux_desc& d, int direction, bool buffers,
                 uint64_t seed, const char* backend = nullptr) {
  fftmux::plan p = ctx.make_plan(d, backend);
  fftmux_layout l = fftmux::layout(d);
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  std::vector<unsigned char> in = ref::random_input(d, seed);
  std::vector<unsigned char> out(std::max(l.in_bytes, l.out_bytes));
  if (buffers) {
    fftmux::buffer a = p.make_buffer(out.size()), b = p.make_buffer(out.size());
    a.write(in.data(), in.size());
    p.execute(direction, a, in_place ? a : b);
    (in_place ? a : b).read(out.data(), out.size());
  } else if (in_place) {
    in.resize(out.size());
    p.execute(direction, in.data(), in.data());
    out = in;
  } else {
    p.execute(direction, in.data(), out.data());
  }
  in = ref::random_input(d, seed); // the reference reads an untouched copy
  return {ref::relative_error(ref::read_side(d, false, out.data()),
                              ref::expected(d, direction, in.data())),
          p.backend()};
}

// The calls that only read the context, between plans.
void look_around(const fftmux::context& ctx, const fftmux_desc& d) {
  EXPECT_EQ(ctx.query(d, "fftw").supported, 1u);
  EXPECT_FALSE(ctx.backends(true).empty());
  EXPECT_FALSE(has(ctx.notes(), "backend fftw ")); // fftw-mpi without MPI is noted, rightly
}

// A plan on "slow", which fails at execution: the message is this thread's.
void expect_failure(const fftmux::context& ctx) {
  fftmux_desc d = fftmux::make_desc({8}, FFTMUX_C2C, FFTMUX_F64);
  fftmux::plan p = ctx.make_plan(d, "slow");
  std::vector<double> in(16), out(16);
  EXPECT_EQ(fftmux_execute(p.get(), FFTMUX_FORWARD, in.data(), out.data()), FFTMUX_ERROR_BACKEND);
  EXPECT_STREQ(fftmux_last_error(),
               "fftmux_execute: slow: fixture slow fails at execute as configured");
}

int iterations() {
  const char* v = std::getenv("FFTMUX_STRESS_ITERATIONS");
  return v ? std::atoi(v) : 200;
}

// FFTW and the routing fixtures, "slow" failing at every execution.
struct Stress : fftmux::test::FixtureTest {
  std::string settings() {
    return config({{"fftw", "planner = \"estimate\""}, {"slow", "fail_at = \"execute\""}});
  }
  fftmux::context shared() { return open_with(plugins, settings()); }
};

// The ready backends that run every problem: FFTW, the fixture "fast" for
// what it accepts, and where they are built and a device (or Mesa's
// lavapipe) is there, the GPU backends. "slow" fails on purpose.
std::vector<std::string> ready(const fftmux::context& ctx) {
  std::vector<std::string> names;
  for (const auto& b : ctx.backends(true))
    if (b.state == FFTMUX_BACKEND_READY && std::string(b.name) != "slow")
      names.push_back(b.name);
  return names;
}

// Every 16th plan names a ready backend, in turn, the others are routed:
// a GPU backend on a CPU driver takes a good part of a second per plan.
const char* backend_for(const fftmux::context& ctx, const std::vector<std::string>& names,
                        const fftmux_desc& d, int i) {
  const std::string& name = names[size_t(i / 16) % names.size()];
  return i % 16 == 1 && ctx.query(d, name.c_str()).supported ? name.c_str() : nullptr;
}

TEST_F(Stress, EightThreadsCreateRunAndDestroyPlansOnOneContext) {
  fftmux::context ctx = shared();
  const std::vector<std::string> names = ready(ctx);
  std::atomic<int> wrong{0}, done{0};
  std::mutex ran_mutex;
  std::map<std::string, int> ran;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(uint64_t(t) + 1);
      for (int i = 0; i < iterations(); ++i) {
        fftmux_desc d = pick(rng);
        int direction = direction_of(d, rng);
        Outcome r =
            run_once(ctx, d, direction, rng() % 8 == 0, rng(), backend_for(ctx, names, d, i));
        if (!(r.error <= ref::error_bound(d)))
          ++wrong;
        {
          std::lock_guard<std::mutex> lock(ran_mutex);
          ++ran[r.backend];
        }
        if (i % 4 == 0)
          expect_failure(ctx);
        if (i % 8 == 0)
          look_around(ctx, d);
        ++done;
      }
    });
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(done.load(), 8 * iterations());
  for (const auto& [backend, plans] : ran)
    std::printf("stress: %d plans ran on %s\n", plans, backend.c_str());
  for (const std::string& name : names)
    EXPECT_GT(ran[name], 0) << name << " is ready but ran no plan";
}

// ---- contexts side by side ----

TEST_F(Stress, ContextsLiveAndDieInAnyOrder) {
  // Each context initializes the same plugin libraries; the one destroyed
  // first must take nothing the others still use (their host tables).
  std::vector<fftmux::context> all;
  for (int i = 0; i < 3; ++i)
    all.push_back(
        open(plugins, {{"fftw", "planner = \"measure\""}, {"slow", "fail_at = \"execute\""}}));
  std::vector<fftmux::plan> plans;
  for (auto& ctx : all)
    plans.push_back(ctx.make_plan(fftmux::make_desc({16}), "fftw"));
  plans.erase(plans.begin() + 2);
  all.erase(all.begin() + 2); // the last initialized goes first
  for (auto& ctx : all) {
    expect_failure(ctx);
    EXPECT_LE(
        run_once(ctx, fftmux::make_desc({16}, FFTMUX_C2C, FFTMUX_F64), FFTMUX_FORWARD, false, 5)
            .error,
        1e-12);
  }
  plans.clear();
  all.clear(); // FFTW's wisdom is written at shutdown, through the host
}

TEST_F(Stress, ContextsAreCreatedAndUsedOnManyThreadsAtOnce) {
  std::string config = settings();
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        fftmux::context ctx = open_with(plugins, config);
        std::mt19937_64 rng(uint64_t(100 * t + round));
        fftmux_desc d = pick(rng);
        int direction = direction_of(d, rng);
        if (!(run_once(ctx, d, direction, false, rng()).error <= ref::error_bound(d)))
          ++wrong;
        expect_failure(ctx);
      }
    });
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(wrong.load(), 0);
}

// ---- memory ----

// Bytes the program holds on the heap: the sanitizer's count under a
// sanitizer (its allocator replaces malloc), else glibc's.
size_t heap_in_use() {
#ifdef FFTMUX_SANITIZED
  return __sanitizer_get_current_allocated_bytes();
#else
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
#endif
}

size_t resident_bytes() {
  std::ifstream f("/proc/self/statm");
  size_t pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * size_t(sysconf(_SC_PAGESIZE));
}

// Runs cycle warm times, then measure times, and reports what the heap
// grew by over the measured ones.
template <class F> long long growth(const char* what, int warm, int measure, F&& cycle) {
  for (int i = 0; i < warm; ++i)
    cycle(i);
  size_t heap = heap_in_use(), rss = resident_bytes();
  for (int i = 0; i < measure; ++i)
    cycle(i);
  long long grew = (long long)heap_in_use() - (long long)heap;
  long long rss_grew = (long long)resident_bytes() - (long long)rss;
  std::printf("%s: %d cycles after %d to warm up: heap %+lld bytes (now %zu), resident %+lld "
              "bytes\n",
              what, measure, warm, grew, heap_in_use(), rss_grew);
  ::testing::Test::RecordProperty(std::string(what) + "_heap_growth_bytes", std::to_string(grew));
  return grew;
}

constexpr long long allowed_growth = 16 << 10; // allocator bookkeeping, nothing per cycle
#ifdef FFTMUX_SANITIZED
constexpr int plan_cycles = 2000; // the sanitizer counts every byte, and checks leaks at exit
#else
constexpr int plan_cycles = 10000;
#endif

TEST_F(Stress, PlanCyclesDoNotGrowTheHeap) {
  fftmux::context ctx = shared();
  std::mt19937_64 rng(7);
  std::vector<fftmux_desc> problems;
  for (int i = 0; i < 12; ++i)
    problems.push_back(pick(rng));
  std::vector<unsigned char> in(1 << 22), out(1 << 22);
  auto cycle = [&](int i) {
    const fftmux_desc& d = problems[size_t(i) % problems.size()];
    fftmux::plan p = ctx.make_plan(d);
    if (i % 10 == 0)
      p.execute(direction_of(d, rng), in.data(),
                d.flags & FFTMUX_IN_PLACE ? in.data() : out.data());
  };
  EXPECT_LE(growth("plan", 1000, plan_cycles, cycle), allowed_growth);
}

TEST_F(Stress, TwoHundredContextCyclesDoNotGrowTheHeap) {
  std::string config = settings();
  auto cycle = [&](int) {
    fftmux::context ctx = open_with(plugins, config);
    ctx.make_plan(fftmux::make_desc({32}, FFTMUX_R2C), "fftw");
    ctx.make_plan(fftmux::make_desc({32}), "fast");
  };
  EXPECT_LE(growth("context", 20, 200, cycle), allowed_growth);
}

} // namespace
