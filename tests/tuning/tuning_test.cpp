// Routing by measurement, with two fixture backends whose costs the config
// sets: autotune measures both, the cache routes to the faster, explain
// says why; damaged, foreign and concurrent caches are survived.
#include <fixture_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using fftmux::test::caps;
using fftmux::test::has;
using fftmux::test::problem;
using fftmux::test::routing;
using fftmux::test::slurp;
using fftmux::test::tune;

struct Tuning : fftmux::test::FixtureTest {
  Tuning() { calibrate = true; } // the race skips by calibrated estimates
  // A context on the routing fixtures, with per-backend settings as TOML lines.
  fftmux::context open(const std::string& fast, const std::string& slow,
                       const std::string& extra = "") {
    return FixtureTest::open(routing, {{"fast", fast}, {"slow", slow}}, extra);
  }
};

TEST_F(Tuning, TheCacheRoutesToTheFasterAndFollowsARetune) {
  {
    fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
    ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK) << fftmux_last_error();
    fftmux::plan p = ctx.make_plan(problem(16));
    EXPECT_EQ(p.backend(), "fast");
    EXPECT_TRUE(has(p.explain(), "cache hit: measured")) << p.explain();
    EXPECT_TRUE(has(p.explain(), "slow/naive")) << "every candidate is listed";
  }
  fftmux::context ctx = open("delay_us = 3000", "delay_us = 0");
  EXPECT_EQ(ctx.make_plan(problem(16)).backend(), "fast") << "the old measurement still holds";
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK) << fftmux_last_error();
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "slow") << p.explain();
}

// Exhaustive: in a race, slow (estimated far behind) would not be timed.
void exhaustive(fftmux_tune_options& o) {
  o.exhaustive = 1;
}

TEST_F(Tuning, RecordsCarryEveryPhase) {
  fftmux::context ctx = open("delay_us = 0", "delay_us = 500");
  std::vector<fftmux_tune_record> records;
  ASSERT_EQ(tune(ctx, {problem(16)}, &records, exhaustive), FFTMUX_OK);
  ASSERT_EQ(records.size(), 2u);
  for (const auto& r : records) {
    EXPECT_EQ(r.ok, 1u) << r.reason;
    EXPECT_GT(r.plan_seconds, 0);
    EXPECT_GT(r.check_seconds, 0);
    EXPECT_GT(r.upload_seconds, 0);
    EXPECT_GT(r.download_seconds, 0);
    EXPECT_GT(r.median_seconds, 0);
    EXPECT_LT(r.round_trip_error, 1e-12);
    EXPECT_EQ(r.problem_count, 1u);
  }
}

TEST_F(Tuning, OtherHardwareIsIgnoredButKept) {
  {
    fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
    ASSERT_EQ(tune(ctx, {problem(16)}, nullptr, exhaustive), FFTMUX_OK);
  }
  std::string text = slurp(cache);
  size_t at = text.find("hardware = \"fixture fast\"");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 25, "hardware = \"another GPU\"");
  std::ofstream(cache) << text;
  fftmux::context ctx =
      open("delay_us = 0", "delay_us = 3000", "preference = [\"slow\", \"fast\"]");
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "slow") << "only slow's measurement matches this hardware\n"
                                 << p.explain();
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  EXPECT_TRUE(has(slurp(cache), "hardware = \"another GPU\"")) << "entries of other hardware stay";
}

TEST_F(Tuning, ASizeBetweenMeasuredSizesIsInterpolated) {
  fftmux::context ctx = open("delay_us = 0", "delay_us = 2000");
  ASSERT_EQ(tune(ctx, {problem(8), problem(64)}), FFTMUX_OK);
  fftmux::plan p = ctx.make_plan(problem(24));
  EXPECT_EQ(p.backend(), "fast");
  EXPECT_TRUE(has(p.explain(), "interpolated between 8 and 64 points")) << p.explain();
}

// A size with a prime factor above 16 (Rader's or Bluestein's algorithm)
// is neither interpolated from smooth sizes nor they from it.
TEST_F(Tuning, SmoothAndRoughSizesAreInterpolatedApart) {
  fftmux::context ctx = open("delay_us = 0", "delay_us = 2000");
  ASSERT_EQ(tune(ctx, {problem(8), problem(17), problem(64)}), FFTMUX_OK);
  std::string smooth = ctx.make_plan(problem(32)).explain();
  EXPECT_TRUE(has(smooth, "interpolated between 8 and 64 points")) << smooth;
  std::string rough = ctx.make_plan(problem(19)).explain();
  EXPECT_TRUE(has(rough, "extrapolated from 17 points")) << rough;
}

