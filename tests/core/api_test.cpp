// The C API's contracts beyond the descriptor: handles, execution checks,
// buffers, explain, the backend override, errors per thread, concurrency.
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

using namespace fftmux;

std::string last() {
  return fftmux_last_error();
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

struct Api : ::testing::Test {
  fftmux_context ctx = nullptr;
  fftmux_plan plan = nullptr;
  fftmux_desc d = make_desc({16}, FFTMUX_C2C, FFTMUX_F64);
  void SetUp() override {
    ASSERT_EQ(fftmux_context_create(nullptr, &ctx), FFTMUX_OK) << last();
    ASSERT_EQ(fftmux_plan_create(ctx, &d, nullptr, &plan), FFTMUX_OK) << last();
  }
  void TearDown() override {
    fftmux_plan_destroy(plan);
    EXPECT_EQ(fftmux_context_destroy(ctx), FFTMUX_OK) << last();
  }
};

TEST_F(Api, NullHandlesAreRejected) {
  EXPECT_EQ(fftmux_context_create(nullptr, nullptr), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "fftmux_context_create: context is NULL");
  EXPECT_EQ(fftmux_plan_create(nullptr, &d, nullptr, &plan), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "fftmux_plan_create: context is NULL");
  EXPECT_EQ(fftmux_plan_create(ctx, &d, nullptr, nullptr), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fftmux_execute(nullptr, FFTMUX_FORWARD, &d, &d), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "fftmux_execute: plan is NULL");
  EXPECT_EQ(fftmux_plan_explain(nullptr, nullptr, 0, nullptr), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fftmux_backend_count(ctx, nullptr), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fftmux_plan_destroy(nullptr), FFTMUX_OK); // like free(NULL)
}

TEST_F(Api, ExecutionArgumentsAreChecked) {
  std::vector<double> a(64), b(64);
  EXPECT_EQ(fftmux_execute(plan, 0, a.data(), b.data()), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "direction = 0: must be FFTMUX_FORWARD (-1) or FFTMUX_INVERSE (1)"));
  EXPECT_EQ(fftmux_execute(plan, FFTMUX_FORWARD, nullptr, b.data()), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last(), "fftmux_execute: in is NULL");
  EXPECT_EQ(fftmux_execute(plan, FFTMUX_FORWARD, a.data(), nullptr), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fftmux_execute(plan, FFTMUX_FORWARD, a.data(), a.data()),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "create it with FFTMUX_IN_PLACE"));
  EXPECT_EQ(fftmux_execute(plan, FFTMUX_FORWARD, a.data(), a.data() + 2),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "in and out overlap"));
  EXPECT_EQ(fftmux_execute(plan, FFTMUX_FORWARD, a.data(), b.data()), FFTMUX_OK);
  EXPECT_EQ(last(), "") << "a success clears the message";
}

TEST_F(Api, KindsRunInTheirDirectionOnly) {
  fftmux_desc r = make_desc({16}, FFTMUX_R2C);
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx, &r, nullptr, &p), FFTMUX_OK);
  std::vector<float> in(16), out(18);
  EXPECT_EQ(fftmux_execute(p, FFTMUX_INVERSE, in.data(), out.data()),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "an R2C plan runs forward only"));
  fftmux_plan_destroy(p);
}

TEST_F(Api, InPlacePlansTakeOneArray) {
  fftmux_desc ip = d;
  ip.flags = FFTMUX_IN_PLACE;
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx, &ip, nullptr, &p), FFTMUX_OK);
  std::vector<double> a(32), b(32);
  EXPECT_EQ(fftmux_execute(p, FFTMUX_FORWARD, a.data(), b.data()), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "the plan is in-place"));
  EXPECT_EQ(fftmux_execute(p, FFTMUX_FORWARD, a.data(), nullptr), FFTMUX_OK);
  EXPECT_EQ(fftmux_execute(p, FFTMUX_FORWARD, a.data(), a.data()), FFTMUX_OK);
  fftmux_plan_destroy(p);
}

