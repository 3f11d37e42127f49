// Runs the correctness matrix on the backend named by FFTMUX_TEST_BACKEND
// (and FFTMUX_TEST_VARIANT, when set), comparing every output with the
// double-precision reference, checking that inputs of out-of-place plans
// survive and that no byte outside the logical output is written.
#include "cases.hpp"

#include <fftmux/desc_geometry.hpp>
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

namespace fftmux::test {
namespace {

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

struct Target {
  std::string backend = env_or("FFTMUX_TEST_BACKEND", "fftw");
  std::string variant = env_or("FFTMUX_TEST_VARIANT", "");
  std::unique_ptr<context> ctx = std::make_unique<context>();
  std::string unavailable; // why the backend cannot run, "" when it can

  Target() {
    unavailable = "backend " + backend + " is not installed";
    for (const auto& b : ctx->backends(true))
      if (backend == b.name && b.state != FFTMUX_BACKEND_SKIPPED)
        unavailable = b.state == FFTMUX_BACKEND_READY ? "" : b.name + std::string(": ") + b.reason;
  }
};

Target& target() {
  static Target t;
  return t;
}

// 0xFF bytes: a NaN pattern no transform writes by accident.
constexpr unsigned char sentinel = 0xFF;

// True when every byte of out outside the logical output elements still
// holds the sentinel.
bool untouched_outside(const fftmux_desc& d, std::vector<unsigned char> out) {
  ref::Values zero = ref::read_side(d, false, out.data());
  for (auto& v : zero)
    v = 0;
  ref::write_side(d, false, zero, out.data());
  std::vector<unsigned char> blank(out.size(), sentinel);
  ref::write_side(d, false, zero, blank.data());
  return out == blank;
}

// The case's input: random, Hermitian-consistent for C2R unless the case
// asks for any spectrum, then every element gets a random complex offset.
std::vector<unsigned char> input(const Case& c) {
  uint64_t seed = std::hash<std::string>{}(c.name);
  std::vector<unsigned char> in = ref::random_input(c.desc, seed);
  if (!c.any_spectrum)
    return in;
  ref::Values v = ref::read_side(c.desc, true, in.data());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& x : v)
    x += std::complex<double>(u(rng), u(rng));
  ref::write_side(c.desc, true, v, in.data());
  return in;
}

// Whether a comma-separated list names v.
bool listed(const std::string& list, const std::string& v) {
  return ("," + list + ",").find("," + v + ",") != std::string::npos;
}

// FFTW and cuFFT decline F16 and BF16 (docs/fftw.md, docs/cuda.md).
bool declines_storage16(const Target& t, const fftmux_desc& d) {
  bool half = d.precision == FFTMUX_F16 || d.precision == FFTMUX_BF16;
  return half && (t.backend == "fftw" || t.variant == "cufft");
}

class Correctness : public ::testing::TestWithParam<Case> {};

void run_plan(plan& p, const Case& c, std::vector<unsigned char>& in,
              std::vector<unsigned char>& out, const fftmux_layout& l) {
  bool in_place = c.desc.flags & FFTMUX_IN_PLACE;
  if (c.desc.placement == FFTMUX_HOST) {
    p.execute(c.direction, in.data(), in_place ? in.data() : out.data());
    return;
  }
  buffer bin = p.make_buffer(in.size());
  bin.write(in.data(), in.size());
  if (in_place) {
    p.execute(c.direction, bin, bin);
    p.synchronize();
    bin.read(in.data(), in.size());
    return;
  }
  buffer bout = p.make_buffer(l.out_bytes);
  bout.write(out.data(), l.out_bytes);
  p.execute(c.direction, bin, bout);
  p.synchronize();
  bout.read(out.data(), l.out_bytes);
}

TEST_P(Correctness, MatchesReference) {
  const Case& c = GetParam();
  Target& t = target();
  if (!t.unavailable.empty())
    GTEST_SKIP() << "skipped: " << t.unavailable;
  if (c.desc.kind == FFTMUX_R2R || geometry::padded(c.desc)) { // optional capabilities
    fftmux_support s = t.ctx->query(c.desc, t.backend.c_str());
    if (!s.supported)
      GTEST_SKIP() << "declined: " << s.reason;
    if (!t.variant.empty() && !listed(s.variants, t.variant))
      GTEST_SKIP() << "declined: variant " << t.variant << " is not among those that accept it ("
                   << s.variants << ")";
  }
  fftmux_layout l = layout(c.desc);
  if (declines_storage16(t, c.desc)) {
    EXPECT_THROW(t.ctx->make_plan(c.desc, t.backend.c_str(),
                                  t.variant.empty() ? nullptr : t.variant.c_str()),
                 error);
    return;
  }
  plan p =
      t.ctx->make_plan(c.desc, t.backend.c_str(), t.variant.empty() ? nullptr : t.variant.c_str());
  ASSERT_EQ(p.backend(), t.backend);

  bool in_place = c.desc.flags & FFTMUX_IN_PLACE;
  std::vector<unsigned char> in = input(c);
  if (in_place)
    in.resize(std::max(l.in_bytes, l.out_bytes));
  const std::vector<unsigned char> original = in;
  std::vector<unsigned char> out(in_place ? 0 : l.out_bytes, sentinel);

  run_plan(p, c, in, out, l);

  const std::vector<unsigned char>& result = in_place ? in : out;
  double err = ref::relative_error(ref::read_side(c.desc, false, result.data()),
                                   ref::expected(c.desc, c.direction, original.data()));
  EXPECT_LE(err, ref::error_bound(c.desc)) << c.name << " on " << t.backend << "/" << p.variant();
  if (!in_place) {
    EXPECT_EQ(in, original) << "the input of an out-of-place plan changed";
    EXPECT_TRUE(untouched_outside(c.desc, out)) << "bytes outside the output were written";
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, Correctness, ::testing::ValuesIn(cases(scale_from_env())),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

} // namespace
} // namespace fftmux::test
