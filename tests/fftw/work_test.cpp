// The effort the FFTW backend weighs its flops by and the passes its bytes
// stream past the first cache (plugins/fftw/work.hpp):
// smooth sizes cost their flops, each prime factor above the codelets its
// Rader convolution.
#include "work.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using fftmux::fftw::effort;

double of(std::vector<int64_t> n, uint32_t precision = FFTMUX_F32, uint32_t kind = FFTMUX_C2C) {
  fftmux_desc d{};
  d.precision = precision;
  d.kind = kind;
  d.rank = uint32_t(n.size());
  for (size_t i = 0; i < n.size(); ++i)
    d.n[i] = n[i];
  return effort(d);
}

TEST(Effort, SmoothSizesCostTheirFlops) {
  for (int64_t n : {16, 1000, 1024, 4096, 6000})
    EXPECT_DOUBLE_EQ(of({n}), 1) << n;
  EXPECT_DOUBLE_EQ(of({3125}, FFTMUX_F64), 1);
}

TEST(Effort, EachRaderPrimeWeighs) {
  // Every prime factor above 16 weighs: 4097 = 17 x 241 as much as 4093.
  double p4093 = of({4093}), p4097 = of({4097}), p10007 = of({10007});
  EXPECT_DOUBLE_EQ(p4093, 1 + std::log2(4093.0) / 2);
  EXPECT_DOUBLE_EQ(p4097, 1 + std::log2(17.0) / 2 + std::log2(241.0) / 2);
  EXPECT_DOUBLE_EQ(p10007, 1 + std::log2(10007.0) / 2);
  EXPECT_GT(p4097, 1 + std::log2(241.0) / 2);
  EXPECT_DOUBLE_EQ(of({17 * 17}), 1 + std::log2(17.0));
}

TEST(Effort, EachAxisWeighs) {
  EXPECT_DOUBLE_EQ(of({17, 17}, FFTMUX_F64), of({17}, FFTMUX_F64) * of({17}, FFTMUX_F64));
}

// A strided axis weighs where its step is a multiple of 4 KiB and the transform overflows the
// cache: C2R 64x8190 F32 (rows of 4096 complex elements, 32 KiB), not 1000x1000 (8000 B), nor
// R2C's 513 complex rows of 1024, nor a C2C of power-of-two steps, which runs transposed.
TEST(Effort, OnlyCriticalStepsWeigh) {
  EXPECT_DOUBLE_EQ(of({64, 8190}, FFTMUX_F32, FFTMUX_C2R),
                   1 + std::log2(64.0 * 8190 * 8 / (512 * 1024)));
  EXPECT_DOUBLE_EQ(of({1000, 1000}), 1);
  EXPECT_DOUBLE_EQ(of({1024, 1024}, FFTMUX_F32, FFTMUX_R2C), 1);
  EXPECT_DOUBLE_EQ(of({1024, 1024}), 1);
  EXPECT_DOUBLE_EQ(of({64, 64, 64}, FFTMUX_F64), 1);
  EXPECT_DOUBLE_EQ(of({45, 45, 45}, FFTMUX_F64), 1); // steps of 720 B and 32400 B
}

// Odd rows: smooth F32 ones lose FFTW's vectors, R2C and C2R their half-length line.
TEST(Effort, OddRowsWeigh) {
  EXPECT_DOUBLE_EQ(of({45, 45}, FFTMUX_F64), 1);
  EXPECT_DOUBLE_EQ(of({45, 45}), 1.5);
  EXPECT_DOUBLE_EQ(of({45, 45}, FFTMUX_F64, FFTMUX_R2C), 1.5);
  EXPECT_DOUBLE_EQ(of({45, 45}, FFTMUX_F32, FFTMUX_R2C), 2.25);
  EXPECT_DOUBLE_EQ(of({45, 48}), 1);
  EXPECT_DOUBLE_EQ(of({4093}), 1 + std::log2(4093.0) / 2); // Rader's effort holds it
}

// A DCT or DST costs a real DFT of its logical size and half as much again; Rader's primes of
// the logical size weigh (DCT-I of 1024: N' = 2046 = 2 x 3 x 11 x 31).
TEST(Effort, RealToRealCostsItsLogicalSize) {
  auto r2r = [](int64_t n, uint32_t kind) {
    fftmux_desc d{};
    d.precision = FFTMUX_F64;
    d.kind = FFTMUX_R2R;
    d.rank = 1;
    d.n[0] = n;
    d.r2r[0] = kind;
    return effort(d);
  };
  EXPECT_DOUBLE_EQ(r2r(1024, FFTMUX_DCT2), 1.5 * 2 * 11 / 10);
  EXPECT_DOUBLE_EQ(r2r(1024, FFTMUX_DST4), r2r(1024, FFTMUX_DCT2));
  double dct1 = 1.5 * 2046 * std::log2(2046.0) / (1024 * 10);
  EXPECT_DOUBLE_EQ(r2r(1024, FFTMUX_DCT1), dct1 * (1 + std::log2(31.0) / 2));
}

// Bytes stream past the first cache once a doubling past it: none for a
// transform that fits, one more pass each time the transform doubles.
TEST(Spill, ATransformPastTheFirstCacheStreamsOnceADoubling) {
  auto spill_of = [](std::vector<int64_t> n, uint32_t precision) {
    fftmux_desc d{};
    d.precision = precision;
    d.rank = uint32_t(n.size());
    for (size_t i = 0; i < n.size(); ++i)
      d.n[i] = n[i];
    return fftmux::fftw::spill(d);
  };
  EXPECT_EQ(spill_of({256}, FFTMUX_F32), 0);
  EXPECT_EQ(spill_of({4096}, FFTMUX_F32), 0); // 32 KiB: fits
  EXPECT_DOUBLE_EQ(spill_of({1 << 20}, FFTMUX_F32), 8);
  EXPECT_DOUBLE_EQ(spill_of({1 << 20}, FFTMUX_F64), 9);
  EXPECT_DOUBLE_EQ(spill_of({1024, 1024}, FFTMUX_F32), spill_of({1 << 20}, FFTMUX_F32));
}

} // namespace
