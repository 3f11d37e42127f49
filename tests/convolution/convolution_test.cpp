// fftmux_convolution_*: every mode, convolution and correlation, real and
// complex, F32/F64, rank 1-3, batches and several filters, against a direct
// sum in double; the argument checks; a few cases on the GPU backends'
// software devices (lavapipe, llvmpipe), on host memory and on their buffers
// (the product fused into the forward plan).
#include "reference.hpp"

#include <fftmux/fftmux.h>
#include <fftmux/fftmux.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

using namespace conv_ref;

namespace {

fftmux_context& shared_context() {
  static fftmux_context ctx = nullptr;
  return ctx;
}

fftmux_context context() {
  fftmux_context& ctx = shared_context();
  if (!ctx)
    fftmux_context_create(nullptr, &ctx);
  return ctx;
}

// Closes the context at the end, with its devices: a driver's memory left
// behind at exit reads as a leak under LeakSanitizer.
struct Cleanup : ::testing::Environment {
  void TearDown() override {
    fftmux_context_destroy(shared_context());
    shared_context() = nullptr;
  }
};
const auto* const cleanup = ::testing::AddGlobalTestEnvironment(new Cleanup);

// "" when backend runs here, else why not.
std::string unavailable(const char* backend) {
  uint32_t count = 0;
  fftmux_backend_count(context(), &count);
  for (uint32_t i = 0; i < count; ++i) {
    fftmux_backend_info b;
    fftmux_backend_info_init(&b);
    fftmux_backend_get(context(), i, FFTMUX_PROBE, &b);
    if (std::string(b.name) == backend)
      return b.state == FFTMUX_BACKEND_READY ? "" : std::string(backend) + ": " + b.reason;
  }
  return std::string(backend) + " is not installed";
}

// The sizes fftmux_convolution_sizes gives (first axis first), aligned to the last axis.
std::pair<Dims, Dims> sizes(const fftmux_conv_desc& d) {
  int64_t o[3], L[3];
  EXPECT_EQ(fftmux_convolution_sizes(&d, o, L), FFTMUX_OK) << fftmux_last_error();
  Dims out{1, 1, 1}, fft{1, 1, 1};
  for (uint32_t a = 0; a < d.rank; ++a) {
    out[3 - d.rank + a] = o[a];
    fft[3 - d.rank + a] = L[a];
  }
  return {out, fft};
}

struct Case {
  uint32_t rank;
  Dims n, m;
  int64_t batch, filters;
  uint32_t kind, precision, mode, correlate;
  bool device = false; // FFTMUX_DEVICE: run on buffers of the backend
};

fftmux_conv_desc desc_of(const Case& c) {
  fftmux_conv_desc d;
  fftmux_conv_desc_init(&d);
  d.rank = c.rank;
  for (uint32_t a = 0; a < c.rank; ++a) { // the case's sizes end at [2]
    d.n[a] = c.n[3 - c.rank + a];
    d.m[a] = c.m[3 - c.rank + a];
  }
  d.batch = c.batch;
  d.filters = c.filters;
  d.kind = c.kind;
  d.precision = c.precision;
  d.mode = c.mode;
  d.correlate = c.correlate;
  d.placement = c.device ? FFTMUX_DEVICE : FFTMUX_HOST;
  return d;
}

std::vector<cd> random_values(int64_t count, bool real, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cd> v(count);
  for (cd& x : v)
    x = real ? cd(u(rng), 0) : cd(u(rng), u(rng));
  return v;
}

// Values in the descriptor's element type: real or interleaved complex, F32 or F64.
template <class T> std::vector<T> typed(const std::vector<cd>& v, bool real) {
  std::vector<T> out;
  for (const cd& x : v) {
    out.push_back(T(x.real()));
    if (!real)
      out.push_back(T(x.imag()));
  }
  return out;
}

template <class T> std::vector<cd> untyped(const std::vector<T>& v, bool real) {
  std::vector<cd> out;
  for (size_t i = 0; i < v.size(); i += real ? 1 : 2)
    out.push_back(real ? cd(v[i], 0) : cd(v[i], v[i + 1]));
  return out;
}

// A DEVICE convolution from xs into ys through buffers of its backend.
template <class T>
void on_buffers(fftmux_convolution conv, fftmux_context ctx, const std::vector<T>& xs,
                std::vector<T>& ys) {
  const char* backend = nullptr;
  ASSERT_EQ(fftmux_convolution_backend(conv, &backend, nullptr), FFTMUX_OK) << fftmux_last_error();
  fftmux_buffer x = nullptr, y = nullptr;
  uint64_t xb = xs.size() * sizeof(T), yb = ys.size() * sizeof(T);
  ASSERT_EQ(fftmux_buffer_create(ctx, backend, xb, &x), FFTMUX_OK) << fftmux_last_error();
  ASSERT_EQ(fftmux_buffer_create(ctx, backend, yb, &y), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(fftmux_buffer_write(x, 0, xs.data(), xb), FFTMUX_OK);
  EXPECT_EQ(fftmux_convolution_execute(conv, xs.data(), ys.data()), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("fftmux_convolution_execute_buffers"),
            std::string::npos);
  EXPECT_EQ(fftmux_convolution_execute_buffers(conv, x, y), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(fftmux_buffer_read(y, 0, ys.data(), yb), FFTMUX_OK);
  fftmux_buffer_destroy(x);
  fftmux_buffer_destroy(y);
}

// Runs the case on backend and returns its outputs as complex doubles.
template <class T>
std::vector<cd> run(const Case& c, const char* backend, const std::vector<cd>& x,
                    const std::vector<cd>& h, uint32_t layout, const void* spectrum = nullptr,
                    fftmux_context ctx = nullptr) {
  bool real = c.kind == FFTMUX_R2C;
  fftmux_conv_desc d = desc_of(c);
  Dims out = sizes(d).first;
  std::vector<T> xs = typed<T>(x, real), hs = typed<T>(h, real);
  std::vector<T> ys(c.batch * c.filters * out[0] * out[1] * out[2] * (real ? 1 : 2));
  fftmux_convolution_options o;
  fftmux_convolution_options_init(&o);
  o.backend = backend;
  fftmux_convolution conv = nullptr;
  const void* filter = layout == FFTMUX_FILTER_SPECTRUM ? spectrum : hs.data();
  EXPECT_EQ(fftmux_convolution_create(ctx ? ctx : context(), &d, filter, layout, &o, &conv),
            FFTMUX_OK)
      << fftmux_last_error();
  if (c.device)
    on_buffers(conv, ctx ? ctx : context(), xs, ys);
  else
    EXPECT_EQ(fftmux_convolution_execute(conv, xs.data(), ys.data()), FFTMUX_OK)
        << fftmux_last_error();
  fftmux_convolution_destroy(conv);
  return untyped(ys, real);
}

// Every (signal, filter) pair against the direct sum; the bound grows with log2 of the FFT size.
// ctx: the shared context when null.
void check(const Case& c, const char* backend, fftmux_context ctx = nullptr) {
  std::mt19937 rng(c.n[0] * 131 + c.m[0] * 7 + c.mode);
  bool real = c.kind == FFTMUX_R2C;
  std::vector<cd> x = random_values(c.batch * points(c.n), real, rng);
  std::vector<cd> h = random_values(c.filters * points(c.m), real, rng);
  bool f64 = c.precision == FFTMUX_F64;
  std::vector<cd> y = f64 ? run<double>(c, backend, x, h, FFTMUX_FILTER_SIGNAL, nullptr, ctx)
                          : run<float>(c, backend, x, h, FFTMUX_FILTER_SIGNAL, nullptr, ctx);
  fftmux_conv_desc d = desc_of(c);
  auto [out, L] = sizes(d);
  double eps = f64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  double tol = 4 * eps * (std::log2(double(L[0] * L[1] * L[2])) + 1);
  ASSERT_EQ(y.size(), size_t(c.batch * c.filters * points(out)));
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t f = 0; f < c.filters; ++f) {
      std::vector<cd> xb(x.begin() + b * points(c.n), x.begin() + (b + 1) * points(c.n));
      std::vector<cd> hf(h.begin() + f * points(c.m), h.begin() + (f + 1) * points(c.m));
      double scale = 0, hx = 0;
      for (cd v : xb)
        scale += std::norm(v);
      for (cd v : hf)
        hx += std::norm(v);
      scale = std::sqrt(scale * hx); // Cauchy-Schwarz: no output exceeds it
      std::vector<cd> ref = direct(xb, c.n, hf, c.m, out, c.mode, c.correlate);
      double worst = 0;
      for (int64_t i = 0; i < points(out); ++i)
        worst = std::max(worst, std::abs(y[(b * c.filters + f) * points(out) + i] - ref[i]));
      EXPECT_LE(worst / scale, tol) << "signal " << b << ", filter " << f;
    }
}

constexpr uint32_t C = FFTMUX_C2C, R = FFTMUX_R2C, S = FFTMUX_F32, D = FFTMUX_F64;
constexpr uint32_t FULL = FFTMUX_CONV_FULL, SAME = FFTMUX_CONV_SAME, VALID = FFTMUX_CONV_VALID,
                   CIRC = FFTMUX_CONV_CIRCULAR;

// Odd, prime and even sizes; every mode both ways; batches and several filters.
const Case cases[] = {
    {1, {1, 1, 17}, {1, 1, 5}, 1, 1, R, D, FULL, 0},
    {1, {1, 1, 17}, {1, 1, 5}, 1, 1, R, D, SAME, 0},
    {1, {1, 1, 17}, {1, 1, 5}, 1, 1, R, D, VALID, 0},
    {1, {1, 1, 17}, {1, 1, 5}, 1, 1, R, D, CIRC, 0},
    {1, {1, 1, 16}, {1, 1, 6}, 1, 1, C, D, FULL, 1},
    {1, {1, 1, 16}, {1, 1, 6}, 1, 1, C, D, SAME, 1},
    {1, {1, 1, 16}, {1, 1, 6}, 1, 1, C, D, VALID, 1},
    {1, {1, 1, 16}, {1, 1, 6}, 1, 1, C, D, CIRC, 1},
    {1, {1, 1, 13}, {1, 1, 13}, 1, 1, R, S, VALID, 1},
    {1, {1, 1, 4}, {1, 1, 11}, 1, 1, C, S, SAME, 0},
    {1, {1, 1, 1009}, {1, 1, 31}, 2, 3, R, S, SAME, 0},
    {1, {1, 1, 997}, {1, 1, 64}, 3, 1, C, S, FULL, 1},
    {2, {1, 9, 7}, {1, 3, 4}, 1, 1, R, D, SAME, 1},
    {2, {1, 9, 7}, {1, 3, 4}, 2, 2, C, S, VALID, 0},
    {2, {1, 11, 6}, {1, 5, 6}, 1, 2, R, S, CIRC, 1},
    {2, {1, 23, 19}, {1, 4, 5}, 1, 1, C, D, FULL, 0},
    {3, {5, 6, 7}, {2, 3, 2}, 1, 1, R, D, FULL, 1},
    {3, {5, 4, 7}, {3, 3, 3}, 2, 1, C, S, SAME, 0},
    {3, {5, 4, 7}, {2, 3, 1}, 1, 2, R, S, CIRC, 0},
    {3, {7, 5, 3}, {3, 2, 3}, 1, 1, C, D, VALID, 1},
};

TEST(Convolution, MatchesTheDirectSumOnFftw) {
  if (std::string why = unavailable("fftw"); !why.empty())
    GTEST_SKIP() << why;
  for (size_t i = 0; i < std::size(cases); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    check(cases[i], "fftw");
  }
}

TEST(Convolution, RoutedLikeAPlan) {
  check(cases[10], nullptr);
}

// A backend that cannot pad (the "fast" fixture: naive lines, no
// FFTMUX_CAP_PADDING) gets the signals and filters as padded copies.
TEST(Convolution, ABackendThatCannotPadGetsPaddedCopies) {
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  std::string fixtures = std::string(FIXTURES) + "/routing";
  o.plugin_path = fixtures.c_str();
  fftmux::context ctx(o);
  for (const Case& c : {cases[4], cases[6]}) // C2C F64 full and valid, correlations
    check(c, "fast", ctx.get());
  fftmux_conv_desc d = desc_of(cases[4]);
  std::vector<double> h(2 * 6, 1.0);
  fftmux_convolution_options co;
  fftmux_convolution_options_init(&co);
  co.backend = "fast";
  fftmux_convolution conv = nullptr;
  ASSERT_EQ(fftmux_convolution_create(ctx.get(), &d, h.data(), 0, &co, &conv), FFTMUX_OK)
      << fftmux_last_error();
  char text[8192];
  ASSERT_EQ(fftmux_convolution_explain(conv, text, sizeof text, nullptr), FFTMUX_OK);
  EXPECT_NE(std::string(text).find("zeros by copy"), std::string::npos) << text;
  fftmux_convolution_destroy(conv);
}

// Runs body(backend) on vulkan and opengl where they run here; the rest are named as skipped.
template <class Body> std::string on_gpu_backends(Body body) {
  std::string skipped;
  for (const char* backend : {"vulkan", "opengl"}) {
    if (std::string why = unavailable(backend); !why.empty()) {
      skipped += why + "; ";
      continue;
    }
    SCOPED_TRACE(backend);
    body(backend);
  }
  return skipped;
}

// Two small cases each: the software devices compile kernels slowly.
TEST(Convolution, MatchesTheDirectSumOnTheGpuBackends) {
  std::string skipped = on_gpu_backends([](const char* backend) {
    check(cases[1], backend);
    check({2, {1, 9, 7}, {1, 3, 4}, 1, 2, C, S, FULL, 1}, backend);
  });
  if (!skipped.empty())
    GTEST_SKIP() << skipped;
}

// DEVICE placement: the signal and output in the backend's buffers, the
// filters' spectra multiplied in the forward plan's last kernel and the
// windows written by the inverse plan alone; every mode, both ways, rank 1-3,
// several filters against one signal and against a batch. One test a case
// and backend, so that a sanitized build's shard still meets every kind.
std::vector<Case> device_cases() {
  std::vector<Case> out;
  for (size_t i : {1, 2, 4, 7, 8, 9, 12, 13, 14, 16, 17, 18})
    out.push_back(cases[i]);
  out.push_back({1, {1, 1, 100}, {1, 1, 9}, 2, 3, R, D, FULL, 0});
  // Real F32 images and volumes of several passes a transform.
  out.push_back({2, {1, 300, 300}, {1, 31, 31}, 1, 1, R, S, SAME, 0});
  out.push_back({3, {24, 24, 24}, {8, 8, 8}, 2, 1, R, S, FULL, 0});
  for (Case& c : out)
    c.device = true;
  return out;
}

struct OnDevice {
  const char* backend;
  Case c;
  size_t index;
};

std::vector<OnDevice> on(std::initializer_list<const char*> backends) {
  std::vector<OnDevice> out;
  for (const char* b : backends) {
    std::vector<Case> cs = device_cases();
    for (size_t i = 0; i < cs.size(); ++i)
      out.push_back({b, cs[i], i});
  }
  return out;
}

class DeviceBuffers : public testing::TestWithParam<OnDevice> {};

TEST_P(DeviceBuffers, MatchTheDirectSum) {
  const OnDevice& p = GetParam();
  if (std::string why = unavailable(p.backend); !why.empty())
    GTEST_SKIP() << why;
  check(p.c, p.backend);
}

std::string device_name(const testing::TestParamInfo<OnDevice>& info) {
  return std::string(info.param.backend) + "_" + std::to_string(info.param.index);
}

INSTANTIATE_TEST_SUITE_P(OnTheGpuBackends, DeviceBuffers,
                         testing::ValuesIn(on({"vulkan", "opengl"})), device_name);
// The same on CUDA's native variants (a GPU machine: tests/cuda/gpu_check.sh runs them).
INSTANTIATE_TEST_SUITE_P(OnCuda, DeviceBuffers, testing::ValuesIn(on({"cuda"})), device_name);

TEST(Convolution, AFilterSpectrumGivesTheSameResult) {
  Case c{2, {1, 6, 9}, {1, 2, 3}, 2, 2, R, D, SAME, 1};
  fftmux_conv_desc d = desc_of(c);
  Dims L = sizes(d).second;
  std::mt19937 rng(5);
  std::vector<cd> x = random_values(c.batch * points(c.n), true, rng);
  std::vector<cd> h = random_values(c.filters * points(c.m), true, rng);
  // The filters zero-padded to L and transformed by a plan of their own.
  std::vector<double> padded(c.filters * L[1] * L[2]);
  for (int64_t f = 0; f < c.filters; ++f)
    for (int64_t i = 0; i < c.m[1]; ++i)
      for (int64_t j = 0; j < c.m[2]; ++j)
        padded[(f * L[1] + i) * L[2] + j] = h[(f * c.m[1] + i) * c.m[2] + j].real();
  fftmux_desc pd;
  fftmux_desc_init(&pd);
  pd.rank = 2;
  pd.n[0] = L[1];
  pd.n[1] = L[2];
  pd.batch = c.filters;
  pd.kind = FFTMUX_R2C;
  pd.precision = FFTMUX_F64;
  std::vector<double> spectrum(c.filters * L[1] * (L[2] / 2 + 1) * 2);
  fftmux_plan plan = nullptr;
  ASSERT_EQ(fftmux_plan_create(context(), &pd, nullptr, &plan), FFTMUX_OK) << fftmux_last_error();
  ASSERT_EQ(fftmux_execute(plan, FFTMUX_FORWARD, padded.data(), spectrum.data()), FFTMUX_OK);
  fftmux_plan_destroy(plan);
  std::vector<cd> a = run<double>(c, nullptr, x, h, FFTMUX_FILTER_SIGNAL);
  std::vector<cd> b = run<double>(c, nullptr, x, h, FFTMUX_FILTER_SPECTRUM, spectrum.data());
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(std::abs(a[i] - b[i]), 0, 1e-12) << i;
}

TEST(Convolution, ExplainNamesTheSizesAndBothPlans) {
  fftmux_conv_desc d = desc_of({1, {1, 1, 100}, {1, 1, 20}, 1, 1, R, S, FULL, 0});
  std::vector<float> h(20, 1.f);
  fftmux_convolution conv = nullptr;
  ASSERT_EQ(fftmux_convolution_create(context(), &d, h.data(), 0, nullptr, &conv), FFTMUX_OK);
  char text[8192];
  ASSERT_EQ(fftmux_convolution_explain(conv, text, sizeof text, nullptr), FFTMUX_OK);
  std::string s = text;
  EXPECT_NE(s.find("FFT size {120}"), std::string::npos) << s; // 119 -> 120 = 2^3*3*5
  EXPECT_NE(s.find("forward plan"), std::string::npos) << s;
  EXPECT_NE(s.find("zeros read by the plan"), std::string::npos) << s;
  EXPECT_NE(s.find("inverse plan"), std::string::npos) << s;
  EXPECT_EQ(fftmux_context_destroy(context()), FFTMUX_ERROR_INVALID_ARGUMENT);
  fftmux_convolution_destroy(conv);
}

TEST(Convolution, TheCppWrapperOwnsTheObject) {
  fftmux::context ctx;
  fftmux_conv_desc d = desc_of({1, {1, 1, 5}, {1, 1, 2}, 1, 1, R, D, FULL, 0});
  const double h[] = {1, -1}, x[] = {1, 4, 9, 16, 25};
  double y[6];
  fftmux::convolution conv = ctx.make_convolution(d, h);
  conv.execute(x, y);
  const double want[] = {1, 3, 5, 7, 9, -25}; // differences
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(y[i], want[i], 1e-12) << i;
  EXPECT_NE(conv.explain().find("forward plan"), std::string::npos);
  d.mode = 9;
  EXPECT_THROW(ctx.make_convolution(d, h), fftmux::error);
}

} // namespace
