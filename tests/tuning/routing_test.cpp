// Routing before any tuning, and how autotune searches: fixture backends
// whose real speeds differ from what they claim (one a "software device"
// that reports a GPU's work but runs slowly) are ranked by device models
// measured on them; variants of the same code are timed once; the race
// keeps the fastest and skips what its estimate puts far behind.
#include <fixture_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

namespace {

namespace fs = std::filesystem;
using fftmux::test::caps;
using fftmux::test::gpu_twins;
using fftmux::test::has;
using fftmux::test::problem;
using fftmux::test::routing;
using fftmux::test::slurp;
using fftmux::test::tune;
using fftmux::test::twins;

struct Routing : fftmux::test::FixtureTest {
  Routing() { calibrate = true; }
  std::string models() const { return dir + "/calibration.toml"; }

  // "fast" runs in 1 ms but claims 50; "slow" claims 0.1 ms and a GPU's
  // work, and takes 20: the software rasterizer among GPUs.
  fftmux::context liars(const std::string& extra = "") {
    return open(routing,
                {{"fast", "delay_us = 1000\nclaim_us = 50000"},
                 {"slow", "delay_us = 20000\nclaim_us = 100\nwork = \"gpu\""}},
                extra);
  }
};

const fftmux_tune_record* record_of(const std::vector<fftmux_tune_record>& all,
                                    const std::string& variant) {
  auto it = std::find_if(all.begin(), all.end(),
                         [&](const fftmux_tune_record& r) { return r.variant == variant; });
  return it == all.end() ? nullptr : &*it;
}

TEST_F(Routing, DeviceModelsRankBackendsByTheirMeasuredSpeedNotTheirClaims) {
  {
    fftmux::context ctx = liars();
    fftmux::plan p = ctx.make_plan(problem(64));
    EXPECT_EQ(p.backend(), "fast") << p.explain();
    EXPECT_TRUE(has(p.explain(), "ordered by the device models")) << p.explain();
    EXPECT_TRUE(has(p.explain(), "calibrated")) << p.explain();
    EXPECT_TRUE(has(p.explain(), "device models:\n  fast: ")) << p.explain();
  }
  std::string saved = slurp(models());
  ASSERT_TRUE(has(saved, "backend = \"fast\"") && has(saved, "backend = \"slow\"")) << saved;
  {
    fftmux::context ctx = liars();
    EXPECT_EQ(ctx.make_plan(problem(32)).backend(), "fast");
    EXPECT_EQ(slurp(models()), saved) << "the models are measured once per hardware key";
  }
  fftmux::context trusting = liars("calibrate = false");
  fftmux::plan p = trusting.make_plan(problem(64));
  EXPECT_EQ(p.backend(), "slow") << "uncalibrated, the claims decide\n" << p.explain();
  EXPECT_TRUE(has(p.explain(), "its own estimate (calibrate = false")) << p.explain();
}

TEST_F(Routing, ADamagedModelFileIsSetAsideAndMeasuredAgain) {
  const std::string junk = "[[model]]\nbackend = 3\n\x01\x02 not toml";
  std::ofstream(models(), std::ios::binary) << junk;
  fftmux::context ctx = liars();
  EXPECT_EQ(ctx.make_plan(problem(64)).backend(), "fast");
  EXPECT_EQ(slurp(models() + ".corrupt"), junk);
  EXPECT_TRUE(has(slurp(models()), "backend = \"slow\""));
}

TEST_F(Routing, VariantsOfTheSameCodeAreTimedOnceAndListedAsOne) {
  fftmux::context ctx = open(twins, {{"twins", "delay_us = \"500, 500, 3000\""}});
  std::vector<fftmux_tune_record> records;
  ASSERT_EQ(tune(ctx, {problem(16)}, &records), FFTMUX_OK) << fftmux_last_error();
  const fftmux_tune_record *naive = record_of(records, "naive"),
                           *again = record_of(records, "naive-again");
  ASSERT_TRUE(naive && again);
  EXPECT_EQ(naive->ok, 1u) << naive->reason;
  EXPECT_STREQ(again->same_as, "naive");
  EXPECT_EQ(again->median_seconds, naive->median_seconds);
  EXPECT_TRUE(has(slurp(cache), "\"naive-again\" = ")) << "recorded under every name";
  EXPECT_TRUE(has(slurp(cache), "runner_up = \"other\"")) << "the runner-up is other code";
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.variant(), "naive") << p.explain();
  fftmux::plan fresh = ctx.make_plan(problem(8)); // untuned: the candidates as the backend answers
  EXPECT_TRUE(has(fresh.explain(), "(the same kernels as naive-again)")) << fresh.explain();
  EXPECT_FALSE(has(fresh.explain(), "twins/naive-again")) << fresh.explain();
  EXPECT_TRUE(has(fresh.explain(), "twins/other")) << "other code is its own candidate";
}

