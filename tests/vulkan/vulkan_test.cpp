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
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace fftmux {
namespace {

// The context, shared by the cases (plugins load once), in a cache folder
// of its own so the SPIR-V cache starts cold.
struct Shared {
  std::unique_ptr<context> ctx;
  // single_pass_limit = 64: four-step chains and three-pass Bluestein on
  // small problems, which lavapipe runs quickly.
  std::unique_ptr<context> chained;
  std::string skip; // why the backend cannot run, when it cannot
  std::string cache;
};

// A context whose config file, folder/name.toml, sets `line` under
// [backends.vulkan].
std::unique_ptr<context> configured(const std::string& folder, const std::string& name,
                                    const std::string& line) {
  std::string config = folder + "/" + name + ".toml";
  std::ofstream(config) << "[backends.vulkan]\n" << line << "\n";
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  o.config_path = config.c_str();
  return std::make_unique<context>(o);
}

Shared& shared() {
  static Shared s = [] {
    Shared r;
    r.cache = (std::filesystem::temp_directory_path() /
               ("fftmux-vulkan-test-" + std::to_string(::getpid())))
                  .string();
    std::filesystem::remove_all(r.cache);
    ::setenv("XDG_CACHE_HOME", r.cache.c_str(), 1);
    r.ctx = std::make_unique<context>();
    std::filesystem::create_directories(r.cache);
    r.chained = configured(r.cache, "chained", "single_pass_limit = 64");
    r.skip = "no backend named vulkan was found (built with FFTMUX_WITH_VULKAN?)";
    for (const fftmux_backend_info& b : r.ctx->backends(true))
      if (std::string(b.name) == "vulkan")
        r.skip =
            b.state == FFTMUX_BACKEND_READY ? "" : std::string("vulkan unavailable: ") + b.reason;
    return r;
  }();
  return s;
}

// Closes the contexts and removes the test's cache folder at the end.
struct Cleanup : ::testing::Environment {
  void TearDown() override {
    Shared& s = shared();
    s.chained.reset();
    s.ctx.reset();
    std::error_code ec;
    std::filesystem::remove_all(s.cache, ec);
  }
};
const auto* const cleanup = ::testing::AddGlobalTestEnvironment(new Cleanup);

#define SKIP_WITHOUT_VULKAN()                                                                      \
  if (!shared().skip.empty())                                                                      \
  GTEST_SKIP() << shared().skip

struct Case {
  std::string name;
  fftmux_desc d;
  int direction;
  bool chained; // planned with single_pass_limit = 64
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
// the generator's own regimes. Most run planned with a single-pass limit of
// 64 points ("_chain"), so that four-step chains, three-pass Bluestein and
// the long real-transform path are exercised on sizes lavapipe runs fast; a
// few run at the real sizes where the default plans change regime.
std::vector<Case> cases() {
  std::vector<Case> c;
  bool chained = true;
  auto add = [&](fftmux_desc d, int dir = 0) {
    if (!dir)
      dir = d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
    std::string name = label(d, dir) + (chained ? "_chain" : "");
    for (const Case& x : c)
      if (x.name == name)
        return; // listed already
    c.push_back({name, d, dir, chained});
  };
  auto both = [&](fftmux_desc d) {
    add(d, FFTMUX_FORWARD);
    add(d, FFTMUX_INVERSE);
  };
  // four-step: two passes (65..4096) and three (beyond), mixed radices
  for (int64_t n : {128, 1000, 4096, 2 * 3 * 5 * 7 * 11 * 13, 1 << 13, 3 * 5 * 7 * 11 * 13})
    add(desc({n}, 2));
  both(desc({1536}, 3));
  // Bluestein in three passes, both directions
  for (int64_t n : {67, 97, 1009, 1999})
    add(desc({n}, 2));
  both(desc({101}, 2));
  // F64
  for (int64_t n : {2048, 97, 30030})
    both(desc({n}, 2, FFTMUX_C2C, FFTMUX_F64));
  // every norm and shift through the chains
  for (uint32_t norm : {FFTMUX_NORM_NONE, FFTMUX_NORM_ORTHO, FFTMUX_NORM_FORWARD})
    for (int64_t n : {1024, 97}) {
      fftmux_desc d = desc({n});
      d.norm = norm;
      both(d);
    }
  for (uint32_t f :
       {FFTMUX_SHIFT_INPUT, FFTMUX_SHIFT_OUTPUT, FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT})
    for (auto n : std::vector<std::vector<int64_t>>{{1024}, {999}, {97}, {4, 130}, {3, 5, 67}}) {
      fftmux_desc d = desc(n, 2);
      d.flags = f;
      add(d);
    }
  // 2D/3D with chained axes
  for (auto n : std::vector<std::vector<int64_t>>{{128, 256}, {96, 17}, {9, 10, 97}, {65, 66, 3}})
    add(desc(n));
  // in place through scratch
  for (auto n : std::vector<std::vector<int64_t>>{{4096}, {97}, {12, 1009}}) {
    fftmux_desc d = desc(n, 2);
    d.flags = FFTMUX_IN_PLACE;
    both(d);
  }
  // layouts: transposed, interleaved batches, padded outputs, strided long lines
  {
    fftmux_desc d = desc({120, 100}, 2);
    d.in_strides[0] = 1;
    d.in_strides[1] = 120;
    d.in_distance = 12007;
    add(d);
    d = desc({970}, 4);
    d.in_strides[0] = 4;
    d.in_distance = 1;
    d.out_strides[0] = 1;
    d.out_distance = 975;
    add(d);
    d = desc({4096}, 2);
    d.in_strides[0] = 2;
    d.in_distance = 1;
    d.out_strides[0] = 3;
    d.out_distance = 12289;
    add(d);
    d = desc({80, 6, 70}, 2);
    d.out_strides[0] = 5000;
    d.out_strides[1] = 800;
    d.out_strides[2] = 2;
    d.out_distance = 400000;
    add(d);
  }
  // real transforms: chained halves, Bluestein halves, odd, with shifts and in place
  for (fftmux_kind k : {FFTMUX_R2C, FFTMUX_C2R}) {
    for (int64_t n : {256, 1000, 2018, 4096, 202, 129})
      add(desc({n}, 2, k));
    add(desc({1024}, 2, k, FFTMUX_F64));
    fftmux_desc d = desc({4, 512}, 1, k);
    d.flags = FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
    add(d);
    d = desc({1000}, 2, k);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
    d = desc({10, 340}, 2, k);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
    d = desc({300}, 2, k);
    (k == FFTMUX_R2C ? d.in_strides : d.out_strides)[0] = 2;
    (k == FFTMUX_R2C ? d.in_distance : d.out_distance) = 610;
    add(d);
  }
  // device placement: fftmux buffers are VkBuffers
  for (fftmux_desc d : {desc({4096}, 2), desc({1009}), desc({64, 128}, 1, FFTMUX_R2C),
                        desc({1000}, 2, FFTMUX_C2R)}) {
    d.placement = FFTMUX_DEVICE;
    add(d);
    d.flags = FFTMUX_IN_PLACE;
    add(d);
  }
  // Default plans where their regime changes on lavapipe (32 KiB): the split
  // exchange at 8192, two passes at 16384, Bluestein in one pass (2039: m =
  // 4096) and three (10007), radices 11/13 and the benchmark's 7-smooth sizes.
  chained = false;
  for (int64_t n : {143, 2187, 2401, 3125, 8192, 16384, 2039, 4097})
    add(desc({n}, 2));
  both(desc({10007}));
  {
    fftmux_desc d = desc({16384});
    d.flags = FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT | FFTMUX_IN_PLACE;
    d.norm = FFTMUX_NORM_ORTHO;
    add(d, FFTMUX_INVERSE);
    d = desc({16384}, 1, FFTMUX_R2C);
    add(d);
    d = desc({16384}, 1, FFTMUX_C2R);
    add(d);
  }
  return c;
}

class Correctness : public ::testing::TestWithParam<Case> {};

// Runs d in direction dir on ctx's vulkan backend (host or device
// placement, in place or not) and checks the output against the reference
// and that an out-of-place input is left as it was.
void expect_correct(context& ctx, const fftmux_desc& d, int dir, uint32_t seed) {
  plan p = ctx.make_plan(d, "vulkan");
  ASSERT_EQ(p.backend(), "vulkan");
  fftmux_layout l = layout(d);
  std::vector<unsigned char> input = ref::random_input(d, seed);
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  std::vector<unsigned char> work = input, out(std::max(l.in_bytes, l.out_bytes), 0xcd);
  work.resize(std::max(l.in_bytes, l.out_bytes));
  if (d.placement == FFTMUX_DEVICE) {
    buffer bin = p.make_buffer(work.size());
    buffer bout = in_place ? buffer() : p.make_buffer(l.out_bytes);
    const buffer& dst = in_place ? bin : bout;
    bin.write(work.data(), work.size());
    p.execute(dir, bin, dst);
    p.synchronize();
    dst.read(out.data(), l.out_bytes);
    if (!in_place) { // the input buffer is left as it was
      std::vector<unsigned char> after(l.in_bytes);
      bin.read(after.data(), l.in_bytes);
      EXPECT_TRUE(std::equal(after.begin(), after.end(), input.begin()))
          << label(d, dir) << ": input modified";
    }
  } else {
    p.execute(dir, work.data(), in_place ? work.data() : out.data());
    if (in_place)
      out = work;
    else
      EXPECT_TRUE(std::equal(input.begin(), input.end(), work.begin()))
          << label(d, dir) << ": input modified";
  }
  double err = ref::relative_error(ref::read_side(d, false, out.data()),
                                   ref::expected(d, dir, input.data()));
  EXPECT_LE(err, ref::error_bound(d)) << label(d, dir) << ": " << p.explain();
}

TEST_P(Correctness, MatchesTheReference) {
  SKIP_WITHOUT_VULKAN();
  const Case& c = GetParam();
  expect_correct(c.chained ? *shared().chained : *shared().ctx, c.d, c.direction, 7);
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

// p's relative error against the reference on a random input (seed).
double run_error(plan& p, const fftmux_desc& d, int dir, uint64_t seed) {
  std::vector<unsigned char> in = ref::random_input(d, seed), out(layout(d).out_bytes);
  p.execute(dir, in.data(), out.data());
  return ref::relative_error(ref::read_side(d, false, out.data()),
                             ref::expected(d, dir, in.data()));
}

// Every variant the backend lists, at 240 points, and wide at 1024 too
// (radix 32 needs 32 values a thread: on lavapipe only wide's target allows it).
TEST(Backend, EveryVariantIsCorrect) {
  SKIP_WITHOUT_VULKAN();
  struct Run {
    std::string variant;
    int64_t n;
  };
  std::vector<Run> runs = {{"wide", 1024}};
  for (const fftmux_backend_info& b : shared().ctx->backends(true))
    if (std::string(b.name) == "vulkan") {
      std::stringstream list(b.variants);
      for (std::string v; std::getline(list, v, ',');)
        runs.push_back({v, 240});
    }
  EXPECT_GE(runs.size(), 13u) << "vulkan lists its twelve variants";
  for (const Run& r : runs) {
    fftmux_desc d = desc({r.n}, 2);
    plan p = shared().ctx->make_plan(d, "vulkan", r.variant.c_str());
    EXPECT_EQ(p.variant(), r.variant);
    EXPECT_LE(run_error(p, d, FFTMUX_FORWARD, 3), ref::error_bound(d)) << r.variant << ", " << r.n;
  }
}

// Bluestein convolutions fused at radix 32 (4093 as 8192 under wide's 32
// values a thread) and split into two kernels (variant split-convolution:
// both directions, shifted, and real lines of a prime half length) on
// lavapipe; the correctness matrix has them in three passes (10007).
TEST(Backend, ConvolutionsAreCorrect) {
  SKIP_WITHOUT_VULKAN();
  struct Run {
    int64_t n;
    fftmux_kind kind;
    const char* variant;
  };
  for (Run r : {Run{4093, FFTMUX_C2C, "wide"},
                {97, FFTMUX_C2C, "split-convolution"},
                {2039, FFTMUX_C2C, "split-convolution"},
                {2018, FFTMUX_R2C, "split-convolution"},
                {2018, FFTMUX_C2R, "split-convolution"}}) {
    fftmux_desc d = desc({r.n}, 2, r.kind);
    d.flags = FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
    plan p = shared().ctx->make_plan(d, "vulkan", r.variant);
    for (int dir : ref::directions(d))
      EXPECT_LE(run_error(p, d, dir, 7), ref::error_bound(d))
          << r.n << " kind " << r.kind << " " << r.variant << " direction " << dir;
  }
}

// The composite radices (10, 15, 20, 24, 25, 27: Factorize's
// CompositeSizesCoverEveryComposite) in both directions; like radix 32
// they need wide's 32 values a thread on lavapipe.
TEST(Backend, CompositeRadicesAreCorrect) {
  SKIP_WITHOUT_VULKAN();
  for (int64_t n : {150, 540, 600}) {
    fftmux_desc d = desc({n}, 2);
    plan p = shared().ctx->make_plan(d, "vulkan", "wide");
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      EXPECT_LE(run_error(p, d, dir, 5), ref::error_bound(d))
          << n << (dir == FFTMUX_FORWARD ? " forward" : " inverse");
  }
}

// Chunked exchanges on lavapipe's 32 KiB: 16384 F32 points exchange
// through shared memory in three chunks a component, 12288 in two, 8192 F64
// in three, a C2R of 32768 (a 16384-point line) in three, each in one
// kernel. Variant wide: the default's 4 values a thread on CPU devices keep
// such lines in two passes.
TEST(Backend, ChunkedExchangesAreCorrect) {
  SKIP_WITHOUT_VULKAN();
  struct Case {
    int64_t n;
    fftmux_kind kind;
    fftmux_precision precision;
  };
  for (Case c : {Case{16384, FFTMUX_C2C, FFTMUX_F32},
                 {12288, FFTMUX_C2C, FFTMUX_F32},
                 {32768, FFTMUX_C2R, FFTMUX_F32},
                 {8192, FFTMUX_C2C, FFTMUX_F64}}) {
    fftmux_desc d = desc({c.n}, 2, c.kind, c.precision);
    plan p = shared().ctx->make_plan(d, "vulkan", "wide");
    ASSERT_NE(p.explain().find("stockham 1p"), std::string::npos) << p.explain();
    for (int dir : ref::directions(d))
      EXPECT_LE(run_error(p, d, dir, 7), ref::error_bound(d))
          << c.n << (dir == FFTMUX_FORWARD ? " forward" : " inverse");
  }
}

// The pre/post pass of long real lines in mirror pairs: a thread makes
// X[k] and X[h - k] from one pair of reads; an even half length has two
// outputs that are their own mirrors, an odd one (100002: 50001) none but
// X[0]. Lines interleaved in memory (stride 3, distance 1) take the pass a
// position a thread.
TEST(Backend, MirrorPassIsCorrect) {
  SKIP_WITHOUT_VULKAN();
  struct Line {
    int64_t n, batch;
    bool woven;
  };
  for (Line l : {Line{65536, 2, false}, Line{100002, 2, false}, Line{65536, 3, true}})
    for (fftmux_kind kind : {FFTMUX_R2C, FFTMUX_C2R}) {
      fftmux_desc d = desc({l.n}, l.batch, kind);
      if (l.woven) {
        d.in_strides[0] = d.out_strides[0] = l.batch;
        d.in_distance = d.out_distance = 1;
      }
      plan p = shared().ctx->make_plan(d, "vulkan", "mirror-pass");
      for (int dir : ref::directions(d))
        EXPECT_LE(run_error(p, d, dir, 11), ref::error_bound(d))
            << l.n << (l.woven ? " woven" : "") << (kind == FFTMUX_C2R ? " C2R" : " R2C");
    }
}

// R2C's post step in a chain's rows (F64 here; F32 too on CUDA) pairs the
// rows by digit 0: spectra interleaved in memory (a unit-stride batch) had
// moved the batch there and paired batches instead (sweep, 2026-12-05).
TEST(Backend, RealRowsOfInterleavedSpectra) {
  SKIP_WITHOUT_VULKAN();
  for (int64_t n : {16384, 12800}) {
    fftmux_desc d = desc({n}, 2, FFTMUX_R2C, FFTMUX_F64);
    d.out_strides[0] = 2;
    d.out_distance = 1;
    plan p = shared().ctx->make_plan(d, "vulkan");
    EXPECT_LE(run_error(p, d, FFTMUX_FORWARD, 12), ref::error_bound(d)) << n;
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
  // One transform of 16 GiB exceeds any device's storage buffer range (a
  // 32-bit limit), even in batch chunks.
  fftmux_support big =
      shared().ctx->query(desc({32768, 32768}, 1, FFTMUX_C2C, FFTMUX_F64), "vulkan");
  EXPECT_EQ(big.supported, 0u);
  EXPECT_NE(std::string(big.reason).find("bytes"), std::string::npos) << big.reason;
}

// A setting out of its values leaves the backend unavailable, saying which.
TEST(Backend, ABadSettingIsNamed) {
  SKIP_WITHOUT_VULKAN();
  std::unique_ptr<context> ctx = configured(shared().cache, "bad", "spirv_opt = \"maybe\"");
  bool seen = false;
  for (const fftmux_backend_info& b : ctx->backends(true))
    if (std::string(b.name) == "vulkan") {
      seen = true;
      EXPECT_EQ(b.state, uint32_t(FFTMUX_BACKEND_UNAVAILABLE));
      EXPECT_NE(std::string(b.reason).find("spirv_opt = \"maybe\": use true or false"),
                std::string::npos)
          << b.reason;
    }
  EXPECT_TRUE(seen);
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

// A plan made again in the process takes the pipelines of the first: it
// neither compiles nor reads the disk cache, whose files are gone here.
TEST(Backend, PlansShareTheirPipelines) {
  SKIP_WITHOUT_VULKAN();
  fftmux_desc d = desc({1 << 11}, 5);
  d.norm = FFTMUX_NORM_FORWARD;
  std::filesystem::path dir = std::filesystem::path(shared().cache) / "fftmux" / "vulkan" / "spirv";
  { plan first = shared().ctx->make_plan(d, "vulkan"); }
  std::filesystem::remove_all(dir);
  plan again = shared().ctx->make_plan(d, "vulkan");
  EXPECT_FALSE(std::filesystem::exists(dir) && !std::filesystem::is_empty(dir))
      << "the second plan compiled its kernels again";
  std::vector<unsigned char> in = ref::random_input(d, 4), out(layout(d).out_bytes);
  again.execute(FFTMUX_FORWARD, in.data(), out.data());
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, out.data()),
                                ref::expected(d, FFTMUX_FORWARD, in.data())),
            ref::error_bound(d));
}

// Multi-pass plans alive at once share one scratch buffer: their passes,
// queued back to back without waiting, must not mix.
TEST(Backend, LivePlansShareScratch) {
  SKIP_WITHOUT_VULKAN();
  context& ctx = *shared().chained;
  struct Run {
    fftmux_desc d;
    std::vector<unsigned char> in, out;
  };
  std::vector<Run> runs;
  for (auto [n, batch] : {std::pair{4096, 3}, std::pair{1000, 7}}) {
    fftmux_desc d = desc({n}, batch);
    d.placement = FFTMUX_DEVICE;
    runs.push_back(
        {d, ref::random_input(d, uint32_t(n)), std::vector<unsigned char>(layout(d).out_bytes)});
  }
  std::vector<plan> plans;
  std::vector<buffer> ins, outs;
  for (Run& r : runs) {
    plans.push_back(ctx.make_plan(r.d, "vulkan"));
    ins.push_back(plans.back().make_buffer(layout(r.d).in_bytes));
    outs.push_back(plans.back().make_buffer(layout(r.d).out_bytes));
    ins.back().write(r.in.data(), r.in.size());
  }
  for (size_t i = 0; i < runs.size(); ++i)
    plans[i].execute(FFTMUX_FORWARD, ins[i], outs[i]);
  for (size_t i = 0; i < runs.size(); ++i) {
    plans[i].synchronize();
    outs[i].read(runs[i].out.data(), runs[i].out.size());
    EXPECT_LE(ref::relative_error(ref::read_side(runs[i].d, false, runs[i].out.data()),
                                  ref::expected(runs[i].d, FFTMUX_FORWARD, runs[i].in.data())),
              ref::error_bound(runs[i].d))
        << plans[i].explain();
  }
}

// Executions on device buffers return without waiting, several in flight
// (each recording has copies of its command buffer): a chain of forward and
// inverse transforms through two buffers, more calls than copies, queued
// back to back, each reading what the previous one wrote.
TEST(Backend, ExecutionsQueueInOrder) {
  SKIP_WITHOUT_VULKAN();
  fftmux_desc d = desc({512}, 3);
  d.placement = FFTMUX_DEVICE;
  d.norm = FFTMUX_NORM_ORTHO;
  std::vector<unsigned char> in = ref::random_input(d, 9), out(layout(d).out_bytes);
  plan p = shared().ctx->make_plan(d, "vulkan");
  buffer a = p.make_buffer(in.size()), b = p.make_buffer(out.size());
  a.write(in.data(), in.size());
  const int calls = 9; // forward, inverse, ..., forward
  for (int i = 0; i < calls; ++i)
    if (i % 2)
      p.execute(FFTMUX_INVERSE, b, a);
    else
      p.execute(FFTMUX_FORWARD, a, b);
  p.synchronize();
  b.read(out.data(), out.size());
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, out.data()),
                                ref::expected(d, FFTMUX_FORWARD, in.data())),
            calls * ref::error_bound(d));
}

