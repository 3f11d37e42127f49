// Threads under the caller's control: a plan's own count reaches FFTW, an
// older plan options struct still plans, and the FFTW backend's default
// follows the environment.
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <string>

namespace {

using namespace fftmux;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

struct Env {
  const char* name;
  Env(const char* n, const char* value) : name(n) { setenv(n, value, 1); }
  ~Env() { unsetenv(name); }
};

// 65536 points in all: enough that FFTW's default would thread it too.
const fftmux_desc big = make_desc({256}, FFTMUX_C2C, FFTMUX_F64, 256);

plan make(const context& ctx, const fftmux_plan_options& o) {
  fftmux_plan p = nullptr;
  EXPECT_EQ(fftmux_plan_create(ctx.get(), &big, &o, &p), FFTMUX_OK) << fftmux_last_error();
  return plan(p);
}

void expect_right(plan& p) {
  auto in = ref::random_input(big, 11);
  std::vector<unsigned char> out(layout(big).out_bytes);
  p.forward(in.data(), out.data());
  double err = ref::relative_error(ref::read_side(big, false, out.data()),
                                   ref::expected(big, FFTMUX_FORWARD, in.data()));
  EXPECT_LE(err, ref::error_bound(big));
}

TEST(PlanThreads, FftwPlansOnTheThreadsAsked) {
  context ctx;
  for (uint32_t threads : {1u, 3u}) {
    plan p = ctx.make_plan(big, "fftw", nullptr, threads);
    std::string n = std::to_string(threads);
    EXPECT_TRUE(contains(p.explain(), "threads: " + n + " (" + n + " asked)\n")) << p.explain();
    expect_right(p);
  }
}

TEST(PlanThreads, TheDefaultIsTheBackendsAndSaysSo) {
  context ctx;
  plan p = ctx.make_plan(big, "fftw");
  std::string text = p.explain();
  EXPECT_TRUE(contains(text, "threads: ")) << text;
  EXPECT_FALSE(contains(text, "asked")) << text;
}

TEST(PlanThreads, AnOlderOptionsStructMeansTheDefault) {
  context ctx;
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  EXPECT_EQ(o.threads, 0u);
  o.backend = "fftw";
  o.threads = 5; // beyond the older struct_size: never read
  o.struct_size = offsetof(fftmux_plan_options, threads);
  plan p = make(ctx, o);
  EXPECT_FALSE(contains(p.explain(), "asked")) << p.explain();
  expect_right(p);
}

TEST(PlanThreads, BadOptionsAreRefusedWithTheRule) {
  context ctx;
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.threads = FFTMUX_MAX_THREADS + 1;
  fftmux_plan p = nullptr;
  EXPECT_EQ(fftmux_plan_create(ctx.get(), &big, &o, &p), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(fftmux_last_error(), "options->threads = 1025: must be at most 1024"))
      << fftmux_last_error();
  EXPECT_EQ(p, nullptr);
  o.threads = 0;
  o.struct_size = offsetof(fftmux_plan_options, variant);
  EXPECT_EQ(fftmux_plan_create(ctx.get(), &big, &o, &p), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(fftmux_last_error(), "fftmux_plan_options->struct_size"))
      << fftmux_last_error();
}

std::string fftw_devices() {
  context ctx;
  for (const fftmux_backend_info& b : ctx.backends())
    if (std::string(b.name) == "fftw")
      return b.devices;
  ADD_FAILURE() << "no fftw backend";
  return "";
}

TEST(DefaultThreads, TheEnvironmentSetsThem) {
  {
    Env omp("OMP_NUM_THREADS", "2");
    EXPECT_TRUE(contains(fftw_devices(), "2 threads (OMP_NUM_THREADS)")) << fftw_devices();
    Env mine("FFTMUX_NUM_THREADS", "3");
    EXPECT_TRUE(contains(fftw_devices(), "3 threads (FFTMUX_NUM_THREADS)")) << fftw_devices();
  }
  EXPECT_TRUE(contains(fftw_devices(), "threads (the CPU affinity)")) << fftw_devices();
}

TEST(DefaultThreads, InvalidValuesAreReportedAndIgnored) {
  Env mine("FFTMUX_NUM_THREADS", "lots");
  Env omp("OMP_NUM_THREADS", "2");
  std::string text = fftw_devices();
  EXPECT_TRUE(contains(text, "2 threads (OMP_NUM_THREADS; FFTMUX_NUM_THREADS = \"lots\" ignored: "
                             "not a whole number from 1 to 1024)"))
      << text;
  context ctx;
  plan p = ctx.make_plan(big, "fftw");
  expect_right(p);
}

} // namespace
