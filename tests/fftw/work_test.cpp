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

double of(std::vector<int64_t> n) {
  fftmux_desc d{};
  d.precision = FFTMUX_F32;
  d.rank = uint32_t(n.size());
  for (size_t i = 0; i < n.size(); ++i)
    d.n[i] = n[i];
  return effort(d);
}

TEST(Effort, SmoothSizesCostTheirFlops) {
  for (int64_t n : {16, 1000, 1024, 4096, 6000, 3125})
    EXPECT_DOUBLE_EQ(of({n}), 1) << n;
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
  EXPECT_DOUBLE_EQ(of({17, 17}), of({17}) * of({17}));
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
