// Faults: a plugin failing at each step or returning garbage, a
// backend out of memory, a tuning cache that cannot be written, is
// read-only, is deleted under the context or is written by several
// writers at once, malformed settings. Each ends in a clear status and
// message, the context keeps working, and no file is lost or half-written.
// Faults tested elsewhere, not repeated here: broken plugin libraries
// (tests/plugins, Discovery.*), fallback after a failed plan creation,
// failed and wrong tuning runs, damaged and foreign caches, two autotune
// processes (tests/tuning, Tuning.*), a malformed config file
// (Discovery.AnExplicitMalformedConfigFailsClearly,
// Discovery.AMalformedDefaultConfigIsNotedAndSurvived).
#include <fixture_test.hpp>
#include <reference.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace {

namespace fs = std::filesystem;
namespace ref = fftmux::ref;
using fftmux::test::has;
using fftmux::test::problem;
using fftmux::test::routing;
using fftmux::test::slurp;
using fftmux::test::tune;

struct Failure {
  fftmux_status status = FFTMUX_OK;
  std::string message;
};

// The status and message of a call through the C++ wrapper.
template <class F> Failure failure_of(F&& f) {
  try {
    f();
  } catch (const fftmux::error& e) {
    return {e.status(), e.what()};
  }
  return {};
}

// Plans and runs a transform on backend, checked against the reference.
void expect_runs(const fftmux::context& ctx, const char* backend, int64_t n = 16) {
  fftmux_desc d = problem(n);
  fftmux::plan p = ctx.make_plan(d, backend);
  auto in = ref::random_input(d, 3);
  std::vector<unsigned char> out(fftmux::layout(d).out_bytes);
  p.forward(in.data(), out.data());
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, out.data()),
                                ref::expected(d, FFTMUX_FORWARD, in.data())),
            ref::error_bound(d))
      << backend;
}

struct Faults : fftmux::test::FixtureTest {
  // fast misbehaves as settings say; slow works, and auto plans try fast first.
  std::string fast_config(const std::string& settings) {
    return config({{"fast", settings}}, "preference = [\"fast\", \"slow\"]");
  }
  fftmux::context with_fast(const std::string& settings) {
    return open_with(routing, fast_config(settings));
  }
};

// ---- plugins ----

TEST_F(Faults, APluginFailingAtInitIsUnavailableAndAvoided) {
  for (const char* status : {"", "status = 1234"}) {
    fftmux::context ctx = with_fast(std::string("fail_at = \"init\"\n") + status);
    Failure f = failure_of([&] { ctx.make_plan(problem(16), "fast"); });
    EXPECT_EQ(f.status, FFTMUX_ERROR_UNAVAILABLE) << f.message;
    EXPECT_TRUE(has(f.message, "fast: unavailable: fixture fast fails at init as configured"))
        << f.message;
    EXPECT_TRUE(has(ctx.notes(), "backend fast unavailable: fixture fast fails at init"))
        << ctx.notes();
    EXPECT_EQ(ctx.make_plan(problem(16)).backend(), "slow");
    expect_runs(ctx, nullptr);
  }
}

TEST_F(Faults, APluginFailingToAnswerAQueryIsPassedOver) {
  for (const char* status : {"", "status = 1234"}) {
    fftmux::context ctx = with_fast(std::string("fail_at = \"query\"\n") + status);
    Failure f = failure_of([&] { ctx.make_plan(problem(16), "fast"); });
    EXPECT_EQ(f.status, FFTMUX_ERROR_UNSUPPORTED) << f.message;
    EXPECT_TRUE(has(f.message, "fast/naive: query failed: fixture fast fails at query"))
        << f.message;
    expect_runs(ctx, nullptr);
  }
}

TEST_F(Faults, APluginFailingAtPlanCreationFailsThatPlanOnly) {
  // The fallback to another backend is Tuning.ABackendFailingAtPlanCreationFallsBack.
  const std::pair<const char*, const char*> cases[] = {
      {"", "fast: fixture fast fails at plan as configured"},
      {"status = 1234", "fast: plan_create returned the unknown status 1234 (fixture fast fails"},
      {"status = -7", "fast: plan_create returned the unknown status -7 (fixture fast fails"}};
  for (auto [status, message] : cases) {
    fftmux::context ctx = with_fast(std::string("fail_at = \"plan\"\n") + status);
    Failure f = failure_of([&] { ctx.make_plan(problem(16), "fast"); });
    EXPECT_EQ(f.status, FFTMUX_ERROR_BACKEND) << f.message;
    EXPECT_TRUE(has(f.message, "every capable backend failed")) << f.message;
    EXPECT_TRUE(has(f.message, message)) << f.message;
    expect_runs(ctx, nullptr);
  }
}

