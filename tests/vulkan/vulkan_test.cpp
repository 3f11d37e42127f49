// The Vulkan backend against the double-precision reference, through the
// public API: sizes (powers of two, 3/5/7-smooth, primes), ranks, batches,
// strides, in and out of place, both directions, norms, shifts, real
// transforms, F32 and F64, host and device placement. On CI this runs on
// Mesa's lavapipe; a machine without a Vulkan device skips with the reason.
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

namespace fftmux {
namespace {

// The context, shared by the cases (plugins load once), in a cache folder
// of its own so the SPIR-V cache starts cold.
struct Shared {
  std::unique_ptr<context> ctx;
  std::string skip; // why the backend cannot run, when it cannot
  std::string cache;
};

Shared& shared() {
  static Shared s = [] {
    Shared r;
    r.cache = (std::filesystem::temp_directory_path() /
               ("fftmux-vulkan-test-" + std::to_string(::getpid())))
                  .string();
    std::filesystem::remove_all(r.cache);
    ::setenv("XDG_CACHE_HOME", r.cache.c_str(), 1);
    r.ctx = std::make_unique<context>();
    r.skip = "no backend named vulkan was found (built with FFTMUX_WITH_VULKAN?)";
    for (const fftmux_backend_info& b : r.ctx->backends(true))
      if (std::string(b.name) == "vulkan")
        r.skip = b.state == FFTMUX_BACKEND_READY ? "" : std::string("vulkan unavailable: ") + b.reason;
    return r;
  }();
  return s;
}

#define SKIP_WITHOUT_VULKAN()                                                                      \
  if (!shared().skip.empty())                                                                      \
  GTEST_SKIP() << shared().skip

struct Case {
  std::string name;
  fftmux_desc d;
  int direction;
};

fftmux_desc desc(std::vector<int64_t> n, int64_t batch = 1, fftmux_kind kind = FFTMUX_C2C,
                 fftmux_precision p = FFTMUX_F32) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = uint32_t(n.size());
  for (size_t i = 0; i < n.size(); ++i)
    d.n[i] = n[i];
  d.batch = batch;
  d.kind = kind;
  d.precision = p;
  return d;
}

std::string label(const fftmux_desc& d, int dir) {
  std::string s = d.kind == FFTMUX_C2C ? "c2c" : d.kind == FFTMUX_R2C ? "r2c" : "c2r";
  s += d.precision == FFTMUX_F64 ? "_f64_" : "_f32_";
  for (uint32_t i = 0; i < d.rank; ++i)
    s += (i ? "x" : "") + std::to_string(d.n[i]);
  if (d.batch > 1)
    s += "_b" + std::to_string(d.batch);
  const char* norms[] = {"", "_backward", "_ortho", "_forward"};
  s += d.norm == FFTMUX_NORM_BACKWARD ? "" : d.norm == FFTMUX_NORM_NONE ? "_none" : norms[d.norm];
  if (d.flags & FFTMUX_SHIFT_INPUT)
    s += "_shiftin";
  if (d.flags & FFTMUX_SHIFT_OUTPUT)
    s += "_shiftout";
  if (d.flags & FFTMUX_IN_PLACE)
    s += "_inplace";
  if (d.in_strides[0] || d.in_distance || d.out_strides[0] || d.out_distance)
    s += "_strided";
  if (d.placement == FFTMUX_DEVICE)
    s += "_device";
  s += dir == FFTMUX_FORWARD ? "_fwd" : "_inv";
  return s;
}

// What the shared matrix (tests/correctness, run on vulkan too) leaves out:
// the generator's own regimes on this backend. One-pass limits and the
// split exchange, four-step chains, Bluestein in one and three passes, long
// real lines (post-processing pass), radices 11/13, shifts and norms across
// those, unusual layouts, F64 multi-pass, device buffers.
std::vector<Case> cases() {
  std::vector<Case> c;
  auto add = [&](fftmux_desc d, int dir = 0) {
    if (!dir)
      dir = d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
    std::string name = label(d, dir);
    for (const Case& x : c)
      if (x.name == name)
        return; // listed already
    c.push_back({name, d, dir});
  };
  auto both = [&](fftmux_desc d) {
    add(d, FFTMUX_FORWARD);
    add(d, FFTMUX_INVERSE);
  };
  // one pass up to the split exchange (8192 on 32 KiB), four-step beyond
  for (int64_t n : {8192, 16384})
    add(desc({n}, 2));
  add(desc({1 << 17}), FFTMUX_INVERSE);
  // mixed radices including 11 and 13, 7-smooth sizes of the benchmark
  for (int64_t n : {143, 2 * 3 * 5 * 7 * 11 * 13, 1536, 2187, 2401, 3125})
    add(desc({n}, 2));
  // Bluestein: one pass (4093, 4097 = 17 * 241) and three (10007)
  add(desc({4093}));
  add(desc({4097}, 2));
  both(desc({10007}));
  // F64 on the longer paths
  for (int64_t n : {32768, 1009})
    add(desc({n}, 1, FFTMUX_C2C, FFTMUX_F64));
  // norms and shifts through multi-pass and Bluestein lines
  for (uint32_t norm : {FFTMUX_NORM_ORTHO, FFTMUX_NORM_FORWARD}) {
    fftmux_desc d = desc({16384});
    d.norm = norm;
    add(d, FFTMUX_INVERSE);
    d = desc({4097});
    d.norm = norm;
    add(d, FFTMUX_FORWARD);
  }
  for (uint32_t f : {FFTMUX_SHIFT_INPUT, FFTMUX_SHIFT_OUTPUT, FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT})
    for (auto n : std::vector<std::vector<int64_t>>{{16384}, {63, 16}}) {
      fftmux_desc d = desc(n);
      d.flags = f;
      add(d);
    }
  for (auto n : std::vector<std::vector<int64_t>>{{10007}, {4097}, {5, 6, 7}}) {
    fftmux_desc d = desc(n);
    d.flags = FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
    add(d, FFTMUX_INVERSE);
  }
  // 2D/3D with a multi-pass or Bluestein axis
  for (auto n : std::vector<std::vector<int64_t>>{{3, 16384}, {32, 17}, {9, 10, 97}})
    add(desc(n));
  // in place through scratch
  for (auto n : std::vector<std::vector<int64_t>>{{16384}, {10007}, {12, 1009}}) {
    fftmux_desc d = desc(n);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
  }
  // layouts: transposed, interleaved batches, padded outputs
  {
    fftmux_desc d = desc({12, 10}, 2);
    d.in_strides[0] = 1;
    d.in_strides[1] = 12;
    d.in_distance = 130;
    add(d);
    d = desc({97}, 4);
    d.in_strides[0] = 4;
    d.in_distance = 1;
    d.out_strides[0] = 1;
    d.out_distance = 97;
    add(d);
    d = desc({16384}, 2);
    d.in_strides[0] = 2;
    d.in_distance = 1;
    add(d);
    d = desc({8, 6, 4}, 2);
    d.out_strides[0] = 100;
    d.out_strides[1] = 10;
    d.out_strides[2] = 2;
    d.out_distance = 900;
    add(d);
  }
  // real transforms: fused, Bluestein halves, long lines, odd primes
  for (fftmux_kind k : {FFTMUX_R2C, FFTMUX_C2R}) {
    for (int64_t n : {34, 2018, 8192, 16384, 20014, 97})
      add(desc({n}, 2, k));
    add(desc({65536}, 1, k, FFTMUX_F64));
    fftmux_desc d = desc({4, 32768}, 1, k);
    d.flags = FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
    add(d);
    d = desc({16384}, 2, k);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
    d = desc({10, 34}, 2, k);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
  }
  // device placement: fftmux buffers are VkBuffers
  for (fftmux_desc d : {desc({16384}), desc({4097}), desc({64, 64}, 1, FFTMUX_R2C),
                        desc({32768}, 1, FFTMUX_C2R)}) {
    d.placement = FFTMUX_DEVICE;
    add(d);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
  }
  return c;
}

class Correctness : public ::testing::TestWithParam<Case> {};

TEST_P(Correctness, MatchesTheReference) {
  SKIP_WITHOUT_VULKAN();
  const Case& c = GetParam();
  fftmux_desc d = c.d;
  context& ctx = *shared().ctx;
  plan p = ctx.make_plan(d, "vulkan");
  ASSERT_EQ(p.backend(), "vulkan");
  fftmux_layout l = layout(d);
  std::vector<unsigned char> input = ref::random_input(d, 7);
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  std::vector<unsigned char> work = input, out(std::max(l.in_bytes, l.out_bytes), 0xcd);
  work.resize(std::max(l.in_bytes, l.out_bytes));
  if (d.placement == FFTMUX_DEVICE) {
    buffer bin = p.make_buffer(work.size());
    buffer bout = in_place ? buffer() : p.make_buffer(l.out_bytes);
    const buffer& dst = in_place ? bin : bout;
    bin.write(work.data(), work.size());
    p.execute(c.direction, bin, dst);
    p.synchronize();
    dst.read(out.data(), l.out_bytes);
    if (!in_place) { // the input buffer is left as it was
      std::vector<unsigned char> after(l.in_bytes);
      bin.read(after.data(), l.in_bytes);
      EXPECT_TRUE(std::equal(after.begin(), after.end(), input.begin())) << "input modified";
    }
  } else {
    p.execute(c.direction, work.data(), in_place ? work.data() : out.data());
    if (in_place)
      out = work;
    else
      EXPECT_TRUE(std::equal(input.begin(), input.end(), work.begin())) << "input modified";
  }
  double err = ref::relative_error(ref::read_side(d, false, out.data()),
                                   ref::expected(d, c.direction, input.data()));
  EXPECT_LE(err, ref::error_bound(d)) << p.explain();
}

INSTANTIATE_TEST_SUITE_P(Vulkan, Correctness, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

TEST(Backend, ReportsDeviceAndVariants) {
  SKIP_WITHOUT_VULKAN();
  for (const fftmux_backend_info& b : shared().ctx->backends(true)) {
    if (std::string(b.name) != "vulkan")
      continue;
    EXPECT_NE(std::string(b.devices), "");
    EXPECT_NE(std::string(b.hardware_key).find("device-uuid"), std::string::npos);
    EXPECT_NE(std::string(b.variants).find("default"), std::string::npos);
  }
}

TEST(Backend, EveryVariantIsCorrect) {
  SKIP_WITHOUT_VULKAN();
  fftmux_desc d = desc({240}, 2);
  for (const char* v : {"default", "radix8", "radix4", "wide", "narrow", "small-groups"}) {
    plan p = shared().ctx->make_plan(d, "vulkan", v);
    EXPECT_EQ(p.variant(), v);
    std::vector<unsigned char> in = ref::random_input(d, 3), out(layout(d).out_bytes);
    p.execute(FFTMUX_FORWARD, in.data(), out.data());
    double err = ref::relative_error(ref::read_side(d, false, out.data()),
                                     ref::expected(d, FFTMUX_FORWARD, in.data()));
    EXPECT_LE(err, ref::error_bound(d)) << v;
  }
}

TEST(Backend, WrapsItsOwnVkBuffers) {
  SKIP_WITHOUT_VULKAN();
  context& ctx = *shared().ctx;
  fftmux_desc d = desc({256}, 2);
  d.placement = FFTMUX_DEVICE;
  plan p = ctx.make_plan(d, "vulkan");
  fftmux_layout l = layout(d);
  buffer a = p.make_buffer(l.in_bytes), b = p.make_buffer(l.out_bytes);
  fftmux_buffer wa = nullptr, wb = nullptr;
  ASSERT_EQ(fftmux_buffer_wrap(ctx.get(), "vulkan", a.native(), l.in_bytes, &wa), FFTMUX_OK)
      << fftmux_last_error();
  ASSERT_EQ(fftmux_buffer_wrap(ctx.get(), "vulkan", b.native(), l.out_bytes, &wb), FFTMUX_OK);
  buffer ba(wa), bb(wb);
  std::vector<unsigned char> in = ref::random_input(d, 5), out(l.out_bytes);
  ba.write(in.data(), l.in_bytes); // through the wrapper, read back through the owner
  p.execute(FFTMUX_FORWARD, ba, bb);
  p.synchronize();
  b.read(out.data(), l.out_bytes);
  double err = ref::relative_error(ref::read_side(d, false, out.data()),
                                   ref::expected(d, FFTMUX_FORWARD, in.data()));
  EXPECT_LE(err, ref::error_bound(d));
}

TEST(Backend, RejectsWrongDirectionAndSmallBuffers) {
  SKIP_WITHOUT_VULKAN();
  context& ctx = *shared().ctx;
  fftmux_desc d = desc({64}, 1, FFTMUX_R2C);
  plan p = ctx.make_plan(d, "vulkan");
  std::vector<unsigned char> in(1024), out(1024);
  EXPECT_NE(fftmux_execute(p.get(), FFTMUX_INVERSE, in.data(), out.data()), FFTMUX_OK);
  EXPECT_NE(std::string(fftmux_last_error()).find("forward"), std::string::npos)
      << fftmux_last_error();
  buffer small = p.make_buffer(16), other = p.make_buffer(16);
  EXPECT_NE(fftmux_execute_buffers(p.get(), FFTMUX_FORWARD, small.get(), other.get()), FFTMUX_OK);
  EXPECT_NE(std::string(fftmux_last_error()).find("bytes"), std::string::npos)
      << fftmux_last_error();
}

TEST(Backend, QueryAnswersWithReasons) {
  SKIP_WITHOUT_VULKAN();
  fftmux_support s = shared().ctx->query(desc({1000}, 4), "vulkan");
  EXPECT_EQ(s.supported, 1u) << s.reason;
  EXPECT_GT(s.estimate_seconds, 0);
  // A transform too long for the device's storage buffers is declined.
  fftmux_support big = shared().ctx->query(desc({int64_t(1) << 28}), "vulkan");
  if (!big.supported)
    EXPECT_NE(std::string(big.reason), "");
}

// Plans compile SPIR-V once: a second plan of the same problem reads it
// from the disk cache. Prints both times (the lavapipe driver's own
// pipeline compilation is in both).
TEST(Backend, SpirvIsCachedOnDisk) {
  SKIP_WITHOUT_VULKAN();
  fftmux_desc d = desc({1 << 12}, 3);
  d.norm = FFTMUX_NORM_ORTHO;
  auto time = [&] {
    auto t = std::chrono::steady_clock::now();
    plan p = shared().ctx->make_plan(d, "vulkan");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  double cold = time(), warm = time();
  std::filesystem::path dir = std::filesystem::path(shared().cache) / "fftmux" / "vulkan" / "spirv";
  ASSERT_TRUE(std::filesystem::exists(dir)) << dir;
  EXPECT_GT(std::distance(std::filesystem::directory_iterator(dir), {}), 0);
  std::printf("plan 4096 x3: cold %.1f ms, warm %.1f ms\n", cold * 1e3, warm * 1e3);
}

} // namespace
} // namespace fftmux