TEST_F(Tuning, AForeignSchemaIsReportedAndLeftByteIdentical) {
  const std::string foreign = "[meta]\nschema = 2\nfftmux = \"9.0\"\n\n[[measurement]]\nx = 1\n";
  std::ofstream(cache) << foreign;
  fftmux::context ctx = open("delay_us = 0", "delay_us = 0");
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_TRUE(has(p.explain(), "no measurement applies")) << p.explain();
  EXPECT_TRUE(has(ctx.notes(), "has schema 2, this fftmux reads schema 1")) << ctx.notes();
  EXPECT_EQ(tune(ctx, {problem(16)}), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "left as it is")) << fftmux_last_error();
  EXPECT_EQ(slurp(cache), foreign);
}

TEST_F(Tuning, TruncatedAndGarbageCachesAreSurvived) {
  for (const std::string& bad :
       {std::string("[meta]\nschema = 1\n[[measurement]]\nproblem = \"c2c"),
        std::string("\x7f\x45\x4c\x46\x02\x01 binary junk \x00\xff", 20)}) {
    std::ofstream(cache, std::ios::binary) << bad;
    fftmux::context ctx = open("delay_us = 0", "delay_us = 0");
    EXPECT_NO_THROW(ctx.make_plan(problem(16)).explain());
    EXPECT_TRUE(has(ctx.notes(), "tuning cache ignored")) << ctx.notes();
    ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK) << fftmux_last_error();
    EXPECT_EQ(slurp(cache + ".corrupt"), bad) << "the damaged file is kept aside";
    EXPECT_TRUE(has(slurp(cache), "schema = 1"));
    EXPECT_TRUE(has(ctx.notes(), "moved to")) << ctx.notes();
  }
}

TEST_F(Tuning, ABackendFailingAtPlanCreationFallsBack) {
  fftmux::context ctx = open("fail_at = \"plan\"", "", "preference = [\"fast\", \"slow\"]");
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "slow");
  EXPECT_TRUE(has(p.explain(), "fast/naive")) << p.explain();
  EXPECT_TRUE(has(p.explain(), "accepted, then failed: fast: fixture fast fails at plan"))
      << p.explain();
}

// On device data the round trip runs on the backend's buffers: a wrong
// result there is caught as on host data, and one of the inverse direction
// alone, which the candidate's own plan runs in a C2C round trip.
TEST_F(Tuning, FailuresAndWrongResultsAreNegativeEntries) {
  for (uint32_t placement : {FFTMUX_HOST, FFTMUX_DEVICE})
    for (const char* fault : {"fail_at = \"execute\"", "wrong = true", "wrong = \"inverse\"",
                              "status = 1234\nfail_at = \"execute\""}) {
      fftmux::context ctx = open(fault, "delay_us = 2000", "preference = [\"fast\", \"slow\"]");
      fftmux_desc d = problem(16);
      d.placement = placement;
      std::vector<fftmux_tune_record> records;
      ASSERT_EQ(tune(ctx, {d}, &records), FFTMUX_OK);
      for (const auto& r : records)
        EXPECT_EQ(r.ok, std::string(r.backend) == "slow" ? 1u : 0u)
            << placement << " " << r.backend << ": " << r.reason;
      fftmux::plan p = ctx.make_plan(d);
      EXPECT_EQ(p.backend(), "slow") << fault << "\n" << p.explain();
      EXPECT_TRUE(has(p.explain(), "failed when tuned")) << p.explain();
      EXPECT_TRUE(has(slurp(cache), "failed = true"));
    }
}

TEST_F(Tuning, ConcurrentWritersLoseNoEntry) {
  std::string cli = std::string(FFTMUX_CLI) +
                    " autotune --backends fast --repeat 2 --warmup 0 --batch 2 --shape ";
  std::string script = "export FFTMUX_PLUGIN_PATH=" + routing + "; ";
  for (const char* sizes : {"2 3 4 5 6 7 8 9 10 11", "12 13 14 15 16 17 18 19 20 21"})
    script +=
        "(for n in " + std::string(sizes) + "; do " + cli + "$n >/dev/null || exit 1; done) & ";
  script += "wait";
  ASSERT_EQ(std::system(("bash -c '" + script + "'").c_str()), 0);
  std::string text = slurp(cache);
  int entries = 0;
  for (size_t at = text.find("[[measurement]]"); at != std::string::npos;
       at = text.find("[[measurement]]", at + 1))
    ++entries;
  EXPECT_EQ(entries, 20) << text;
}

