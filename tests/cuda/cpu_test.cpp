// The CUDA backend on a machine without a GPU (CI): the plugin loads and says
// why it cannot run, NVRTC compiles every generated kernel for sm_90, the
// kernel cache keeps and rejects entries as it should, and the cuFFT
// variant's routing (staging, shifts as rolls or modulations, scaling) is
// checked against the reference by running its arithmetic on the CPU.
#include "cases.hpp"

#include <elementwise.hpp>
#include <native.hpp>
#include <nvrtc.hpp>
#include <route.hpp>

#include <fftmux/fftmux.h>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

namespace fftmux::cuda_test {
namespace {

using cuda::kAxes;
using cuda::Route;
using cuda::Side;
using C = std::complex<double>;

bool driver_present() {
  return dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) != nullptr;
}

TEST(CudaPlugin, LoadsAndSaysWhyItIsUnavailable) {
  if (driver_present())
    GTEST_SKIP() << "a CUDA driver is installed here: the GPU suite (cuda_gpu_test) covers it";
  fftmux_context ctx = nullptr;
  ASSERT_EQ(fftmux_context_create(nullptr, &ctx), FFTMUX_OK);
  uint32_t count = 0;
  ASSERT_EQ(fftmux_backend_count(ctx, &count), FFTMUX_OK);
  bool seen = false;
  for (uint32_t i = 0; i < count; ++i) {
    fftmux_backend_info info;
    fftmux_backend_info_init(&info);
    ASSERT_EQ(fftmux_backend_get(ctx, i, FFTMUX_PROBE, &info), FFTMUX_OK);
    if (std::string(info.name) != "cuda")
      continue;
    seen = true;
    EXPECT_EQ(info.state, FFTMUX_BACKEND_UNAVAILABLE);
    EXPECT_NE(std::string(info.reason).find("no CUDA driver"), std::string::npos) << info.reason;
    EXPECT_NE(std::string(info.variants).find("cufft"), std::string::npos);
  }
  EXPECT_TRUE(seen) << "the cuda plugin was not discovered";
  // Plans on it fail cleanly; other backends keep working.
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.n[0] = 64;
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = "cuda";
  fftmux_plan plan = nullptr;
  EXPECT_EQ(fftmux_plan_create(ctx, &d, &o, &plan), FFTMUX_ERROR_UNAVAILABLE);
  EXPECT_NE(std::string(fftmux_last_error()).find("no CUDA driver"), std::string::npos)
      << fftmux_last_error();
  o.backend = "fftw";
  ASSERT_EQ(fftmux_plan_create(ctx, &d, &o, &plan), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(fftmux_plan_destroy(plan), FFTMUX_OK);
  EXPECT_EQ(fftmux_context_destroy(ctx), FFTMUX_OK);
}

// ---- NVRTC: every generated kernel and callback compiles for sm_90 ----

TEST(CudaKernels, CompileForSm90WithoutAGpu) {
  cuda::Compiler compiler("sm_90", "test", "", nullptr);
  std::set<std::string> kernels, callbacks;
  for (const std::string& text : correctness_cases()) {
    fftmux_desc d = ref::resolved(parse_case(text));
    for (bool cb : {true, false}) {
      Route r = cuda::plan_route(d, cb);
      std::string k = cuda::kernels_source(r, d);
      if (!k.empty())
        kernels.insert(k);
      for (int s = 0; s < 2; ++s) {
        std::string c = cuda::callbacks_source(r, d, s);
        if (!c.empty())
          callbacks.insert(c);
      }
    }
  }
  EXPECT_GT(kernels.size(), 50u);
  EXPECT_GT(callbacks.size(), 50u);
  // NVRTC takes about a second a source on CI's two cores: every fifth
  // staging kernel and every tenth callback, spread over the matrix (they
  // differ only in constants and index arithmetic); the GPU suite compiles
  // and runs them all.
  auto every = [](const std::set<std::string>& all, size_t step) {
    std::vector<std::string> some;
    size_t i = 0;
    for (const std::string& s : all)
      if (i++ % step == 0)
        some.push_back(s);
    return some;
  };
  for (const std::string& k : every(kernels, 5))
    EXPECT_FALSE(compiler.compile(k, cuda::Output::cubin).empty()) << k;
  for (const std::string& c : every(callbacks, 10))
    EXPECT_FALSE(compiler.compile(c, cuda::Output::ltoir).empty()) << c;
}

// The generator's CUDA dialect, for the H200's 227 KiB of shared memory per
// block: every pass of every problem the native variant runs.
TEST(CudaKernels, NativeKernelsCompileForSm90WithoutAGpu) {
  cuda::Compiler compiler("sm_90", "test", "", nullptr);
  codegen::Device h200 = cuda::native_limits(232448, 9);
  // The native variant accepts every case of the suites.
  for (const std::string& text : correctness_cases())
    EXPECT_EQ(cuda::native_declines(ref::resolved(parse_case(text)), h200), "") << text;
  // Compiling all of them takes minutes: one problem of each kind of plan.
  const char* problems[] = {
      "c2c f32 1024 b8 shift=both norm=ortho",  // one pass
      "c2c f32 16384 b8",                       // one pass in 227 KiB, streamed
      "c2c f64 8192 b3 norm=ortho",             // streamed too
      "c2c f32 32768 b2 shift=both norm=ortho", // a cluster of four
      "c2c f32 65536 b4",                       // several passes
      "c2c f32 10007 b4",                       // Bluestein
      "c2c f32 2401 b4",                        // radix 49
      "c2c f64 4097 b4 in-place",
      "r2c f32 4096 b2 shift=out",
      "c2r f64 30x20 b3 shift=in",
      "c2c f32 16x12x10 b2 istride=1,16,192 shift=both",
  };
  std::set<std::string> sources;
  for (const char* p : problems)
    for (auto& s : cuda::native_sources(ref::resolved(parse_case(p)), h200))
      sources.insert(s);
  for (const std::string& s : sources)
    EXPECT_FALSE(compiler.compile(s, cuda::Output::cubin).empty());
  EXPECT_TRUE(std::any_of(sources.begin(), sources.end(), [](const std::string& s) {
    return s.find("FN void bf49_f(") != std::string::npos;
  })) << "2401 as 49 x 49 under the CUDA limits";
  EXPECT_TRUE(std::any_of(sources.begin(), sources.end(), [](const std::string& s) {
    return s.find("__cluster_dims__(4, 1, 1)") != std::string::npos;
  })) << "32768 points as a cluster from compute capability 9.0";
  EXPECT_EQ(cuda::native_limits(232448, 8).cluster, 0u) << "no clusters before Hopper";
  EXPECT_TRUE(std::any_of(sources.begin(), sources.end(), [](const std::string& s) {
    return s.find("cp.async.bulk.shared::cluster.global") != std::string::npos;
  })) << "16384 points streamed from compute capability 9.0";
  EXPECT_TRUE(std::any_of(sources.begin(), sources.end(), [](const std::string& s) {
    return s.find("cp.async.bulk.shared::cluster.global") != std::string::npos &&
           s.find("#define cplx_t double2") != std::string::npos;
  })) << "8192 F64 points streamed";
  EXPECT_FALSE(cuda::native_limits(232448, 8).bulk_copy) << "no bulk copies before Hopper";
  EXPECT_GE(sources.size(), 10u);
}

TEST(CudaKernels, CacheKeepsEntriesAndRejectsForeignOnes) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("fftmux_cuda_cache_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [](const std::string& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
    return true;
  };
  fftmux_desc d = ref::resolved(parse_case("c2c f32 30x20 b3 istride=25,1 idist=800 shift=both"));
  std::string source = cuda::kernels_source(cuda::plan_route(d, false), d);
  ASSERT_FALSE(source.empty());
  cuda::Compiler a("sm_90", "H200", dir.string(), write);
  std::string first = a.compile(source, cuda::Output::cubin);
  EXPECT_EQ(a.misses, 1);
  EXPECT_EQ(a.compile(source, cuda::Output::cubin), first);
  EXPECT_EQ(a.hits, 1);
  // Another device or architecture is another key.
  cuda::Compiler b("sm_90", "another device", dir.string(), write);
  b.compile(source, cuda::Output::cubin);
  EXPECT_EQ(b.misses, 1);
  // A damaged entry is a miss, and is replaced.
  for (auto& f : fs::directory_iterator(dir))
    fs::resize_file(f.path(), fs::file_size(f.path()) / 2);
  EXPECT_EQ(a.compile(source, cuda::Output::cubin), first);
  EXPECT_EQ(a.misses, 2);
  EXPECT_EQ(a.compile(source, cuda::Output::cubin), first);
  EXPECT_EQ(a.hits, 2);
  fs::remove_all(dir);
}

TEST(CudaKernels, CompileErrorsComeBackWithTheLog) {
  cuda::Compiler compiler("sm_90", "test", "", nullptr);
  try {
    compiler.compile("extern \"C\" __global__ void k() { undeclared(); }", cuda::Output::cubin);
    FAIL() << "a broken kernel compiled";
  } catch (const plugin::Failure& f) {
    EXPECT_NE(std::string(f.what()).find("undeclared"), std::string::npos) << f.what();
  }
}

// The H200's figures: 228 KiB of shared memory an SM, 1 KiB reserved a block;
// its capacities 132, 164, 196 and 228 KiB are 56.5, 71.9, 85.9 and 100 %.
TEST(CudaKernels, CarveoutLeavesL1ToLoadsInFlight) {
  const size_t sm = 233472, k = 1024;
  auto pct = [](int groups, size_t bytes, size_t sm, bool one_pass = true) {
    return cuda::carveout_percent(groups, bytes, sm, one_pass);
  };
  // Two 8192-point groups (66 KiB each) need 134 KiB: the 164 KiB capacity.
  EXPECT_EQ(pct(2, 66 * k + k, sm), 71);
  // Five 4096-point groups (33 KiB) would take 200 KiB: four of them fit 72 %.
  EXPECT_EQ(pct(5, 33 * k + k, sm), 71);
  EXPECT_EQ(pct(5, 33 * k + k, sm), pct(4, 33 * k + k, sm));
  // One group larger than 72 % (10007's convolution, 165 KiB) still gets its own.
  EXPECT_EQ(pct(1, 165 * k + k, sm), 85);
  // A streamed 16384-point group, 195 KiB: 85 % (193.8 KiB, which the
  // driver rounds up to 196), not 86 % (196.1 KiB, rounded up to 228).
  EXPECT_EQ(pct(1, 198672 + k, sm), 85);
  // Eight 2401-point groups, 162.8 KiB: 72 % would round up to 196 KiB,
  // which holds no ninth group.
  EXPECT_EQ(pct(8, 19816 + k, sm), 71);
  // In a plan of several passes the percent stays rounded up (measured), but
  // a group alone still asks the least capacity.
  EXPECT_EQ(pct(8, 19816 + k, sm, false), 72);
  EXPECT_EQ(pct(1, 198672 + k, sm, false), 85);
  // Ten groups of 18 KiB (65536's final pass): nine fit 72 %, which the
  // driver rounds up to 196 KiB, where the tenth fits too: kept.
  EXPECT_EQ(pct(10, 17408 + k, sm), 72);
  // A group count the occupancy API could not give, or no shared memory at all.
  EXPECT_EQ(pct(0, 33 * k + k, sm), 28);
  EXPECT_EQ(pct(3, 0, sm), 0);
  EXPECT_EQ(pct(3, 33 * k, 0), 0);
  // A capacity the table lacks (a Volta's 96 KiB): the percent that covers
  // the group, which the driver rounds up to it.
  EXPECT_EQ(pct(1, 80 * k, 96 * k), 84);
  // Many small groups: never above 100 % and never above the cap.
  EXPECT_LE(pct(64, 4 * k, sm), 72);
}

// ---- The route's arithmetic, run on the CPU ----

void unpack(const Side& s, int64_t e, int64_t i[kAxes]) {
  for (int a = kAxes - 1; a >= 0; --a) {
    i[a] = e % s.extent[a];
    e /= s.extent[a];
  }
}

int64_t pack(const Side& s, const int64_t i[kAxes]) {
  int64_t e = 0;
  for (int a = 0; a < kAxes; ++a)
    e = e * s.extent[a] + i[a];
  return e;
}

// Packed position of element i of s after a roll by floor(n/2) on axes.
int64_t rolled(const Side& s, const int64_t i[kAxes], unsigned axes) {
  int64_t j[kAxes];
  for (int a = 0; a < kAxes; ++a)
    j[a] = (axes >> a & 1u) ? (i[a] + s.extent[a] / 2) % s.extent[a] : i[a];
  return pack(s, j);
}

C factor(const cuda::ElementOps& ops, const int64_t i[kAxes], bool real_side) {
  const cuda::Modulation& m = ops.mod;
  if (real_side && m.any()) {
    EXPECT_TRUE(m.half_turns()) << "a complex modulation on a real side";
  }
  double t = 0;
  for (int a = 0; a < kAxes; ++a)
    t += double(((m.mul[a] * i[a] + m.add[a]) % m.period[a] + m.period[a]) % m.period[a]) /
         double(m.period[a]);
  return std::polar(ops.scale, 2 * M_PI * m.sign * t);
}

// Packed values in and out of a descriptor's plain layout.
std::vector<unsigned char> bytes_of(const fftmux_desc& d, const ref::Values& v) {
  fftmux_layout l;
  l.struct_size = sizeof l;
  EXPECT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK);
  std::vector<unsigned char> b(l.in_bytes);
  ref::write_side(d, true, v, b.data());
  return b;
}

