// The real-to-real kinds on the FFTW backend: every DCT and DST against the
// naive O(N^2) definitions in long double for small sizes and FFTW's r2r
// in double for larger ones, over ranks 1-3, odd, even and prime sizes,
// F32 and F64, every norm and direction, in place and out, strided and
// batched; the round trip, and every other backend running them or declining.
#include "run_check.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace fftmux::test {
namespace {

// One context for the suite, destroyed before the process exits: the GPU
// backends' drivers must not be shut down by static destructors.
std::unique_ptr<context> shared;

const context& ctx() {
  return *shared;
}

class R2R : public ::testing::Test {
protected:
  static void SetUpTestSuite() { shared = std::make_unique<context>(); }
  static void TearDownTestSuite() { shared.reset(); }
};

fftmux_desc r2r(std::vector<int64_t> n, std::vector<uint32_t> kinds, uint32_t precision,
                uint32_t norm, int64_t batch = 1) {
  fftmux_desc d = make_desc(n, FFTMUX_R2R);
  for (size_t i = 0; i < kinds.size(); ++i)
    d.r2r[i] = kinds[i];
  d.precision = precision;
  d.norm = norm;
  d.batch = batch;
  return d;
}

std::string name(const fftmux_desc& d, int direction) {
  std::string s = std::to_string(d.kind) + ":";
  for (uint32_t i = 0; i < d.rank; ++i)
    s += std::to_string(d.r2r[i]) + "/" + std::to_string(d.n[i]) + " ";
  return s + "batch " + std::to_string(d.batch) + " f" + (d.precision ? "64" : "32") + " norm " +
         std::to_string(d.norm) + " dir " + std::to_string(direction) +
         (d.flags & FFTMUX_IN_PLACE ? " in-place" : "");
}

// Runs d in direction on random input and compares with the reference;
// out of place, the input must survive.
void check(const fftmux_desc& d, int direction, ref::Method method) {
  plan p = ctx().make_plan(d, "fftw");
  Checked c = run_checked(p, d, direction, method, 7);
  EXPECT_LE(c.error, ref::error_bound(d)) << name(d, direction);
  EXPECT_TRUE(c.input_kept) << name(d, direction) << ": the input changed";
}

TEST_F(R2R, EveryKindSizeNormAndPrecisionMatchesTheDefinition) {
  for (uint32_t kind = FFTMUX_DCT1; kind <= FFTMUX_DST4; ++kind)
    for (int64_t n : {2, 9, 12, 17})
      for (uint32_t precision : {FFTMUX_F32, FFTMUX_F64})
        for (uint32_t norm = FFTMUX_NORM_NONE; norm <= FFTMUX_NORM_FORWARD; ++norm) {
          fftmux_desc d = r2r({n}, {kind}, precision, norm, 2);
          if (norm % 2)
            d.flags = FFTMUX_IN_PLACE;
          for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
            check(d, dir, ref::Method::naive);
        }
}

// Ranks 2 and 3, kinds mixed over the axes, batches, strides and padding.
TEST_F(R2R, RanksAndLayoutsMatchTheDefinition) {
  struct Shape {
    std::vector<int64_t> n;
    std::vector<uint32_t> kinds;
    int64_t batch;
    std::vector<int64_t> in_strides, out_strides;
    int64_t in_distance, out_distance;
    bool in_place;
  };
  const Shape shapes[] = {
      {{6, 5}, {FFTMUX_DCT2, FFTMUX_DST1}, 3, {}, {}, 0, 0, false},
      {{5, 7}, {FFTMUX_DCT1, FFTMUX_DST2}, 2, {16, 2}, {1, 5}, 90, 35, false}, // transposed out
      {{4, 3, 5}, {FFTMUX_DCT3, FFTMUX_DST3, FFTMUX_DCT4}, 2, {}, {}, 0, 0, true},
      {{3, 4, 2}, {FFTMUX_DST4, FFTMUX_DCT1, FFTMUX_DST2}, 1, {40, 10, 3}, {40, 10, 3}, 0, 0, true},
      {{2, 2, 13}, {FFTMUX_DCT2, FFTMUX_DCT2, FFTMUX_DCT2}, 3, {}, {}, 0, 60, false},
  };
  for (const Shape& s : shapes)
    for (uint32_t precision : {FFTMUX_F32, FFTMUX_F64})
      for (uint32_t norm : {FFTMUX_NORM_BACKWARD, FFTMUX_NORM_ORTHO}) {
        fftmux_desc d = r2r(s.n, s.kinds, precision, norm, s.batch);
        std::copy(s.in_strides.begin(), s.in_strides.end(), d.in_strides);
        std::copy(s.out_strides.begin(), s.out_strides.end(), d.out_strides);
        d.in_distance = s.in_distance;
        d.out_distance = s.out_distance;
        d.flags = s.in_place ? FFTMUX_IN_PLACE : 0;
        for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
          check(d, dir, ref::Method::naive);
      }
}

TEST_F(R2R, LargerSizesMatchFftwInDouble) {
  const fftmux_desc cases[] = {
      r2r({1000}, {FFTMUX_DCT2}, FFTMUX_F32, FFTMUX_NORM_BACKWARD, 3),
      r2r({1009}, {FFTMUX_DST4}, FFTMUX_F64, FFTMUX_NORM_ORTHO),
      r2r({513}, {FFTMUX_DCT1}, FFTMUX_F32, FFTMUX_NORM_ORTHO),
      r2r({96, 97}, {FFTMUX_DCT3, FFTMUX_DST2}, FFTMUX_F32, FFTMUX_NORM_FORWARD),
      r2r({24, 20, 31}, {FFTMUX_DST1, FFTMUX_DCT4, FFTMUX_DST3}, FFTMUX_F64, FFTMUX_NORM_ORTHO),
  };
  for (const fftmux_desc& d : cases)
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      check(d, dir, ref::Method::fftw);
}

// forward then inverse returns the input under every norm but NONE, which
// leaves the logical size N' as a factor.
TEST_F(R2R, InverseUndoesForward) {
  for (uint32_t kind = FFTMUX_DCT1; kind <= FFTMUX_DST4; ++kind)
    for (uint32_t norm = FFTMUX_NORM_NONE; norm <= FFTMUX_NORM_FORWARD; ++norm) {
      fftmux_desc d = r2r({6, 5}, {kind, FFTMUX_DCT2}, FFTMUX_F64, norm);
      plan p = ctx().make_plan(d, "fftw");
      std::vector<unsigned char> x = ref::random_input(d, 3), y(x.size()), z(x.size());
      p.forward(x.data(), y.data());
      p.inverse(y.data(), z.data());
      ref::Values want = ref::read_side(d, true, x.data());
      double logical = (kind == FFTMUX_DCT1 ? 10 : kind == FFTMUX_DST1 ? 14 : 12) * 10;
      for (auto& v : want)
        v *= norm == FFTMUX_NORM_NONE ? logical : 1;
      EXPECT_LE(ref::relative_error(ref::read_side(d, false, z.data()), want), 1e-14)
          << "kind " << kind << " norm " << norm;
    }
}

TEST_F(R2R, ExplainNamesTheAxesKinds) {
  plan p = ctx().make_plan(r2r({8, 6}, {FFTMUX_DCT2, FFTMUX_DST1}, FFTMUX_F32, 1), "fftw");
  EXPECT_NE(p.explain().find("dct2,dst1 f32 8x6"), std::string::npos) << p.explain();
}

// Every ready backend runs a DCT, matching the definition, or declines it with the reason; routing
// takes one that runs it.
TEST_F(R2R, EveryBackendRunsItOrSaysWhy) {
  fftmux_desc d = r2r({64}, {FFTMUX_DCT4}, FFTMUX_F32, FFTMUX_NORM_BACKWARD, 3);
  int ran = 0;
  for (const fftmux_backend_info& b : ctx().backends()) {
    if (b.state != FFTMUX_BACKEND_READY)
      continue;
    fftmux_support s = ctx().query(d, b.name);
    if (!s.supported) {
      EXPECT_NE(std::string(s.reason), "") << b.name;
      continue;
    }
    plan p = ctx().make_plan(d, b.name);
    Checked c = run_checked(p, d, FFTMUX_FORWARD, ref::Method::naive, 7);
    EXPECT_LE(c.error, ref::error_bound(d)) << b.name;
    ++ran;
  }
  EXPECT_GE(ran, 1);
  plan routed = ctx().make_plan(d);
  EXPECT_TRUE(ctx().query(d, routed.backend().c_str()).supported) << routed.backend();
}

} // namespace
} // namespace fftmux::test
