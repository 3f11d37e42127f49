// The CUDA backend on a GPU: both variants against the reference on the
// cases of cases.cpp (every kind, precision, rank, shift parity, norm,
// layout, placement), cuFFT's fused callbacks and the pass fallback, wrapped
// CUdeviceptrs, callers' streams, the device report and warm plan creation.
// Without a device every test is skipped with the driver's reason.
#include "cases.hpp"

#include <fftmux/fftmux.hpp>
#include <fftmux/gpu/variants.hpp>
#include <reference.hpp>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace fftmux::cuda_test {
namespace {

// A context whose cuda backend uses the given [backends.cuda] settings.
std::unique_ptr<context> make_context(const std::string& settings) {
  auto path = std::filesystem::temp_directory_path() /
              ("fftmux_cuda_test_" + std::to_string(getpid()) + "_" +
               std::to_string(std::hash<std::string>{}(settings)) + ".toml");
  std::ofstream(path) << "[backends.cuda]\n" << settings << "\n";
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  std::string p = path.string();
  o.config_path = p.c_str();
  return std::make_unique<context>(o);
}

struct Gpu {
  std::map<std::string, std::unique_ptr<context>> contexts;
  std::string unavailable = "the cuda backend is not installed";
  fftmux_backend_info info{};
  std::string variants; // the whole list (info's field holds what fits)

