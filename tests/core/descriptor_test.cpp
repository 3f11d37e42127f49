// Every rule of the descriptor, broken once: the status and a fragment of
// the message that names the field and the rule.
#include <fftmux/fftmux.h>

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <functional>
#include <string>

namespace {

struct Bad {
  const char* name;
  std::function<void(fftmux_desc&)> mutate;
  const char* fragment;
};

fftmux_desc base(uint32_t rank = 1, uint32_t kind = FFTMUX_C2C) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = rank;
  d.kind = kind;
  for (uint32_t i = 0; i < rank; ++i)
    d.n[i] = 8;
  return d;
}

// One row a broken rule, kept on one line each to read as a table.
// clang-format off
const Bad table[] = {
    {"struct_size_zero", [](fftmux_desc& d) { d.struct_size = 0; }, "struct_size = 0"},
    {"struct_size_small", [](fftmux_desc& d) { d.struct_size = 8; }, "struct_size = 8"},
    {"rank_zero", [](fftmux_desc& d) { d.rank = 0; }, "rank = 0: rank must be 1, 2 or 3"},
    {"rank_four", [](fftmux_desc& d) { d.rank = 4; }, "rank = 4"},
    {"rank_huge", [](fftmux_desc& d) { d.rank = UINT32_MAX; }, "rank = 4294967295"},
    {"n0_zero", [](fftmux_desc& d) { d.n[0] = 0; }, "n[0] = 0: every dimension must be at least 1"},
    {"n0_negative", [](fftmux_desc& d) { d.n[0] = -5; }, "n[0] = -5"},
    {"n0_min", [](fftmux_desc& d) { d.n[0] = INT64_MIN; }, "n[0] = -9223372036854775808"},
    {"n1_zero", [](fftmux_desc& d) { d = base(2); d.n[1] = 0; }, "n[1] = 0"},
    {"n2_negative", [](fftmux_desc& d) { d = base(3); d.n[2] = -1; }, "n[2] = -1"},
    {"batch_zero", [](fftmux_desc& d) { d.batch = 0; }, "batch = 0: batch must be at least 1"},
    {"batch_negative", [](fftmux_desc& d) { d.batch = -3; }, "batch = -3"},
    {"product_overflow", [](fftmux_desc& d) { d = base(2); d.n[0] = 1LL << 40; d.n[1] = 1LL << 30; },
     "overflows 64 bits"},
    {"batch_overflow", [](fftmux_desc& d) { d.n[0] = 1LL << 62; d.batch = 4; }, "overflows 64 bits"},
    {"bytes_overflow", [](fftmux_desc& d) { d.n[0] = 1LL << 60; }, "byte count of the data overflows"},
    {"kind_unknown", [](fftmux_desc& d) { d.kind = 4; }, "kind = 4: not a known value"},
    {"kind_max", [](fftmux_desc& d) { d.kind = UINT32_MAX; }, "kind = 4294967295"},
    {"precision_unknown", [](fftmux_desc& d) { d.precision = 4; }, "precision = 4: not a known value (0..3)"},
    {"norm_unknown", [](fftmux_desc& d) { d.norm = 4; }, "norm = 4"},
    {"placement_unknown", [](fftmux_desc& d) { d.placement = 7; }, "placement = 7"},
    {"flags_unknown", [](fftmux_desc& d) { d.flags = 8; }, "flags = 8: unknown bits"},
    {"flags_high", [](fftmux_desc& d) { d.flags = 0x80000000u; }, "unknown bits"},
    {"in_stride_negative", [](fftmux_desc& d) { d.in_strides[0] = -1; },
     "in_strides[0] = -1: strides must be positive"},
    {"out_stride_negative", [](fftmux_desc& d) { d = base(2); d.out_strides[1] = -2; },
     "out_strides[1] = -2"},
    {"in_distance_negative", [](fftmux_desc& d) { d.in_distance = -1; }, "in_distance = -1"},
    {"out_distance_negative", [](fftmux_desc& d) { d.out_distance = -4; }, "out_distance = -4"},
    {"out_batches_overlap", [](fftmux_desc& d) { d.batch = 2; d.out_distance = 4; },
     "out_distance = 4 is within the reach 7 of the smaller dimensions (out_strides[0] = 1 over 8 elements)"},
    {"out_rows_overlap", [](fftmux_desc& d) { d = base(2); d.out_strides[0] = 1; d.out_strides[1] = 1; },
     "share memory"},
    {"out_rows_interleave", [](fftmux_desc& d) { d = base(2); d.out_strides[0] = 4; },
     "share memory"},
    {"in_place_c2c_strides", [](fftmux_desc& d) { d.flags = FFTMUX_IN_PLACE; d.in_strides[0] = 2; },
     "in-place C2C needs equal layouts"},
    {"in_place_c2c_distance",
     [](fftmux_desc& d) { d.flags = FFTMUX_IN_PLACE; d.batch = 2; d.in_distance = 9; },
     "in_distance = 9 and out_distance = 8"},
    {"in_place_r2c_unpadded",
     [](fftmux_desc& d) { d = base(1, FFTMUX_R2C); d.flags = FFTMUX_IN_PLACE; d.batch = 2; d.in_distance = 8; },
     "needs the real side padded: in_distance must be 10"},
    {"in_place_r2c_2d_rows",
     [](fftmux_desc& d) { d = base(2, FFTMUX_R2C); d.flags = FFTMUX_IN_PLACE; d.in_strides[0] = 8; },
     "in_strides[0] must be 10"},
    {"in_place_r2c_strided_rows",
     [](fftmux_desc& d) {
       d = base(2, FFTMUX_R2C);
       d.flags = FFTMUX_IN_PLACE;
       d.in_strides[0] = 20, d.in_strides[1] = 2; // rows of 5 complex elements 2 apart
       d.out_strides[0] = 10, d.out_strides[1] = 2;
     },
     "in_strides[1] must be 1 and out_strides[1] 1, each complex element on its own two reals"},
    {"in_place_c2r_out_stride",
     [](fftmux_desc& d) { d = base(1, FFTMUX_C2R); d.flags = FFTMUX_IN_PLACE; d.out_strides[0] = 2; },
     "out_strides[0] must be 1"},
    {"in_place_r2c_stride_doubling_overflow", // found by tests/fuzz: 2 * 2^62 left int64
     [](fftmux_desc& d) {
       d = base(2, FFTMUX_R2C);
       d.n[0] = 1;
       d.flags = FFTMUX_IN_PLACE;
       d.out_strides[0] = 1LL << 62;
     },
     "in_strides[0] must be 2 * 4611686018427387904 (twice out_strides[0]), got 10"},
    {"r2r_unset", [](fftmux_desc& d) { d = base(1, FFTMUX_R2R); },
     "r2r[0] = 0 (NONE): an R2R descriptor needs a DCT or DST kind (1..8) on each of its 1 axes"},
    {"r2r_second_axis_unset", [](fftmux_desc& d) { d = base(2, FFTMUX_R2R); d.r2r[0] = FFTMUX_DCT2; },
     "r2r[1] = 0 (NONE)"},
    {"r2r_unknown", [](fftmux_desc& d) { d = base(1, FFTMUX_R2R); d.r2r[0] = 9; },
     "r2r[0] = 9: not a known value (0..8)"},
    {"r2r_on_c2c", [](fftmux_desc& d) { d.r2r[0] = FFTMUX_DCT2; },
     "r2r[0] = 2: a DCT or DST kind needs kind = FFTMUX_R2R (3), the kind is c2c"},
    {"dct1_one_point", [](fftmux_desc& d) { d = base(1, FFTMUX_R2R); d.n[0] = 1; d.r2r[0] = FFTMUX_DCT1; },
     "r2r[0] = 1 (DCT-I) on n[0] = 1: DCT-I needs at least 2 points"},
    {"r2r_shift", [](fftmux_desc& d) { d = base(1, FFTMUX_R2R); d.r2r[0] = FFTMUX_DST2; d.flags = FFTMUX_SHIFT_OUTPUT; },
     "SHIFT_INPUT and SHIFT_OUTPUT shift spectra of the DFT kinds (C2C, R2C, C2R), not R2R"},
    {"in_place_r2r_strides",
     [](fftmux_desc& d) { d = base(1, FFTMUX_R2R); d.r2r[0] = FFTMUX_DCT4; d.flags = FFTMUX_IN_PLACE; d.out_strides[0] = 2; },
     "in-place R2R needs equal layouts"},
    {"in_extent_negative", [](fftmux_desc& d) { d.in_extent[0] = -1; },
     "in_extent[0] = -1: extents must be positive (0 selects the whole axis)"},
    {"in_extent_past_n", [](fftmux_desc& d) { d = base(2); d.n[1] = 64; d.in_extent[1] = 70; },
     "in_extent[1] = 70 exceeds n[1] = 64"},
    {"out_extent_past_n", [](fftmux_desc& d) { d.out_extent[0] = 9; }, "out_extent[0] = 9 exceeds n[0] = 8"},
    {"r2c_out_extent_past_half", [](fftmux_desc& d) { d = base(2, FFTMUX_R2C); d.out_extent[1] = 6; },
     "out_extent[1] = 6 exceeds n[1]/2+1 = 5, the complex elements of the halved axis"},
    {"c2r_in_extent_past_half", [](fftmux_desc& d) { d = base(1, FFTMUX_C2R); d.in_extent[0] = 8; },
     "in_extent[0] = 8 exceeds n[0]/2+1 = 5"},
    {"padded_r2r", [](fftmux_desc& d) { d = base(1, FFTMUX_R2R); d.r2r[0] = FFTMUX_DCT2; d.in_extent[0] = 4; },
     "in_extent and out_extent (zero padding) apply to the DFT kinds (C2C, R2C, C2R), not R2R"},
    {"padded_in_place", [](fftmux_desc& d) { d.flags = FFTMUX_IN_PLACE; d.out_extent[0] = 4; },
     "in_extent and out_extent (zero padding) need an out-of-place plan"},
    {"padded_shift", [](fftmux_desc& d) { d.flags = FFTMUX_SHIFT_INPUT; d.in_extent[0] = 4; },
     "do not combine with SHIFT_INPUT or SHIFT_OUTPUT (flags = 1)"},
    {"in_span_overflow", [](fftmux_desc& d) { d.n[0] = 4; d.in_strides[0] = 1LL << 62; },
     "the input span overflows"},
    {"out_distance_overflow", [](fftmux_desc& d) { d.batch = 4; d.out_distance = 1LL << 62; },
     "the output span overflows"},
};
// clang-format on

