// A device model's price across transform lengths: the terms' sum times the
// factor its throughput probes measured at their lengths, interpolated in
// log2 of the points; the factors survive the file, and a damaged entry is
// reported with the file and the rule it broke. The odd probe's factor prices F32 odd smooth
// rows alone.
#include <calibration.hpp>
#include <error.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using fftmux::Model;

Model model() {
  Model m;
  m.backend = "software";
  m.hardware = "cpu";
  m.seconds[fftmux::flop_f32] = 1e-9;
  m.lengths = {{256, 0.8}, {16384, 2.0}, {1 << 20, 1.5}};
  m.probes = "c2c f32 256 x8 device 1 us";
  m.timestamp = "2026-12-07T00:00:00Z";
  return m;
}

TEST(LengthFactor, InterpolatesInLog2OfThePointsAndHoldsTheEnds) {
  Model m = model();
  EXPECT_DOUBLE_EQ(m.length_factor(16), 0.8);
  EXPECT_DOUBLE_EQ(m.length_factor(256), 0.8);
  EXPECT_DOUBLE_EQ(m.length_factor(2048), 0.8 + 0.5 * (2.0 - 0.8)); // halfway: 2^11 of 2^8..2^14
  EXPECT_DOUBLE_EQ(m.length_factor(1 << 17), 2.0 + 0.5 * (1.5 - 2.0));
  EXPECT_DOUBLE_EQ(m.length_factor(double(1 << 24)), 1.5);
  m.lengths.clear();
  EXPECT_DOUBLE_EQ(m.length_factor(1 << 20), 1);
}

TEST(LengthFactor, ScalesThePriceOfTheWork) {
  Model m = model();
  fftmux::Work w;
  w.flops = 1e6;
  EXPECT_DOUBLE_EQ(m.price(w, FFTMUX_F32, 256), 1e-3 * 0.8);
  EXPECT_DOUBLE_EQ(m.price(w, FFTMUX_F32, 1 << 20), 1e-3 * 1.5);
  fftmux::Work none;
  EXPECT_LT(m.price(none, FFTMUX_F32, 256), 0) << "work with no cost has no price";
}

TEST(OddRows, TakeTheOddFactorInF32Only) {
  Model m = model();
  m.odd = 3;
  fftmux::Work w;
  w.flops = 1e6;
  EXPECT_DOUBLE_EQ(m.price(w, FFTMUX_F32, 256, true), 1e-3 * 0.8 * 3);
  EXPECT_DOUBLE_EQ(m.price(w, FFTMUX_F32, 256, false), 1e-3 * 0.8);
  EXPECT_DOUBLE_EQ(m.price(w, FFTMUX_F64, 256, true), m.price(w, FFTMUX_F64, 256, false));
  auto desc = [](std::vector<int64_t> n, fftmux_kind kind = FFTMUX_C2C) {
    fftmux_desc d;
    fftmux_desc_init(&d);
    d.rank = uint32_t(n.size());
    std::copy(n.begin(), n.end(), d.n);
    d.kind = kind;
    return d;
  };
  EXPECT_TRUE(fftmux::odd_rows(desc({45, 45, 45})));
  EXPECT_TRUE(fftmux::odd_rows(desc({64, 3375}, FFTMUX_R2C)));
  EXPECT_FALSE(fftmux::odd_rows(desc({45, 300}))) << "even rows";
  EXPECT_FALSE(fftmux::odd_rows(desc({4093}))) << "a prime above the smooth radices";
  EXPECT_FALSE(fftmux::odd_rows(desc({45}, FFTMUX_R2R))) << "R2R: a DFT of even logical size";
}

struct ModelFile : ::testing::Test {
  std::string path = (fs::temp_directory_path() / "fftmux-model-test.toml").string();
  void TearDown() override { fs::remove(path); }
};

TEST_F(ModelFile, KeepsTheLengthFactors) {
  fftmux::merge_model(path, model());
  std::vector<Model> read = fftmux::read_models(path);
  ASSERT_EQ(read.size(), 1u);
  ASSERT_EQ(read[0].lengths.size(), 3u);
  EXPECT_DOUBLE_EQ(read[0].lengths[1].points, 16384);
  EXPECT_DOUBLE_EQ(read[0].lengths[1].factor, 2.0);
  EXPECT_DOUBLE_EQ(read[0].length_factor(2048), model().length_factor(2048));
}

TEST_F(ModelFile, KeepsTheOddFactorAndRefusesABadOne) {
  Model m = model();
  m.odd = 2.5;
  fftmux::merge_model(path, m);
  std::vector<Model> read = fftmux::read_models(path);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_DOUBLE_EQ(read[0].odd, 2.5);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  in.close();
  size_t at = text.find("odd = ");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, text.find('\n', at) - at, "odd = 0");
  std::ofstream(path) << text;
  try {
    fftmux::read_models(path);
    ADD_FAILURE() << "accepted odd = 0";
  } catch (const fftmux::Error& e) {
    EXPECT_NE(std::string(e.what()).find("odd must be a positive number"), std::string::npos)
        << e.what();
  }
}

TEST_F(ModelFile, ADamagedLengthIsReportedWithTheFileAndTheRule) {
  fftmux::merge_model(path, model());
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  in.close();
  for (const char* bad : {"[[256, 0.8], [128, 2.0]]", "[[256, -1]]", "[256, 0.8]", "\"x\""}) {
    std::string damaged = text;
    size_t at = damaged.find("lengths = ");
    ASSERT_NE(at, std::string::npos) << text;
    damaged.replace(at, damaged.find('\n', at) - at, std::string("lengths = ") + bad);
    std::ofstream(path) << damaged;
    try {
      fftmux::read_models(path);
      ADD_FAILURE() << "accepted lengths = " << bad;
    } catch (const fftmux::Error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find("lengths must"), std::string::npos) << what;
    }
  }
}

} // namespace