TEST_F(Routing, TheRaceKeepsTheFastestWhateverTheEstimatesSay) {
  // other is the fastest by far but claims to be the slowest.
  const std::string settings = "delay_us = \"4000, 4000, 500\"\nclaim_us = \"100, 100, 90000\"";
  for (uint32_t exhaustive : {0u, 1u}) {
    fftmux::context ctx = open(twins, {{"twins", settings}});
    std::vector<fftmux_tune_record> records;
    ASSERT_EQ(tune(ctx, {problem(16)}, &records,
                   [&](fftmux_tune_options& o) { o.exhaustive = exhaustive; }),
              FFTMUX_OK);
    const fftmux_tune_record* other = record_of(records, "other");
    ASSERT_TRUE(other);
    EXPECT_EQ(other->ok, 1u) << other->reason;
    EXPECT_EQ(ctx.make_plan(problem(16)).variant(), "other") << "exhaustive = " << exhaustive;
  }
}

TEST_F(Routing, TheRaceSkipsWhatItsCalibratedEstimatePutsFarBehind) {
  fftmux::context ctx = open(routing, {{"fast", "delay_us = 200"}, {"slow", "delay_us = 20000"}});
  std::vector<fftmux_tune_record> records;
  ASSERT_EQ(tune(ctx, {problem(16)}, &records), FFTMUX_OK);
  const fftmux_tune_record* slow = nullptr;
  for (const auto& r : records)
    if (std::string(r.backend) == "slow")
      slow = &r;
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->ok, 0u);
  EXPECT_TRUE(has(slow->reason, "skipped: its estimate")) << slow->reason;
  EXPECT_TRUE(has(slurp(cache), "skipped: its estimate")) << "recorded, so routing knows";
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "fast") << p.explain();
}

TEST_F(Routing, OnHostDataTheBusBoundsWhatAVariantCanGain) {
  // naive is estimated first; each copy over the "bus" takes 10 ms. Returns
  // other's record and the variant routing then picks (its explain on failure).
  auto race = [&](const std::string& delays) {
    fftmux::context ctx = open(
        twins, {{"twins", "bus_us = 10000\nclaim_us = \"100, 100, 200\"\ndelay_us = " + delays}});
    std::vector<fftmux_tune_record> records;
    EXPECT_EQ(tune(ctx, {problem(16)}, &records), FFTMUX_OK) << fftmux_last_error();
    const fftmux_tune_record* other = record_of(records, "other");
    EXPECT_TRUE(other);
    fftmux::plan p = ctx.make_plan(problem(16)); // destroyed before its context
    return std::make_tuple(other ? *other : fftmux_tune_record{}, p.variant(), p.explain());
  };
  // Kernels of 0.2 ms in a round trip of 20.2: other, 0.1 ms faster, is left out.
  auto [left, variant, explain] = race("\"200, 200, 100\"");
  EXPECT_EQ(left.ok, 0u);
  EXPECT_TRUE(has(left.reason, "skipped: the kernels take")) << left.reason;
  EXPECT_EQ(variant, "naive") << explain;
  // Kernels of 6 ms of 26: other, with kernels of 0.1 ms, is raced and wins.
  auto [raced, chosen, why] = race("\"6000, 6000, 100\"");
  EXPECT_EQ(raced.ok, 1u) << raced.reason;
  EXPECT_EQ(chosen, "other") << why;
}

// Device problems one after another: each next one's candidates are planned while the one
// before races (the tuner's plan_ahead); every problem is still checked and timed.
TEST_F(Routing, ConsecutiveDeviceProblemsAreTunedWithTheNextPlannedAhead) {
  fftmux::context c = open(gpu_twins, {});
  std::vector<fftmux_desc> problems;
  for (int64_t n : {16, 32, 64}) {
    problems.push_back(problem(n));
    problems.back().placement = FFTMUX_DEVICE;
  }
  std::vector<fftmux_tune_record> records;
  ASSERT_EQ(tune(c, problems, &records), FFTMUX_OK) << fftmux_last_error();
  std::set<int64_t> timed;
  for (const auto& r : records)
    if (r.ok && r.runs > 0 && !r.same_as[0]) {
      timed.insert(r.desc.n[0]);
      EXPECT_GT(r.plan_seconds, 0) << r.desc.n[0] << " " << r.variant;
      EXPECT_GT(r.check_seconds, 0) << r.desc.n[0] << " " << r.variant;
      EXPECT_GE(r.round_trip_error, 0) << r.desc.n[0] << " " << r.variant << ": checked";
    }
  EXPECT_EQ(timed, (std::set<int64_t>{16, 32, 64}));
}