ref::Values run_route(const fftmux_desc& d, const Route& r, int dir, const void* input) {
  const Route::Ops& o = r.ops[Route::slot(dir)];
  ref::Values x = ref::read_side(d, true, input), engine_in(x.size());
  int64_t i[kAxes];
  for (int64_t e = 0; e < int64_t(x.size()); ++e) {
    unpack(r.engine_in, e, i);
    engine_in[e] =
        r.in_stage ? x[rolled(r.user_in, i, r.in_roll)] * factor(o.gather, i, !r.user_in.complex)
                   : x[e] * factor(o.load, i, !r.user_in.complex);
    if (!r.engine_in.complex) // what a real engine side keeps
      engine_in[e] = engine_in[e].real();
  }
  if (r.identity()) // one scaled copy, straight to the output
    return engine_in;
  // cuFFT: the plain transform of the packed engine input.
  fftmux_desc plain;
  fftmux_desc_init(&plain);
  plain.rank = d.rank;
  std::copy(d.n, d.n + FFTMUX_MAX_RANK, plain.n);
  plain.batch = d.batch;
  plain.kind = r.engine_kind;
  plain.precision = FFTMUX_F64;
  plain.norm = FFTMUX_NORM_NONE;
  ref::Values y = ref::expected(plain, dir, bytes_of(plain, engine_in).data(), ref::Method::fftw);
  ref::Values out(y.size());
  for (int64_t e = 0; e < int64_t(y.size()); ++e) {
    unpack(r.engine_out, e, i);
    bool real = !r.engine_out.complex;
    C v = r.out_stage ? y[e] * factor(o.scatter, i, real)
                      : y[e] * factor(o.store, i, real) * (o.post_pass ? o.post.scale : 1.0);
    if (!r.user_out.complex) // the conversion to a real output keeps the real part
      v = v.real();
    out[r.out_stage ? rolled(r.user_out, i, r.out_roll) : e] = v;
  }
  return out;
}