TEST_F(Api, ContextOutlivesItsPlans) {
  fftmux_context other = nullptr;
  ASSERT_EQ(fftmux_context_create(nullptr, &other), FFTMUX_OK);
  fftmux_plan p = nullptr;
  ASSERT_EQ(fftmux_plan_create(other, &d, nullptr, &p), FFTMUX_OK);
  EXPECT_EQ(fftmux_context_destroy(other), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "1 plans or buffers of this context are still alive"));
  fftmux_plan_destroy(p);
  EXPECT_EQ(fftmux_context_destroy(other), FFTMUX_OK);
}

TEST_F(Api, BuffersRoundTripAndRunPlans) {
  fftmux_layout l = layout(d);
  fftmux_buffer in = nullptr, out = nullptr;
  ASSERT_EQ(fftmux_buffer_create_for_plan(plan, l.in_bytes, &in), FFTMUX_OK) << last();
  ASSERT_EQ(fftmux_buffer_create(ctx, "fftw", l.out_bytes, &out), FFTMUX_OK) << last();
  auto data = ref::random_input(d, 3);
  ASSERT_EQ(fftmux_buffer_write(in, 0, data.data(), data.size()), FFTMUX_OK);
  EXPECT_EQ(fftmux_buffer_write(in, 8, data.data(), data.size()), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "exceeds the buffer size 256"));
  ASSERT_EQ(fftmux_execute_buffers(plan, FFTMUX_FORWARD, in, out), FFTMUX_OK) << last();
  ASSERT_EQ(fftmux_plan_synchronize(plan), FFTMUX_OK);
  std::vector<unsigned char> result(l.out_bytes);
  ASSERT_EQ(fftmux_buffer_read(out, 0, result.data(), result.size()), FFTMUX_OK);
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, result.data()),
                                ref::expected(d, FFTMUX_FORWARD, data.data())),
            ref::error_bound(d));
  EXPECT_EQ(fftmux_execute_buffers(plan, FFTMUX_FORWARD, in, in), FFTMUX_ERROR_INVALID_ARGUMENT);
  fftmux_buffer small = nullptr;
  ASSERT_EQ(fftmux_buffer_create(ctx, "fftw", 8, &small), FFTMUX_OK);
  EXPECT_EQ(fftmux_execute_buffers(plan, FFTMUX_FORWARD, small, out),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "in holds 8 bytes, the plan needs 256"));
  for (fftmux_buffer b : {in, out, small})
    EXPECT_EQ(fftmux_buffer_destroy(b), FFTMUX_OK);
}

TEST_F(Api, HostBuffersWrapCallerMemory) {
  std::vector<double> mine(32, 1.0);
  fftmux_buffer b = nullptr;
  ASSERT_EQ(fftmux_buffer_wrap(ctx, "fftw", reinterpret_cast<uint64_t>(mine.data()), 256, &b),
            FFTMUX_OK);
  uint64_t native = 0, size = 0;
  ASSERT_EQ(fftmux_buffer_native(b, &native), FFTMUX_OK);
  ASSERT_EQ(fftmux_buffer_size(b, &size), FFTMUX_OK);
  EXPECT_EQ(native, reinterpret_cast<uint64_t>(mine.data()));
  EXPECT_EQ(size, 256u);
  EXPECT_EQ(fftmux_buffer_destroy(b), FFTMUX_OK);
  EXPECT_EQ(mine[5], 1.0) << "wrapped memory stays the caller's";
  EXPECT_EQ(fftmux_buffer_create(ctx, "fftw", 0, &b), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fftmux_buffer_create(ctx, "nope", 8, &b), FFTMUX_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(last(), "no backend named 'nope' is installed"));
}