class BadDescriptor : public ::testing::TestWithParam<Bad> {};

TEST_P(BadDescriptor, IsRejectedWithItsRule) {
  fftmux_desc d = base();
  GetParam().mutate(d);
  fftmux_layout l;
  l.struct_size = sizeof l;
  ASSERT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_ERROR_INVALID_ARGUMENT);
  std::string message = fftmux_last_error();
  EXPECT_NE(message.find("fftmux_desc_layout: "), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam().fragment), std::string::npos) << message;

  fftmux_context ctx = nullptr;
  ASSERT_EQ(fftmux_context_create(nullptr, &ctx), FFTMUX_OK);
  fftmux_plan plan = reinterpret_cast<fftmux_plan>(&d); // must be reset to NULL
  EXPECT_EQ(fftmux_plan_create(ctx, &d, nullptr, &plan), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(plan, nullptr);
  EXPECT_NE(std::string(fftmux_last_error()).find(GetParam().fragment), std::string::npos);
  EXPECT_EQ(fftmux_context_destroy(ctx), FFTMUX_OK);
}

INSTANTIATE_TEST_SUITE_P(Table, BadDescriptor, ::testing::ValuesIn(table),
                         [](const ::testing::TestParamInfo<Bad>& i) { return i.param.name; });

TEST(Descriptor, NullIsRejected) {
  fftmux_layout l;
  l.struct_size = sizeof l;
  EXPECT_EQ(fftmux_desc_layout(nullptr, &l), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fftmux_last_error(), "fftmux_desc_layout: desc is NULL");
}

