// Every bad argument of fftmux_convolution_* is refused with a status and a
// message naming it and its rule.
#include <fftmux/fftmux.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

struct ConvolutionArguments : ::testing::Test {
  fftmux_context ctx = nullptr;
  fftmux_conv_desc d;
  std::vector<double> filter = std::vector<double>(64, 0.5);
  void SetUp() override {
    ASSERT_EQ(fftmux_context_create(nullptr, &ctx), FFTMUX_OK);
    fftmux_conv_desc_init(&d);
    d.n[0] = 16;
    d.m[0] = 4;
    d.precision = FFTMUX_F64;
  }
  void TearDown() override { EXPECT_EQ(fftmux_context_destroy(ctx), FFTMUX_OK); }
  fftmux_status create(uint32_t layout = FFTMUX_FILTER_SIGNAL) {
    fftmux_convolution conv = nullptr;
    fftmux_status s = fftmux_convolution_create(ctx, &d, filter.data(), layout, nullptr, &conv);
    EXPECT_EQ(conv == nullptr, s != FFTMUX_OK);
    if (conv) // a successful call would clear the message
      fftmux_convolution_destroy(conv);
    return s;
  }
};

void expect(fftmux_status got, fftmux_status want, const std::string& words) {
  EXPECT_EQ(got, want);
  EXPECT_NE(std::string(fftmux_last_error()).find(words), std::string::npos) << fftmux_last_error();
}

TEST_F(ConvolutionArguments, BadDescriptorsAreRefusedWithTheRule) {
  const fftmux_status BAD = FFTMUX_ERROR_INVALID_ARGUMENT;
  struct Edit {
    std::function<void(fftmux_conv_desc&)> edit;
    fftmux_status status;
    const char* words;
  };
  const Edit edits[] = {
      {[](auto& x) { x.struct_size = 8; }, BAD, "fftmux_conv_desc_init"},
      {[](auto& x) { x.rank = 4; }, BAD, "desc->rank = 4"},
      {[](auto& x) { x.n[0] = 0; }, BAD, "desc->n[0] = 0"},
      {[](auto& x) { x.m[0] = -3; }, BAD, "desc->m[0] = -3"},
      {[](auto& x) { x.batch = 0; }, BAD, "desc->batch = 0"},
      {[](auto& x) { x.filters = 0; }, BAD, "desc->filters = 0"},
      {[](auto& x) { x.kind = FFTMUX_C2R; }, BAD, "desc->kind = 2"},
      {[](auto& x) { x.precision = 9; }, BAD, "desc->precision = 9"},
      {[](auto& x) { x.mode = 4; }, BAD, "desc->mode = 4: unknown"},
      {[](auto& x) { x.correlate = 2; }, BAD, "desc->correlate = 2"},
      {[](auto& x) { x.placement = 7; }, BAD, "desc->placement = 7"},
      {[](auto& x) { x.mode = FFTMUX_CONV_VALID, x.m[0] = 17; }, BAD, "m[0] = 17 exceeds n[0]"},
      {[](auto& x) { x.mode = FFTMUX_CONV_CIRCULAR, x.m[0] = 17; }, BAD, "mode circular"},
      {[](auto& x) { x.rank = 3, x.n[1] = x.n[2] = int64_t(1) << 30; }, BAD, "exceeds 2^40"},
      {[](auto& x) { x.batch = x.filters = int64_t(1) << 30; }, BAD, "exceeds 2^40"},
  };
  for (const Edit& e : edits) {
    fftmux_conv_desc_init(&d);
    d.n[0] = 16;
    d.m[0] = 4;
    e.edit(d);
    SCOPED_TRACE(e.words);
    expect(create(), e.status, e.words);
    EXPECT_EQ(std::string(fftmux_last_error()).rfind("fftmux_convolution_create: ", 0), 0u);
    expect(fftmux_convolution_sizes(&d, nullptr, nullptr), e.status, e.words);
  }
}

TEST_F(ConvolutionArguments, NullPointersAndUnknownLayoutsAreRefused) {
  fftmux_convolution conv = nullptr;
  const fftmux_status BAD = FFTMUX_ERROR_INVALID_ARGUMENT;
  expect(fftmux_convolution_create(nullptr, &d, filter.data(), 0, nullptr, &conv), BAD,
         "context is NULL");
  expect(fftmux_convolution_create(ctx, nullptr, filter.data(), 0, nullptr, &conv), BAD,
         "desc is NULL");
  expect(fftmux_convolution_create(ctx, &d, nullptr, 0, nullptr, &conv), BAD, "filter is NULL");
  expect(fftmux_convolution_create(ctx, &d, filter.data(), 0, nullptr, nullptr), BAD,
         "convolution is NULL");
  expect(fftmux_convolution_create(ctx, &d, filter.data(), 2, nullptr, &conv), BAD,
         "filter_layout = 2");
  fftmux_convolution_options o{};
  o.struct_size = 4;
  expect(fftmux_convolution_create(ctx, &d, filter.data(), 0, &o, &conv), BAD,
         "fftmux_convolution_options_init");
  fftmux_convolution_options_init(&o);
  o.backend = "no-such-backend";
  expect(fftmux_convolution_create(ctx, &d, filter.data(), 0, &o, &conv), FFTMUX_ERROR_NOT_FOUND,
         "no-such-backend");
  double x[16] = {}, y[19];
  expect(fftmux_convolution_execute(nullptr, x, y), BAD, "convolution is NULL");
  ASSERT_EQ(fftmux_convolution_create(ctx, &d, filter.data(), 0, nullptr, &conv), FFTMUX_OK)
      << fftmux_last_error();
  expect(fftmux_convolution_execute(conv, nullptr, y), BAD, "signal is NULL");
  expect(fftmux_convolution_execute(conv, x, nullptr), BAD, "out is NULL");
  expect(fftmux_convolution_explain(nullptr, nullptr, 0, nullptr), BAD, "convolution is NULL");
  EXPECT_EQ(fftmux_convolution_destroy(conv), FFTMUX_OK);
  EXPECT_EQ(fftmux_convolution_destroy(nullptr), FFTMUX_OK);
}

TEST_F(ConvolutionArguments, NonFiniteFiltersAreRefusedWhereTheyAre) {
  filter[3] = std::nan("");
  expect(create(), FFTMUX_ERROR_INVALID_ARGUMENT, "filter[3] (counting real scalars) is nan");
  filter[3] = 0;
  d.kind = FFTMUX_R2C;
  filter[2] = INFINITY;
  expect(create(), FFTMUX_ERROR_INVALID_ARGUMENT, "filter[2]");
  // A spectrum: the padded size's L/2+1 complex values are read.
  d.n[0] = 8;
  d.m[0] = 2;
  filter[2] = 0;
  filter[2 * 5 - 1] = -INFINITY; // L = 9: 5 complex values
  expect(create(FFTMUX_FILTER_SPECTRUM), FFTMUX_ERROR_INVALID_ARGUMENT, "filter[9]");
}

} // namespace