// spirv_opt = true (off by default on CPU devices): every kernel goes
// through the plugin's spirv-opt call, and the transforms still verify.
TEST(Backend, SpirvOptSettingRunsTheSameTransforms) {
  SKIP_WITHOUT_VULKAN();
  auto ctx = configured(shared().cache, "spirv-opt", "spirv_opt = true");
  for (fftmux_desc d : {desc({1024}, 3), desc({4097}), desc({1000}, 2, FFTMUX_R2C),
                        desc({48, 64}, 2, FFTMUX_C2C, FFTMUX_F64)})
    expect_correct(*ctx, d, FFTMUX_FORWARD, 3);
}

// pointers = true: the kernels take the buffers as device addresses in push
// constants; every kind of pass still verifies, and the backend's own
// buffers still wrap.
TEST(Backend, PointersSettingRunsTheSameTransforms) {
  SKIP_WITHOUT_VULKAN();
  auto ctx = configured(shared().cache, "pointers", "pointers = true");
  bool up = false;
  std::string why;
  for (const fftmux_backend_info& b : ctx->backends(true))
    if (std::string(b.name) == "vulkan") {
      up = b.state == FFTMUX_BACKEND_READY;
      why = b.reason;
    }
  if (!up)
    GTEST_SKIP() << "pointers = true left the backend unavailable: " << why;
  fftmux_desc in_place = desc({512}, 2, FFTMUX_C2C, FFTMUX_F64);
  in_place.flags = FFTMUX_IN_PLACE;
  for (fftmux_desc d : {desc({1024}, 3), desc({16384}), desc({4097}), desc({1000}, 2, FFTMUX_R2C),
                        in_place, desc({48, 64}, 2)}) {
    plan p = ctx->make_plan(d, "vulkan");
    std::vector<unsigned char> in = ref::random_input(d, 11), out(layout(d).out_bytes);
    p.execute(FFTMUX_FORWARD, in.data(), d.flags & FFTMUX_IN_PLACE ? in.data() : out.data());
    const unsigned char* result = d.flags & FFTMUX_IN_PLACE ? in.data() : out.data();
    std::vector<unsigned char> again = ref::random_input(d, 11);
    EXPECT_LE(ref::relative_error(ref::read_side(d, false, result),
                                  ref::expected(d, FFTMUX_FORWARD, again.data())),
              ref::error_bound(d))
        << p.explain();
  }
  fftmux_desc d = desc({256}, 2);
  d.placement = FFTMUX_DEVICE;
  plan p = ctx->make_plan(d, "vulkan");
  fftmux_layout l = layout(d);
  buffer a = p.make_buffer(l.in_bytes), b = p.make_buffer(l.out_bytes);
  fftmux_buffer wa = nullptr;
  ASSERT_EQ(fftmux_buffer_wrap(ctx->get(), "vulkan", a.native(), l.in_bytes, &wa), FFTMUX_OK)
      << fftmux_last_error();
  buffer ba(wa);
  std::vector<unsigned char> in = ref::random_input(d, 5), out(l.out_bytes);
  ba.write(in.data(), l.in_bytes);
  p.execute(FFTMUX_FORWARD, ba, b);
  p.synchronize();
  b.read(out.data(), l.out_bytes);
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, out.data()),
                                ref::expected(d, FFTMUX_FORWARD, in.data())),
            ref::error_bound(d));
}