TEST(Descriptor, TableIsLargeEnough) {
  EXPECT_GE(sizeof table / sizeof *table, 30u);
}

TEST(Descriptor, DefaultsResolve) {
  fftmux_desc d = base(2, FFTMUX_R2C);
  d.n[0] = 4;
  d.n[1] = 6;
  d.batch = 3;
  d.flags = FFTMUX_IN_PLACE;
  fftmux_layout l;
  l.struct_size = sizeof l;
  ASSERT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(l.in_strides[0], 8); // padded to 2 * (6 / 2 + 1) reals
  EXPECT_EQ(l.in_strides[1], 1);
  EXPECT_EQ(l.out_strides[0], 4);
  EXPECT_EQ(l.in_distance, 32);
  EXPECT_EQ(l.out_distance, 16);
  EXPECT_EQ(l.out_bytes, 3u * 16 * 8);
  EXPECT_STREQ(fftmux_last_error(), "");
}

// Real-to-real sides are real on both ends, unpadded in place.
TEST(Descriptor, R2RLayoutIsRealOnBothSides) {
  fftmux_desc d = base(2, FFTMUX_R2R);
  d.r2r[0] = FFTMUX_DCT2;
  d.r2r[1] = FFTMUX_DST1;
  d.n[0] = 4;
  d.n[1] = 6;
  d.batch = 3;
  d.flags = FFTMUX_IN_PLACE;
  d.precision = FFTMUX_F64;
  fftmux_layout l;
  l.struct_size = sizeof l;
  ASSERT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(l.in_strides[0], 6);
  EXPECT_EQ(l.out_distance, 24);
  EXPECT_EQ(l.in_bytes, 3u * 24 * 8);
  EXPECT_EQ(l.out_bytes, 3u * 24 * 8);
}