TEST(CudaRoute, ArithmeticMatchesTheReference) {
  int checked = 0;
  for (const std::string& text : correctness_cases()) {
    fftmux_desc d = ref::resolved(parse_case(text));
    if (cuda::user_side(d, true).count() > (1 << 17))
      continue; // the CPU model is slow; small cases cover the same routes
    std::vector<unsigned char> input = ref::random_input(d, 7);
    for (bool cb : {true, false})
      for (int dir : ref::directions(d)) {
        Route r = cuda::plan_route(d, cb);
        double err = ref::relative_error(run_route(d, r, dir, input.data()),
                                         ref::expected(d, dir, input.data(), ref::Method::fftw));
        EXPECT_LT(err, 1e-9) << text << (cb ? " with callbacks" : " with passes") << " direction "
                             << dir << ": " << r.describe();
        ++checked;
      }
  }
  EXPECT_GT(checked, 300);
}

struct Expect {
  const char* problem;
  bool callbacks;
  const char* route;
};

TEST(CudaRoute, PicksTheCheapestPath) {
  const Expect table[] = {
      {"c2c f32 1024 b8 norm=none", true, "cuFFT alone"},
      {"c2c f32 1024 b8 norm=none", false, "cuFFT alone"},
      {"c2c f32 1024 b8 norm=ortho", true, "cuFFT callbacks"},
      {"c2c f32 1024 b8 norm=ortho", false, "scaling pass"},
      {"c2c f32 1023 b8 shift=both", true, "cuFFT callbacks"},
      {"c2c f32 1023 b8 shift=both", false, "scatter output rolling axes 0"},
      {"c2c f32 1023 b8 shift=in", false, "gather input rolling axes 0"},
      {"c2c f32 1023 b8 shift=in norm=none", false, "gather input rolling axes 0"},
      {"c2c f32 1024 b8 shift=both in-place", true, "cuFFT callbacks, in place"},
      {"r2c f32 63x64 shift=out", true, "scatter output rolling axes 0"},
      {"r2c f32 63x64x4 shift=out", true, "scatter output rolling axes 0,1"},
      {"r2c f32 64x64 shift=out", true, "cuFFT callbacks"},
      {"r2c f32 63x63 shift=in", true, "cuFFT callbacks"},
      {"c2r f32 63x64 b2", true, "gather input"},
      {"c2r f32 64x64 b2 in-place", true, "cuFFT callbacks, in place"},
      {"c2c f64 32x24 b2 istride=1,32", true, "gather input"},
      {"c2c f32 1 b4 norm=ortho", true, "gather input, no cuFFT (every length is 1)"},
      {"r2c f32 1 b4", true, "gather input, no cuFFT (every length is 1)"},
      {"r2c f32 8x1 b4", true, "gather input, cuFFT C2C (the halved axis has length 1)"},
      {"c2r f32 8x1 b4 in-place", true, "scatter output, cuFFT C2C (the halved axis has length 1)"},
      {"c2c f32 5x1x9 b2", true, "cuFFT callbacks"},
  };
  for (const Expect& e : table) {
    fftmux_desc d = ref::resolved(parse_case(e.problem));
    EXPECT_EQ(cuda::plan_route(d, e.callbacks).describe(), e.route) << e.problem;
  }
}

} // namespace
} // namespace fftmux::cuda_test