  Gpu() {
    contexts["default"] = make_context("");
    contexts["callback"] = make_context("cufft_fusion = \"callback-experimental\"");
    auto all = contexts["default"]->backends(true);
    for (uint32_t i = 0; i < all.size(); ++i)
      if (std::string(all[i].name) == "cuda") {
        info = all[i];
        variants = contexts["default"]->variants(i);
        unavailable = info.state == FFTMUX_BACKEND_READY ? "" : std::string("cuda: ") + info.reason;
      }
  }
};

Gpu& gpu() {
  static Gpu g;
  return g;
}

#define REQUIRE_GPU()                                                                              \
  if (!gpu().unavailable.empty())                                                                  \
  GTEST_SKIP() << gpu().unavailable

// 0xFF bytes: NaN in either precision, which no transform writes.
constexpr unsigned char kPoison = 0xFF;

// Runs one case on device buffers (or host memory) and returns the error
// relative to the reference, over its bound.
double run_case(context& ctx, const char* variant, const fftmux_desc& desc, int dir,
                uint64_t seed) {
  fftmux_layout l = layout(desc);
  bool in_place = desc.flags & FFTMUX_IN_PLACE;
  std::vector<unsigned char> in = ref::random_input(desc, seed);
  in.resize(in_place ? std::max(l.in_bytes, l.out_bytes) : l.in_bytes, kPoison);
  const std::vector<unsigned char> original = in;
  std::vector<unsigned char> out(in_place ? in.size() : l.out_bytes, kPoison);
  plan p = ctx.make_plan(desc, "cuda", variant);
  if (desc.placement == FFTMUX_HOST) {
    p.execute(dir, in.data(), in_place ? in.data() : out.data());
    if (in_place)
      out = in;
  } else {
    buffer bin = p.make_buffer(in.size());
    bin.write(in.data(), in.size());
    buffer bout = in_place ? buffer() : p.make_buffer(out.size());
    if (!in_place)
      bout.write(out.data(), out.size());
    const buffer& dst = in_place ? bin : bout;
    p.execute(dir, bin, dst);
    p.synchronize();
    dst.read(out.data(), out.size());
    if (!in_place) {
      std::vector<unsigned char> after(in.size());
      bin.read(after.data(), after.size());
      EXPECT_EQ(after, original) << "the input of an out-of-place plan changed";
    }
  }
  double err = ref::relative_error(ref::read_side(desc, false, out.data()),
                                   ref::expected(desc, dir, original.data()));
  return err / ref::error_bound(desc);
}

struct Param {
  std::string variant; // "cufft" or one of the native variants
  std::string problem;
};

void PrintTo(const Param& p, std::ostream* os) {
  *os << p.variant << ": " << p.problem;
}

// Every case on cuFFT and the default native variant; the other native
// variants (the generator's table: they differ in launch shapes and radices)
// share the cases out between them, each taking every k-th.
std::vector<Param> params() {
  std::vector<Param> v;
  std::vector<std::string> cases = correctness_cases();
  for (const char* variant : {"cufft", "native"})
    for (const std::string& c : cases)
      v.push_back({variant, c});
  const std::vector<const char*>& table = codegen::offered(codegen::Api::cuda).names;
  size_t k = table.size() - 1;
  for (size_t i = 1; i < table.size(); ++i)
    for (size_t c = i - 1; c < cases.size(); c += k)
      v.push_back({std::string("native-") + table[i], cases[c]});
  // cuFFT with cufft_fusion = "callback", on every third case.
  for (size_t c = 0; c < cases.size(); c += 3)
    v.push_back({"cufft-callback", cases[c]});
  return v;
}

class Correctness : public ::testing::TestWithParam<Param> {};

// The measured state of cuFFT 12.0.0.61's LTO callbacks (docs/cuda.md):
// run only on request, so that the suite reports the backend's defaults.
#define REQUIRE_CALLBACK_RUN()                                                                     \
  if (!std::getenv("FFTMUX_CUDA_TEST_CALLBACKS"))                                                  \
  GTEST_SKIP() << "cufft_fusion = callback-experimental is off by default: cuFFT 12.0.0.61 fails " \
                  "to plan 63 of 112 cases with LTO callbacks, computes 3 wrongly and runs the "   \
                  "rest slower than passes (docs/cuda.md); FFTMUX_CUDA_TEST_CALLBACKS=1 runs them"

TEST_P(Correctness, MatchesReference) {
  REQUIRE_GPU();
  const Param& p = GetParam();
  bool callback = p.variant == "cufft-callback";
  if (callback)
    REQUIRE_CALLBACK_RUN();
  context& ctx = *gpu().contexts[callback ? "callback" : "default"];
  fftmux_desc d = parse_case(p.problem);
  for (int dir : ref::directions(d)) {
    double ratio = run_case(ctx, callback ? "cufft" : p.variant.c_str(), d, dir, 11 + dir);
    EXPECT_LE(ratio, 1.0) << p.variant << ": " << p.problem << " direction " << dir << ": error "
                          << ratio << " x the bound";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, Correctness, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& i) {
                           std::string n = i.param.variant + "_" + std::to_string(i.index);
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return n;
                         });

TEST(CudaDevice, ReportsNameArchitectureDriverAndUuid) {
  REQUIRE_GPU();
  const fftmux_backend_info& b = gpu().info;
  std::printf("devices: %s\nhardware key: %s\n", b.devices, b.hardware_key);
  EXPECT_NE(std::string(b.devices).find("sm_"), std::string::npos);
  EXPECT_NE(std::string(b.devices).find("GPU-"), std::string::npos);
  EXPECT_NE(std::string(b.hardware_key).find("driver "), std::string::npos);
  std::string variants = "cufft,native";
  const std::vector<const char*>& table =
      fftmux::codegen::offered(fftmux::codegen::Api::cuda).names;
  for (size_t i = 1; i < table.size(); ++i)
    variants += ",native-" + std::string(table[i]);
  EXPECT_EQ(gpu().variants, variants);
  EXPECT_EQ((variants + ",").substr(0, std::strlen(b.variants) + 1), std::string(b.variants) + ",")
      << "the field holds whole names";
}

buffer wrap(context& ctx, void* device_pointer, uint64_t bytes) {
  fftmux_buffer b = nullptr;
  EXPECT_EQ(
      fftmux_buffer_wrap(ctx.get(), "cuda", reinterpret_cast<uint64_t>(device_pointer), bytes, &b),
      FFTMUX_OK)
      << fftmux_last_error();
  return buffer(b);
}

// A caller's allocation and stream: the plan works on them, and the result
// is ready once the caller synchronizes that stream.
TEST(CudaInterop, WrappedPointersAndCallersStream) {
  REQUIRE_GPU();
  context& ctx = *gpu().contexts["default"];
  fftmux_desc d = parse_case("c2c f32 4096 b64 shift=both norm=ortho");
  fftmux_layout l = layout(d);
  std::vector<unsigned char> in = ref::random_input(d, 5), out(l.out_bytes, kPoison);
  void *din = nullptr, *dout = nullptr;
  ASSERT_EQ(cudaMalloc(&din, l.in_bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dout, l.out_bytes), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(din, in.data(), l.in_bytes, cudaMemcpyHostToDevice), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  for (const char* variant : {"cufft", "native"}) {
    plan p = ctx.make_plan(d, "cuda", variant);
    p.set_stream(reinterpret_cast<uint64_t>(stream));
    buffer bin = wrap(ctx, din, l.in_bytes), bout = wrap(ctx, dout, l.out_bytes);
    EXPECT_EQ(bin.native(), reinterpret_cast<uint64_t>(din));
    ASSERT_EQ(cudaMemset(dout, 0xFF, l.out_bytes), cudaSuccess);
    p.execute(FFTMUX_FORWARD, bin, bout);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(out.data(), dout, l.out_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    double err = ref::relative_error(ref::read_side(d, false, out.data()),
                                     ref::expected(d, FFTMUX_FORWARD, in.data()));
    EXPECT_LE(err, ref::error_bound(d)) << variant;
  }
  // A host pointer is not device memory.
  fftmux_buffer bad = nullptr;
  EXPECT_EQ(fftmux_buffer_wrap(ctx.get(), "cuda", reinterpret_cast<uint64_t>(in.data()), 64, &bad),
            FFTMUX_ERROR_INVALID_ARGUMENT)
      << fftmux_last_error();
  cudaStreamDestroy(stream);
  cudaFree(din);
  cudaFree(dout);
}

// A streamed kernel (16384 F32 points from compute capability 9.0: the next
// line copied by cp.async.bulk, which needs a 16-byte aligned source) reads
// a source 8 bytes off directly; both give the transform, over more lines
// than the GPU has SMs (each group loops) and in place.
TEST(CudaNative, StreamedLinesFromAnySource) {
  REQUIRE_GPU();
  context& ctx = *gpu().contexts["default"];
  for (const char* problem : {"c2c f32 16384 b300", "c2c f32 16384 b7 in-place"}) {
    fftmux_desc d = parse_case(problem);
    fftmux_layout l = layout(d);
    std::vector<unsigned char> in = ref::random_input(d, 11), out(l.out_bytes, kPoison);
    ref::Values want = ref::expected(d, FFTMUX_FORWARD, in.data());
    char* raw = nullptr;
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&raw), l.in_bytes + l.out_bytes + 64),
              cudaSuccess);
    plan p = ctx.make_plan(d, "cuda", "native");
    for (size_t offset : {size_t(0), size_t(8)}) {
      bool in_place = d.flags & FFTMUX_IN_PLACE;
      char* src = raw + offset;
      char* dst = in_place ? src : raw + 32 + l.in_bytes;
      ASSERT_EQ(cudaMemcpy(src, in.data(), l.in_bytes, cudaMemcpyHostToDevice), cudaSuccess);
      buffer bin = wrap(ctx, src, l.in_bytes), bout = wrap(ctx, dst, l.out_bytes);
      fftmux_buffer to = in_place ? bin.get() : bout.get();
      ASSERT_EQ(fftmux_execute_buffers(p.get(), FFTMUX_FORWARD, bin.get(), to), FFTMUX_OK)
          << fftmux_last_error();
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << problem;
      ASSERT_EQ(cudaMemcpy(out.data(), dst, l.out_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
      EXPECT_LE(ref::relative_error(ref::read_side(d, false, out.data()), want),
                ref::error_bound(d))
          << problem << ", source " << offset << " bytes past a 16-byte boundary";
    }
    cudaFree(raw);
  }
}

// With the kernels in the disk cache, making a native plan costs no
// compilation: under 5 ms. The best of five warm creations: the suite's
// other shards share the CPU (H200, tests/cuda/gpu_check.sh: one warm
// creation 0.5-0.8 ms alone, 7-12 ms beside them).
TEST(CudaNative, WarmPlanCreationIsFast) {
  REQUIRE_GPU();
  context& ctx = *gpu().contexts["default"];
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  for (const char* problem : {"c2c f32 1024 b4096", "c2c f32 16384 b256", "c2c f32 10007 b64"}) {
    fftmux_desc d = parse_case(problem);
    auto t0 = Clock::now();
    { plan cold = ctx.make_plan(d, "cuda", "native"); }
    double cold_ms = ms(t0, Clock::now()), warm_ms = 1e300;
    for (int i = 0; i < 5; ++i) {
      auto t1 = Clock::now();
      { plan warm = ctx.make_plan(d, "cuda", "native"); }
      warm_ms = std::min(warm_ms, ms(t1, Clock::now()));
    }
    std::printf("native plan %-22s first %.1f ms, warm %.2f ms\n", problem, cold_ms, warm_ms);
    EXPECT_LT(warm_ms, 5.0) << problem;
  }
}

TEST(CudaErrors, BadInputIsReportedNotFatal) {
  REQUIRE_GPU();
  context& ctx = *gpu().contexts["default"];
  fftmux_desc d = parse_case("c2c f32 1024 b4");
  plan p = ctx.make_plan(d, "cuda", "cufft");
  fftmux_buffer small = nullptr;
  ASSERT_EQ(fftmux_buffer_create(ctx.get(), "cuda", 64, &small), FFTMUX_OK);
  buffer big = p.make_buffer(layout(d).out_bytes);
  EXPECT_EQ(fftmux_execute_buffers(p.get(), FFTMUX_FORWARD, small, big.get()),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fftmux_buffer_destroy(small), FFTMUX_OK);
  // A wrapped pointer off the complex element's alignment is refused before
  // any kernel runs (a misaligned access would poison the CUDA context);
  // the plan runs on aligned buffers afterwards.
  fftmux_desc r = parse_case("r2c f32 1024 b2");
  fftmux_layout rl = layout(r);
  char* raw = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&raw), rl.in_bytes + 16), cudaSuccess);
  for (const char* variant : {"cufft", "native"}) {
    plan rp = ctx.make_plan(r, "cuda", variant);
    buffer off = wrap(ctx, raw + 4, rl.in_bytes), dst = rp.make_buffer(rl.out_bytes);
    EXPECT_EQ(fftmux_execute_buffers(rp.get(), FFTMUX_FORWARD, off.get(), dst.get()),
              FFTMUX_ERROR_INVALID_ARGUMENT)
        << variant;
    EXPECT_NE(std::string(fftmux_last_error()).find("not aligned"), std::string::npos)
        << fftmux_last_error();
    buffer aligned = wrap(ctx, raw, rl.in_bytes);
    EXPECT_EQ(fftmux_execute_buffers(rp.get(), FFTMUX_FORWARD, aligned.get(), dst.get()), FFTMUX_OK)
        << variant << ": " << fftmux_last_error();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess) << variant;
  }
  cudaFree(raw);
  // An allocation the device cannot hold fails with a message, not a crash.
  fftmux_buffer huge = nullptr;
  EXPECT_EQ(fftmux_buffer_create(ctx.get(), "cuda", uint64_t(1) << 50, &huge),
            FFTMUX_ERROR_OUT_OF_MEMORY)
      << fftmux_last_error();
}