TEST_F(Faults, APluginFailingAtExecutionLeavesThePlanUsable) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "fftmux_execute: fast: fixture fast fails at execute as configured"},
      {"status = 1234", "fftmux_execute: fast: execute returned the unknown status 1234"},
      {"status = 6", "fftmux_execute: fast: fixture fast fails at execute as configured"}};
  for (auto [status, message] : cases) {
    fftmux::context ctx = with_fast(std::string("fail_at = \"execute\"\n") + status);
    fftmux::plan p = ctx.make_plan(problem(16), "fast");
    std::vector<unsigned char> in(fftmux::layout(problem(16)).in_bytes), out(in.size());
    for (int twice = 0; twice < 2; ++twice) {
      Failure f = failure_of([&] { p.forward(in.data(), out.data()); });
      EXPECT_EQ(f.status, std::string(status) == "status = 6" ? FFTMUX_ERROR_OUT_OF_MEMORY
                                                              : FFTMUX_ERROR_BACKEND);
      EXPECT_TRUE(has(f.message, message)) << f.message;
    }
    fftmux::buffer a = p.make_buffer(in.size()), b = p.make_buffer(out.size());
    Failure f = failure_of([&] { p.execute(FFTMUX_FORWARD, a, b); });
    EXPECT_TRUE(has(f.message, "fftmux_execute_buffers: fast: ")) << f.message;
    EXPECT_TRUE(has(p.explain(), "chosen: fast/naive"));
    expect_runs(ctx, "slow");
  }
}

// ---- out of memory ----

TEST_F(Faults, ABackendOutOfMemoryRefusesBuffersOnly) {
  fftmux::context ctx = with_fast("fail_at = \"alloc\"");
  Failure f = failure_of([&] { ctx.make_buffer("fast", 1024); });
  EXPECT_EQ(f.status, FFTMUX_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(f.message, "fftmux_buffer_create: fast: fixture fast fails at alloc as configured");
  expect_runs(ctx, "fast");
  EXPECT_NO_THROW(ctx.make_buffer("slow", 1024));
}

TEST_F(Faults, PlansThatFindNoMemoryAreReportedAsSuchOrPlacedElsewhere) {
  fftmux::context ctx = with_fast("fail_at = \"plan\"\nstatus = 6");
  Failure f = failure_of([&] { ctx.make_plan(problem(16), "fast"); });
  EXPECT_EQ(f.status, FFTMUX_ERROR_OUT_OF_MEMORY) << f.message;
  EXPECT_TRUE(has(f.message, "fast/naive: fast: fixture fast fails at plan")) << f.message;
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "slow");
  EXPECT_TRUE(has(p.explain(), "accepted, then failed: fast: fixture fast fails at plan"))
      << p.explain();
}

// ---- the tuning cache ----

// Every file in the test's folder, and its contents.
std::map<std::string, std::string> files(const std::string& dir) {
  std::map<std::string, std::string> all;
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.is_regular_file())
      all[f.path().filename().string()] = slurp(f.path().string());
  return all;
}

TEST_F(Faults, AnUnwritableCacheFailsAutotuneClearlyAndChangesNothing) {
  std::ofstream(dir + "/file") << "not a folder\n";
  std::string unwritable = dir + "/file/sub/tuning.toml";
  fftmux::test::ScopedEnv env("FFTMUX_TUNING_CACHE", unwritable);
  fftmux::context ctx = with_fast("");
  auto before = files(dir);
  std::vector<fftmux_tune_record> records;
  EXPECT_EQ(tune(ctx, {problem(16)}, &records), FFTMUX_ERROR_IO);
  EXPECT_TRUE(has(fftmux_last_error(), "the tuning cache " + unwritable + " was not written"))
      << fftmux_last_error();
  EXPECT_TRUE(has(fftmux_last_error(), "Not a directory")) << fftmux_last_error();
  ASSERT_EQ(records.size(), 2u) << "the measurements were still reported";
  EXPECT_EQ(records[0].ok, 1u) << records[0].reason;
  EXPECT_EQ(files(dir), before);
  expect_runs(ctx, nullptr);
}

TEST_F(Faults, AReadOnlyCacheIsReadButNeverReplaced) {
  fftmux::context ctx = with_fast("delay_us = 0");
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK) << fftmux_last_error();
  ASSERT_EQ(chmod(cache.c_str(), 0444), 0);
  std::string before = slurp(cache);
  EXPECT_EQ(tune(ctx, {problem(32)}), FFTMUX_ERROR_IO);
  EXPECT_TRUE(has(fftmux_last_error(), cache + " was not written: it is read-only (mode 0444)"))
      << fftmux_last_error();
  EXPECT_EQ(slurp(cache), before);
  struct stat st;
  ASSERT_EQ(stat(cache.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0444u);
  fftmux::context again = with_fast("delay_us = 0");
  EXPECT_TRUE(has(again.make_plan(problem(16)).explain(), "cache hit")) << "still read";
  chmod(cache.c_str(), 0644);
}