// staging = true leaves device buffers unmapped on lavapipe's host-visible
// memory: uploads and downloads take the staging path of a discrete GPU, one
// staging buffer grown for the largest. Device plans (Bluestein's tables
// are uploaded so too) and transfers at offsets, each against the reference.
TEST(Backend, StagingSettingRunsTheSameTransforms) {
  SKIP_WITHOUT_VULKAN();
  auto ctx = configured(shared().cache, "staging", "staging = true");
  for (fftmux_desc d : {desc({256}, 2), desc({4097}), desc({1000}, 3, FFTMUX_R2C)}) {
    d.placement = FFTMUX_DEVICE;
    plan p = ctx->make_plan(d, "vulkan");
    fftmux_layout l = layout(d);
    buffer a = p.make_buffer(l.in_bytes), b = p.make_buffer(l.out_bytes);
    std::vector<unsigned char> in = ref::random_input(d, 17), out(l.out_bytes);
    uint64_t half = l.in_bytes / 2;
    a.write(in.data(), half);
    a.write(in.data() + half, l.in_bytes - half, half);
    p.execute(FFTMUX_FORWARD, a, b);
    p.synchronize();
    b.read(out.data(), l.out_bytes);
    EXPECT_LE(ref::relative_error(ref::read_side(d, false, out.data()),
                                  ref::expected(d, FFTMUX_FORWARD, in.data())),
              ref::error_bound(d))
        << p.explain();
    std::vector<unsigned char> tail(l.out_bytes / 3);
    b.read(tail.data(), tail.size(), l.out_bytes - tail.size());
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), out.end() - tail.size()))
        << "a read at an offset gives the bytes of the whole read";
  }
}