// cufft_fusion = "callback-experimental": shifts and scaling inside cuFFT's
// LTO callbacks. Each problem exercises one kind of callback; on a failure
// the test prints what cuFFT did (plan error, or the first values written).
TEST(CudaCallbacks, FuseShiftsAndScaling) {
  REQUIRE_GPU();
  REQUIRE_CALLBACK_RUN();
  context& ctx = *gpu().contexts["callback"];
  const char* problems[] = {
      "c2c f32 8 norm=backward",             // inverse: store callback, scale only
      "c2c f32 17 norm=backward",            // the same on a prime (Bluestein)
      "c2c f32 1024 b8 norm=none shift=out", // load callback, sign modulation
      "c2c f32 1023 b8 norm=none shift=in",  // store callback, complex modulation
      "r2c f32 1024 b8 norm=ortho shift=in", // real input, complex store
      "c2r f64 1024 b8 in-place",            // real store, scale only
  };
  for (const char* text : problems) {
    fftmux_desc d = parse_case(text);
    fftmux_layout l = layout(d);
    for (int dir : ref::directions(d)) {
      std::vector<unsigned char> in = ref::random_input(d, 3), out(l.out_bytes, kPoison);
      try {
        plan p = ctx.make_plan(d, "cuda", "cufft");
        buffer bin = p.make_buffer(l.in_bytes), bout = p.make_buffer(l.out_bytes);
        bin.write(in.data(), l.in_bytes);
        bout.write(out.data(), l.out_bytes);
        p.execute(dir, bin, bout);
        p.synchronize();
        bout.read(out.data(), l.out_bytes);
      } catch (const std::exception& e) {
        ADD_FAILURE() << text << " direction " << dir << ": " << e.what();
        continue;
      }
      ref::Values got = ref::read_side(d, false, out.data()),
                  want = ref::expected(d, dir, in.data());
      double err = ref::relative_error(got, want);
      std::string first;
      for (size_t i = 0; i < 3 && i < got.size(); ++i)
        first += " (" + std::to_string(got[i].real()) + "," + std::to_string(got[i].imag()) +
                 " want " + std::to_string(want[i].real()) + "," + std::to_string(want[i].imag()) +
                 ")";
      EXPECT_LE(err, ref::error_bound(d)) << text << " direction " << dir << ":" << first;
    }
  }
}

} // namespace
} // namespace fftmux::cuda_test