TEST_F(Faults, ACacheDeletedUnderTheContextIsWrittenAfresh) {
  fftmux::context ctx = with_fast("delay_us = 0");
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  EXPECT_TRUE(has(ctx.make_plan(problem(16)).explain(), "cache hit")) << "read";
  fs::remove(cache);
  ASSERT_EQ(tune(ctx, {problem(32)}), FFTMUX_OK) << fftmux_last_error();
  std::string text = slurp(cache);
  EXPECT_TRUE(has(text, "c2c f64 32 batch 4")) << text;
  EXPECT_FALSE(has(text, "c2c f64 16 batch 4")) << "deleted entries are not brought back";
  fftmux::context fresh = with_fast("delay_us = 0");
  EXPECT_TRUE(has(fresh.make_plan(problem(32)).explain(), "cache hit"));
  for (const auto& [name, contents] : files(dir))
    EXPECT_FALSE(has(name, ".tmp")) << name << " left behind";
}

TEST_F(Faults, ADamagedIndexIsRebuiltFromTheCache) {
  fftmux::test::ScopedEnv home("XDG_CACHE_HOME", dir); // the index folder is the test's own
  {
    fftmux::context ctx = with_fast("delay_us = 0");
    ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  }
  auto index = fs::directory_iterator(dir + "/fftmux/index")->path().string();
  std::string good = slurp(index);
  for (std::string bad : {good.substr(0, good.size() / 2), std::string(good.size(), 'x')}) {
    std::ofstream(index, std::ios::binary) << bad;
    fftmux::context ctx = with_fast("delay_us = 0");
    EXPECT_TRUE(has(ctx.make_plan(problem(16)).explain(), "cache hit"));
    EXPECT_EQ(slurp(index), good) << "rewritten from the TOML";
  }
}

TEST_F(Faults, ThreadsWritingOneCacheLoseNoEntry) {
  // Processes: Tuning.ConcurrentWritersLoseNoEntry. Threads of one process
  // take the same file lock through descriptors of their own.
  std::string settings = fast_config("delay_us = 0");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      fftmux::context ctx = open_with(routing, settings);
      for (int i = 0; i < 3; ++i)
        EXPECT_EQ(tune(ctx, {problem(2 + 3 * t + i)}), FFTMUX_OK) << fftmux_last_error();
    });
  for (auto& t : threads)
    t.join();
  std::string text = slurp(cache);
  for (int n = 2; n < 14; ++n)
    EXPECT_TRUE(has(text, "problem = \"c2c f64 " + std::to_string(n) + " batch 4")) << n;
}

TEST_F(Faults, ATemporaryFileOfACrashedWriterIsCleanedUp) {
  std::ofstream(cache + ".tmp.999999.0") << "[meta]\nschema = 1\n[[measure";
  fftmux::context ctx = with_fast("delay_us = 0");
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  EXPECT_FALSE(fs::exists(cache + ".tmp.999999.0"));
  EXPECT_TRUE(has(slurp(cache), "c2c f64 16 batch 4"));
}

// ---- settings ----

TEST_F(Faults, MalformedBackendSettingsMakeThatBackendUnavailable) {
  const std::pair<const char*, const char*> cases[] = {
      {"threads = \"many\"", "[backends.fftw] threads = \"many\": not a whole number"},
      {"threads = 0", "[backends.fftw] threads must be between 1 and 1024"},
      {"planner = \"fast\"", "[backends.fftw] planner = \"fast\": use estimate, measure"},
      {"thread_threshold = 1.5", "[backends.fftw] thread_threshold = \"1.5\": not a whole number"},
      {"plan_seconds = 0", "[backends.fftw] plan_seconds = \"0\": use a number of seconds"}};
  for (auto [settings, reason] : cases) {
    fftmux::context ctx = open(std::string(FFTW_PLUGIN_DIR) + ":" + routing,
                               {{"fftw", settings}, {"slow", "delay_us = \"soon\""}});
    std::map<std::string, fftmux_backend_info> all;
    for (const auto& b : ctx.backends(true))
      all[b.name] = b;
    EXPECT_EQ(all["fftw"].state, uint32_t(FFTMUX_BACKEND_UNAVAILABLE)) << settings;
    EXPECT_TRUE(has(all["fftw"].reason, reason)) << all["fftw"].reason;
    EXPECT_EQ(all["slow"].state, uint32_t(FFTMUX_BACKEND_UNAVAILABLE));
    EXPECT_TRUE(has(all["slow"].reason, "delay_us = \"soon\" is not a number"))
        << all["slow"].reason;
    expect_runs(ctx, "fast");
  }
}

} // namespace
