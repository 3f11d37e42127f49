// The checks that stand between an engine and a reported time: right
// outputs pass, unwritten (NaN) or wrong elements anywhere fail, copies
// must be exact.
#include "cpu_engines.hpp"
#include "data.hpp"

#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace bench;

namespace {

fftmux_desc problem(std::vector<int64_t> n, fftmux_kind kind, fftmux_precision p, int64_t batch) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = uint32_t(n.size());
  std::copy(n.begin(), n.end(), d.n);
  d.kind = kind;
  d.precision = p;
  d.batch = batch;
  d.norm = FFTMUX_NORM_NONE;
  return d;
}

std::unique_ptr<Engine> engine(const char* name) {
  Engines all;
  add_cpu_engines({FFTW_ESTIMATE, 1, 1 << 16}, all);
  for (auto& e : all)
    if (e->info().name == name)
      return std::move(e);
  return nullptr;
}

// Forward into host mid and inverse into host back, by the named engine.
void run(const char* name, Data& d) {
  auto r = engine(name)->open(d.desc, d.host);
  r->plan();
  r->write(Slot::in, d.host.in);
  r->launch(FFTMUX_FORWARD);
  r->read(Slot::mid, d.host.mid);
  r->launch(FFTMUX_INVERSE);
  r->read(Slot::back, d.host.back);
}

Verdict judge(const Data& d, Family f = Family::peer) {
  Verdict v = verify_forward(d, f);
  if (v.ok)
    verify_inverse(d, f, v);
  return v;
}

bool sampled(const Data& d, int64_t row) {
  const auto& rows = d.reference.rows;
  return std::find(rows.begin(), rows.end(), row) != rows.end();
}

TEST(Verify, RightOutputsPassInFull) {
  for (const fftmux_desc& desc :
       {problem({16}, FFTMUX_C2C, FFTMUX_F32, 4), problem({1000}, FFTMUX_C2C, FFTMUX_F32, 8),
        problem({8, 12}, FFTMUX_R2C, FFTMUX_F64, 5), problem({4, 4, 4}, FFTMUX_C2C, FFTMUX_F32, 3),
        problem({4093}, FFTMUX_R2C, FFTMUX_F32, 2)}) {
    auto d = make_data(desc, 7, 1 << 20);
    run("fftw", *d);
    Verdict v = judge(*d);
    EXPECT_TRUE(v.ok) << v.reason;
    EXPECT_EQ(v.rows_checked, desc.batch);
    EXPECT_LE(v.forward_error, v.bound);
    EXPECT_LE(v.round_trip_error, 2 * v.bound);
  }
}

TEST(Verify, SamplesSpanTheBatch) {
  auto d = make_data(problem({64}, FFTMUX_C2C, FFTMUX_F32, 1000), 1, 64 * 10);
  const auto& rows = d->reference.rows;
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows.front(), 0);
  EXPECT_EQ(rows.back(), 999);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
}

// The trap of VkFFT 1.2.26: part of a large batch left unwritten.
TEST(Verify, AnUnwrittenElementOutsideTheSampledRowsFails) {
  auto d = make_data(problem({256}, FFTMUX_C2C, FFTMUX_F32, 512), 3, 256 * 4);
  run("fftw", *d);
  ASSERT_TRUE(judge(*d).ok);
  int64_t row = 300;
  ASSERT_FALSE(sampled(*d, row));
  float* mid = static_cast<float*>(d->host.mid);
  mid[2 * (row * 256 + 17)] = NAN;
  Verdict v = judge(*d);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("forward output element " + std::to_string(2 * (row * 256 + 17))),
            std::string::npos)
      << v.reason;
}

TEST(Verify, AWrongSampledRowFailsTheForwardCheck) {
  auto d = make_data(problem({128}, FFTMUX_C2C, FFTMUX_F64, 64), 3, 128 * 4);
  run("fftw", *d);
  static_cast<double*>(d->host.mid)[2 * 128 * 63 + 5] += 1.0; // row 63 is the last: sampled
  Verdict v = judge(*d);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("forward error"), std::string::npos) << v.reason;
}

TEST(Verify, AWrongUnsampledRowFailsTheRoundTrip) {
  auto d = make_data(problem({128}, FFTMUX_R2C, FFTMUX_F32, 256), 3, 128 * 4);
  run("fftw", *d);
  ASSERT_FALSE(sampled(*d, 100));
  static_cast<float*>(d->host.back)[128 * 100 + 3] *= 1.001f;
  Verdict v = judge(*d);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.reason.find("round trip"), std::string::npos) << v.reason;
  static_cast<float*>(d->host.back)[128 * 100 + 3] = NAN;
  v = judge(*d);
  EXPECT_NE(v.reason.find("inverse output element"), std::string::npos) << v.reason;
}

TEST(Verify, CopiesMustBeExact) {
  auto d = make_data(problem({32}, FFTMUX_C2C, FFTMUX_F32, 8), 5, 1 << 10);
  run("memcpy", *d);
  EXPECT_TRUE(judge(*d, Family::copy).ok);
  static_cast<unsigned char*>(d->host.back)[100] ^= 1;
  Verdict v = judge(*d, Family::copy);
  EXPECT_FALSE(v.ok);
  EXPECT_FALSE(v.reason.empty());
}

TEST(Verify, PoisonIsNaNInBothPrecisions) {
  auto d = make_data(problem({8}, FFTMUX_C2C, FFTMUX_F64, 1), 1, 8);
  poison_host(*d);
  EXPECT_TRUE(std::isnan(static_cast<double*>(d->host.mid)[0]));
  EXPECT_TRUE(std::isnan(static_cast<float*>(d->host.back)[1]));
  EXPECT_FALSE(verify_forward(*d, Family::peer).ok);
}

} // namespace
