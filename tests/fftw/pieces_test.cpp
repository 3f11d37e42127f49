// The FFTW backend's own execution paths around FFTW's plans: batches cut into pieces, one
// thread a piece (plugins/fftw/threads.hpp), with pieces of unequal size, odd distances, in
// place and out, R2C, C2R and C2C, and the count of threads the plan reports; and 2D C2C as rows
// and transposes (plugins/fftw/transposed.hpp). Every transform of the batch against FFTW in
// double.
#include "run_check.hpp"
#include "transposed.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace fftmux::test {
namespace {

std::unique_ptr<context> shared;

class Pieces : public ::testing::Test {
protected:
  static void SetUpTestSuite() { shared = std::make_unique<context>(); }
  static void TearDownTestSuite() { shared.reset(); }
};

fftmux_desc batched(std::vector<int64_t> n, fftmux_kind kind, int64_t batch, uint32_t precision,
                    bool in_place = false) {
  fftmux_desc d = make_desc(n, kind);
  d.batch = batch;
  d.precision = precision;
  if (in_place)
    d.flags = FFTMUX_IN_PLACE;
  return d;
}

// Runs d on `threads` and compares each direction with the reference (out
// of place, the input must survive); returns the threads the plan's
// explain reports.
uint32_t check(const fftmux_desc& d, uint32_t threads) {
  plan p = shared->make_plan(d, "fftw", nullptr, threads);
  for (int dir : ref::directions(d)) {
    Checked c = run_checked(p, d, dir, ref::Method::fftw, 11);
    std::string what = "batch " + std::to_string(d.batch) + " kind " + std::to_string(d.kind) +
                       " dir " + std::to_string(dir) + " threads " + std::to_string(threads);
    EXPECT_LE(c.error, ref::error_bound(d)) << what;
    EXPECT_TRUE(c.input_kept) << what << ": the input changed";
  }
  std::string e = p.explain();
  size_t at = e.find("threads: ");
  EXPECT_NE(at, std::string::npos) << e;
  return at == std::string::npos ? 0 : uint32_t(std::stoul(e.substr(at + 9)));
}

TEST_F(Pieces, OddRealStepsRunInAlignedPiecesOfUnequalSize) {
  // 16383 F32 reals a transform: pieces of 12 and 5 on 2 threads.
  EXPECT_EQ(check(batched({127, 129}, FFTMUX_R2C, 17, FFTMUX_F32), 2), 2u);
  EXPECT_EQ(check(batched({127, 129}, FFTMUX_C2R, 17, FFTMUX_F32), 2), 2u);
}

TEST_F(Pieces, EveryThreadRunsAPiece) {
  EXPECT_EQ(check(batched({1000}, FFTMUX_C2C, 300, FFTMUX_F32), 3), 3u);
  EXPECT_EQ(check(batched({4097}, FFTMUX_C2C, 71, FFTMUX_F64), 4), 4u);
  EXPECT_EQ(check(batched({300, 300}, FFTMUX_R2C, 3, FFTMUX_F64, true), 3), 3u);
}

// A measure plan leaves wisdom of the whole batch, which then serves the
// default in place of pieces.
TEST_F(Pieces, TheDefaultRunsOnTheMeasuredWisdomOfTheWholeBatch) {
  fftmux_desc d = batched({2048}, FFTMUX_R2C, 160, FFTMUX_F32);
  shared->make_plan(d, "fftw", "measure", 2);
  EXPECT_EQ(check(d, 2), 2u);
}

TEST_F(Pieces, SmallBatchesRunWhole) {
  // Three transforms of 91125 F32 reals fill one aligned piece of four.
  EXPECT_EQ(check(batched({45, 45, 45}, FFTMUX_R2C, 3, FFTMUX_F32), 2), 2u);
  EXPECT_EQ(check(batched({64}, FFTMUX_C2C, 8, FFTMUX_F32), 4), 4u);
}

// C2C (2D, 3D) and R2C (2D, out of place) with a strided axis whose step is a multiple of 512
// bytes: lines and transposes, both directions, in place and out, F32 and F64, batches, on one
// thread and two; wisdom of a measured plan serves instead.
TEST_F(Pieces, PowerOfTwoStepsRunTransposed) {
  auto transposes = [](std::vector<int64_t> n, int64_t bytes) {
    return fftw::transposes(n.data(), uint32_t(n.size()), bytes);
  };
  EXPECT_TRUE(transposes({256, 256}, 8));
  EXPECT_TRUE(transposes({1536, 1536}, 8));
  EXPECT_TRUE(transposes({64, 64, 64}, 8)); // 512 B and 32 KiB steps
  EXPECT_FALSE(transposes({300, 300}, 8));  // 2400 B steps spread over the cache
  EXPECT_FALSE(transposes({45, 45, 45}, 8));
  EXPECT_FALSE(transposes({128, 128}, 8)); // 128 KiB: in the cache
  EXPECT_FALSE(transposes({65536}, 16));   // a line
  EXPECT_EQ(check(batched({256, 256}, FFTMUX_C2C, 3, FFTMUX_F32), 1), 1u);
  EXPECT_EQ(check(batched({256, 512}, FFTMUX_C2C, 2, FFTMUX_F64, true), 2), 2u);
  EXPECT_EQ(check(batched({384, 256}, FFTMUX_C2C, 1, FFTMUX_F32, true), 2), 2u);
  EXPECT_EQ(check(batched({64, 32, 64}, FFTMUX_C2C, 3, FFTMUX_F32), 2), 2u);
  EXPECT_EQ(check(batched({16, 64, 128}, FFTMUX_C2C, 1, FFTMUX_F64, true), 1), 1u);
  EXPECT_EQ(check(batched({512, 254}, FFTMUX_R2C, 2, FFTMUX_F32), 2), 2u); // rows of 128 complex
  EXPECT_EQ(check(batched({256, 510}, FFTMUX_R2C, 1, FFTMUX_F64), 1), 1u);
  // 1023 x 1022 reals a transform: the second starts 8 bytes off FFTW's alignment.
  EXPECT_EQ(check(batched({1023, 1022}, FFTMUX_R2C, 2, FFTMUX_F32), 1), 1u);
  fftmux_desc measured = batched({512, 256}, FFTMUX_C2C, 1, FFTMUX_F32);
  shared->make_plan(measured, "fftw", "measure", 2);
  EXPECT_EQ(check(measured, 2), 2u);
}

} // namespace
} // namespace fftmux::test