TEST_F(Routing, OnHostDataAGpuRunsTheKernelsItsDeviceTwinChose) {
  // other's kernels are the fastest; each copy over the "bus" takes 1 ms.
  auto ctx = [&] {
    return open(gpu_twins, {{"gpu-twins", "bus_us = 1000\ndelay_us = \"3000, 3000, 500\""}});
  };
  fftmux_desc host = problem(16), device = problem(16);
  device.placement = FFTMUX_DEVICE;
  auto naive_on_host = [](const std::vector<fftmux_tune_record>& records) {
    for (const auto& r : records)
      if (r.desc.placement == FFTMUX_HOST && std::string(r.variant) == "naive")
        return r;
    ADD_FAILURE() << "no record of naive on host data";
    return fftmux_tune_record{};
  };
  const std::string why = "skipped: other ran gpu-twins's fastest kernels on device data";
  {
    fftmux::context c = ctx();
    std::vector<fftmux_tune_record> records;
    ASSERT_EQ(tune(c, {host, device}, &records), FFTMUX_OK) << fftmux_last_error();
    ASSERT_FALSE(records.empty());
    EXPECT_EQ(records.front().desc.placement, uint32_t(FFTMUX_DEVICE)) << "device problems first";
    fftmux_tune_record naive = naive_on_host(records);
    EXPECT_EQ(naive.ok, 0u);
    EXPECT_TRUE(has(naive.reason, why)) << naive.reason;
    fftmux::plan p = c.make_plan(host);
    EXPECT_EQ(p.variant(), "other") << p.explain();
  }
  // A later run finds the device twin in the cache.
  fftmux::context c = ctx();
  std::vector<fftmux_tune_record> records;
  ASSERT_EQ(tune(c, {host}, &records), FFTMUX_OK) << fftmux_last_error();
  fftmux_tune_record naive = naive_on_host(records);
  EXPECT_TRUE(has(naive.reason, why)) << naive.reason;
  // Without a device twin every variant races.
  fftmux::context fresh = open(gpu_twins, {{"gpu-twins", "bus_us = 1000"}});
  records.clear();
  ASSERT_EQ(tune(fresh, {problem(32)}, &records), FFTMUX_OK) << fftmux_last_error();
  for (const auto& r : records)
    EXPECT_FALSE(has(r.reason, "device data")) << r.variant << ": " << r.reason;
}

TEST_F(Routing, BadRaceSettingsAreRefusedByName) {
  fftmux::context ctx = liars();
  EXPECT_EQ(tune(ctx, {problem(16)}, nullptr, [](fftmux_tune_options& o) { o.skip_factor = 0.5; }),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "options->skip_factor")) << fftmux_last_error();
  EXPECT_EQ(tune(ctx, {problem(16)}, nullptr, [](fftmux_tune_options& o) { o.exhaustive = 2; }),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "options->exhaustive = 2")) << fftmux_last_error();
}

// A backend without buffers of its own is never routed a DEVICE plan, and
// forcing it there fails with the reason; HOST plans it still runs.
TEST_F(Routing, ABackendWithoutBuffersIsNotRoutedDevicePlans) {
  fftmux::context ctx = open(caps, {}, "calibrate = false");
  fftmux_desc d = problem(97);
  d.placement = FFTMUX_DEVICE;
  fftmux::plan p = ctx.make_plan(d);
  EXPECT_NE(p.backend(), "no-buffers") << p.explain();
  EXPECT_TRUE(has(p.explain(), "declined: backend no-buffers has no buffers of its own"))
      << p.explain();
  try {
    ctx.make_plan(d, "no-buffers");
    ADD_FAILURE() << "no-buffers planned a DEVICE problem";
  } catch (const fftmux::error& e) {
    EXPECT_EQ(e.status(), FFTMUX_ERROR_UNSUPPORTED) << e.what();
    EXPECT_TRUE(has(e.what(), "DEVICE placement needs them")) << e.what();
  }
  d.placement = FFTMUX_HOST;
  EXPECT_EQ(ctx.make_plan(d, "no-buffers").backend(), "no-buffers");
}

} // namespace