// Problems whose buffers exceed what one binding addresses run in chunks
// of their batch, each bound at its own offset (max_binding_bytes = 65536
// makes small problems do so; chunk offsets keep the device's alignment):
// one axis, two axes, Bluestein, r2c and c2r with distances off the
// alignment, in place; host and device placement.
TEST(Chunks, ProblemsBeyondOneBindingRunInBatchChunks) {
  SKIP_WITHOUT_VULKAN();
  std::unique_ptr<context> made = configured(shared().cache, "chunks", "max_binding_bytes = 65536");
  context& ctx = *made;
  auto check = [&](fftmux_desc d, int dir, uint32_t seed) {
    std::string what = label(d, dir);
    fftmux_layout l = layout(d);
    ASSERT_GT(std::max(l.in_bytes, l.out_bytes), 65536u) << what << " fits one binding";
    fftmux_support a = ctx.query(d, "vulkan");
    ASSERT_EQ(a.supported, 1u) << what << ": " << a.reason;
    expect_correct(ctx, d, dir, seed);
  };
  for (const fftmux_desc& d : {desc({64}, 200), desc({16, 12}, 60), desc({97}, 120)})
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      check(d, dir, 31);
  check(desc({30}, 700, FFTMUX_R2C), FFTMUX_FORWARD, 32);
  check(desc({30}, 700, FFTMUX_C2R), FFTMUX_INVERSE, 33);
  fftmux_desc in_place = desc({128}, 80);
  in_place.flags |= FFTMUX_IN_PLACE;
  check(in_place, FFTMUX_FORWARD, 34);
  fftmux_desc device = desc({64}, 200);
  device.placement = FFTMUX_DEVICE;
  check(device, FFTMUX_FORWARD, 35);
  // The limit holds: one transform beyond it cannot be chunked.
  fftmux_support one = ctx.query(desc({16384}), "vulkan");
  EXPECT_EQ(one.supported, 0u);
  EXPECT_NE(std::string(one.reason).find("bytes"), std::string::npos) << one.reason;
}

} // namespace
} // namespace fftmux