TEST_F(Api, ExplainSaysHowTheBackendWasChosen) {
  size_t needed = 0;
  ASSERT_EQ(fftmux_plan_explain(plan, nullptr, 0, &needed), FFTMUX_OK);
  std::string text(needed, '\0');
  ASSERT_EQ(fftmux_plan_explain(plan, text.data(), text.size(), &needed), FFTMUX_OK);
  EXPECT_TRUE(contains(text, "chosen: fftw/default")) << text;
  EXPECT_TRUE(contains(text, "c2c f64 16 batch 1")) << text;
  char tiny[8];
  ASSERT_EQ(fftmux_plan_explain(plan, tiny, sizeof tiny, nullptr), FFTMUX_OK);
  EXPECT_EQ(std::string(tiny), text.substr(0, 7)) << "truncated, terminated";
}

TEST_F(Api, BackendOptionAndEnvironmentForceTheChoice) {
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = "nope";
  fftmux_plan p = nullptr;
  EXPECT_EQ(fftmux_plan_create(ctx, &d, &o, &p), FFTMUX_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(last(), "no backend named 'nope'")) << last();
  o.backend = nullptr;
  o.variant = "default";
  EXPECT_EQ(fftmux_plan_create(ctx, &d, &o, &p), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(last(), "needs a backend named as well"));
  setenv("FFTMUX_BACKEND", "fftw", 1);
  o.variant = nullptr;
  ASSERT_EQ(fftmux_plan_create(ctx, &d, &o, &p), FFTMUX_OK);
  unsetenv("FFTMUX_BACKEND");
  size_t n = 0;
  fftmux_plan_explain(p, nullptr, 0, &n);
  std::string text(n, '\0');
  fftmux_plan_explain(p, text.data(), n, &n);
  EXPECT_TRUE(contains(text, "forced by FFTMUX_BACKEND=fftw")) << text;
  fftmux_plan_destroy(p);
}

TEST(Errors, MessagesArePerThread) {
  fftmux_desc bad;
  fftmux_desc_init(&bad);
  bad.rank = 0;
  fftmux_layout l;
  l.struct_size = sizeof l;
  ASSERT_NE(fftmux_desc_layout(&bad, &l), FFTMUX_OK);
  std::string other;
  std::thread([&] { other = fftmux_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_TRUE(contains(last(), "rank = 0"));
}

TEST(Errors, StatusAndStateNamesAndVersion) {
  EXPECT_STREQ(fftmux_status_name(FFTMUX_ERROR_NOT_FOUND), "not found");
  EXPECT_STREQ(fftmux_status_name(static_cast<fftmux_status>(99)), "unknown status");
  EXPECT_STREQ(fftmux_backend_state_name(FFTMUX_BACKEND_READY), "ready");
  EXPECT_STREQ(fftmux_backend_state_name(FFTMUX_BACKEND_SKIPPED), "skipped");
  EXPECT_STREQ(fftmux_backend_state_name(99), "unknown state");
  int major = -1, minor = -1, patch = -1;
  EXPECT_STREQ(fftmux_version(&major, &minor, &patch), FFTMUX_VERSION_STRING);
  EXPECT_EQ(major, FFTMUX_VERSION_MAJOR);
}

// Threads creating, running and destroying plans on one shared context,
// each checking its own results.
TEST(Concurrency, ThreadsShareOneContext) {
  context ctx;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        fftmux_desc d = make_desc({int64_t(8 + 4 * t + i % 5)}, FFTMUX_C2C,
                                  i % 2 ? FFTMUX_F64 : FFTMUX_F32, 1 + i % 3);
        plan p = ctx.make_plan(d, "fftw");
        auto in = ref::random_input(d, uint64_t(t * 100 + i));
        std::vector<unsigned char> out(layout(d).out_bytes);
        p.forward(in.data(), out.data());
        double err = ref::relative_error(ref::read_side(d, false, out.data()),
                                         ref::expected(d, FFTMUX_FORWARD, in.data()));
        if (!(err <= ref::error_bound(d)))
          ++failures;
      }
    });
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
}

} // namespace