// A descriptor of the first release ends before r2r: whatever follows in
// the caller's memory reads as NONE.
TEST(Descriptor, StructWithoutR2RReadsItAsNone) {
  fftmux_desc d = base();
  d.struct_size = offsetof(fftmux_desc, r2r);
  d.r2r[0] = 77; // past struct_size: not the caller's
  fftmux_layout l;
  l.struct_size = sizeof l;
  EXPECT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK) << fftmux_last_error();
  d.kind = FFTMUX_R2R;
  EXPECT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("r2r[0] = 0 (NONE)"), std::string::npos);
}

// A complex F16 or BF16 value is 4 bytes, a real one 2.
TEST(Descriptor, SixteenBitElementSizes) {
  for (uint32_t p : {FFTMUX_F16, FFTMUX_BF16}) {
    fftmux_desc d = base(1, FFTMUX_R2C);
    d.n[0] = 10;
    d.batch = 3;
    d.precision = p;
    fftmux_layout l;
    l.struct_size = sizeof l;
    ASSERT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK) << fftmux_last_error();
    EXPECT_EQ(l.in_bytes, 3u * 10 * 2);
    EXPECT_EQ(l.out_bytes, 3u * 6 * 4);
  }
}

TEST(Descriptor, OlderShorterStructIsAccepted) {
  fftmux_desc d = base();
  d.n[0] = 16;
  fftmux_layout l;
  l.struct_size = sizeof l;
  ASSERT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK);
  EXPECT_EQ(l.out_bytes, 16u * 8);
}

} // namespace

namespace {

fftmux_layout layout_of(const fftmux_desc& d) {
  fftmux_layout l;
  l.struct_size = sizeof l;
  EXPECT_EQ(fftmux_desc_layout(&d, &l), FFTMUX_OK) << fftmux_last_error();
  return l;
}

} // namespace

// A padded side's default layout is the packed array of its held extents.
TEST(Descriptor, PaddedSidesLayOutTheirHeldArrays) {
  fftmux_desc d = base(2, FFTMUX_R2C);
  d.n[0] = 10;
  d.n[1] = 12; // complex side 10 x 7
  d.batch = 2;
  d.in_extent[0] = 4;
  d.in_extent[1] = 5;
  d.out_extent[1] = 3;
  fftmux_layout l = layout_of(d);
  EXPECT_EQ(l.in_strides[0], 5);
  EXPECT_EQ(l.in_distance, 20);
  EXPECT_EQ(l.in_bytes, 2u * 20 * 4);
  EXPECT_EQ(l.out_strides[0], 3);
  EXPECT_EQ(l.out_distance, 30);
  EXPECT_EQ(l.out_bytes, 2u * 30 * 8);
}

// Extents that hold the whole axis are no padding: the layout is the
// unpadded one, and axes past the rank are ignored.
TEST(Descriptor, WholeExtentsAreNoPadding) {
  fftmux_desc d = base(1, FFTMUX_C2R);
  d.in_extent[0] = 5; // n/2+1
  d.out_extent[0] = 8;
  d.in_extent[2] = 99;
  fftmux_layout l = layout_of(d);
  EXPECT_EQ(l.in_bytes, 5u * 8);
  EXPECT_EQ(l.out_bytes, 8u * 4);
}

// A descriptor ending before the extents reads them as 0: no padding.
TEST(Descriptor, StructWithoutExtentsReadsNoPadding) {
  fftmux_desc d = base();
  d.struct_size = offsetof(fftmux_desc, in_extent);
  d.in_extent[0] = -7; // past struct_size: not the caller's
  EXPECT_EQ(layout_of(d).in_bytes, 8u * 8);
}