TEST_F(Tuning, ASystemCacheServesUnderTheUsers) {
  std::string system = dir + "/system.toml";
  {
    fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
    ASSERT_EQ(tune(ctx, {problem(16), problem(32)}), FFTMUX_OK);
  }
  fs::rename(cache, system);
  const std::string shipped = slurp(system);
  setenv("FFTMUX_SYSTEM_TUNING_CACHE", system.c_str(), 1);
  {
    fftmux::context ctx = open("delay_us = 3000", "delay_us = 0");
    fftmux::plan p = ctx.make_plan(problem(16));
    EXPECT_EQ(p.backend(), "fast") << "the system's measurement routes\n" << p.explain();
    ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
    EXPECT_EQ(ctx.make_plan(problem(16)).backend(), "slow") << "the user's measurement wins";
    EXPECT_EQ(ctx.make_plan(problem(32)).backend(), "fast") << "the system's still serves";
  }
  unsetenv("FFTMUX_SYSTEM_TUNING_CACHE");
  EXPECT_EQ(slurp(system), shipped) << "the system cache is only read";
}

TEST(TuningProblems, SetsCoverWhatUsersRun) {
  size_t full = 0, quick = 0;
  ASSERT_EQ(fftmux_autotune_problems(FFTMUX_TUNE_DEFAULT, nullptr, 0, &full), FFTMUX_OK);
  ASSERT_EQ(fftmux_autotune_problems(FFTMUX_TUNE_QUICK, nullptr, 0, &quick), FFTMUX_OK);
  EXPECT_GT(full, 200u);
  EXPECT_LT(quick, 30u);
  std::vector<fftmux_desc> all(full);
  ASSERT_EQ(fftmux_autotune_problems(FFTMUX_TUNE_DEFAULT, all.data(), full, &full), FFTMUX_OK);
  bool r2c = false, three_d = false, device = false, f64 = false, huge = false;
  for (const auto& d : all) {
    r2c |= d.kind == FFTMUX_R2C;
    three_d |= d.rank == 3 && d.n[0] == 512;
    device |= d.placement == FFTMUX_DEVICE;
    f64 |= d.precision == FFTMUX_F64;
    huge |= d.rank == 1 && d.n[0] == (1 << 24);
  }
  EXPECT_TRUE(r2c && three_d && device && f64 && huge);
  EXPECT_EQ(fftmux_autotune_problems(7, nullptr, 0, &full), FFTMUX_ERROR_INVALID_ARGUMENT);
}

// Tunes only the backend named.
std::function<void(fftmux_tune_options&)> only(const char* backend) {
  return [backend](fftmux_tune_options& o) { o.backends = backend; };
}

// A backend without buffers of its own is declined DEVICE problems: autotune
// records nothing for it, and an entry an older cache holds is not followed.
TEST_F(Tuning, ABackendWithoutBuffersGetsNoDeviceEntries) {
  fftmux_desc d = problem(16);
  d.placement = FFTMUX_DEVICE;
  {
    fftmux::context ctx = FixtureTest::open(caps, {}, "calibrate = false");
    std::vector<fftmux_tune_record> records;
    ASSERT_EQ(tune(ctx, {d}, &records, only("no-buffers")), FFTMUX_OK) << fftmux_last_error();
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].ok, 0u);
    EXPECT_TRUE(has(records[0].reason, "declined: backend no-buffers has no buffers of its own"))
        << records[0].reason;
    EXPECT_FALSE(has(slurp(cache), "no-buffers")) << slurp(cache);
    ASSERT_EQ(tune(ctx, {d}, nullptr, only("trusting")), FFTMUX_OK) << fftmux_last_error();
  }
  // trusting's measurement under no-buffers' name, as an older fftmux wrote them.
  std::string text = slurp(cache);
  for (const std::string field : {"backend = \"", "hardware = \"fixture "}) {
    size_t at = text.find(field + "trusting\"");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at + field.size(), 8, "no-buffers");
  }
  std::ofstream(cache) << text;
  fftmux::context ctx = FixtureTest::open(caps, {}, "calibrate = false");
  fftmux::plan p = ctx.make_plan(d);
  EXPECT_NE(p.backend(), "no-buffers") << p.explain();
  EXPECT_FALSE(has(p.explain(), "cache hit")) << p.explain();
  EXPECT_TRUE(has(p.explain(), "declined: backend no-buffers has no buffers of its own"))
      << p.explain();
}

} // namespace
