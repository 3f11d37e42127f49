// The host enforces every capability a backend's table advertises: the caps
// fixtures accept whatever they are asked and return NaNs for what their
// caps leave out, so a problem that reached one would come back wrong.
#include <fftmux/desc_geometry.hpp>
#include <fixture_test.hpp>
#include <reference.hpp>

#include <functional>
#include <vector>

namespace {

using fftmux::test::caps;
using fftmux::test::has;

// A C2C problem of 16 points in double precision, with what change sets.
fftmux_desc problem(const std::function<void(fftmux_desc&)>& change = {}) {
  fftmux_desc d = fftmux::make_desc({16}, FFTMUX_C2C, FFTMUX_F64);
  if (change)
    change(d);
  return d;
}

struct Gap {
  const char* backend;
  fftmux_desc desc;
  const char* reason;
};

std::vector<Gap> gaps() {
  return {
      {"lacks-f32", problem([](fftmux_desc& d) { d.precision = FFTMUX_F32; }),
       "backend lacks-f32 lacks FFTMUX_CAP_F32: the problem is in single precision"},
      {"lacks-f64", problem(), "backend lacks-f64 lacks FFTMUX_CAP_F64"},
      {"lacks-c2c", problem(), "backend lacks-c2c lacks FFTMUX_CAP_C2C"},
      {"trusting", problem([](fftmux_desc& d) { d.kind = FFTMUX_R2C; }),
       "backend trusting lacks FFTMUX_CAP_R2C: the problem is an R2C or C2R transform"},
      {"trusting", problem([](fftmux_desc& d) { d.kind = FFTMUX_C2R; }), "lacks FFTMUX_CAP_R2C"},
      {"lacks-strides", problem([](fftmux_desc& d) { d.in_strides[0] = 2; }),
       "backend lacks-strides lacks FFTMUX_CAP_STRIDES: the input strides {2} are not the "
       "default layout's {1}"},
      {"lacks-strides", problem([](fftmux_desc& d) { d.out_strides[0] = 3; }),
       "lacks FFTMUX_CAP_STRIDES: the output strides {3} are not the default layout's {1}"},
      {"lacks-strides", problem([](fftmux_desc& d) {
         d.batch = 2;
         d.in_distance = 20;
       }),
       "lacks FFTMUX_CAP_STRIDES: the input distance 20 is not the default layout's 16"},
      {"lacks-in-place", problem([](fftmux_desc& d) { d.flags = FFTMUX_IN_PLACE; }),
       "backend lacks-in-place lacks FFTMUX_CAP_IN_PLACE: the problem is in place"},
      {"trusting", problem([](fftmux_desc& d) { d.flags = FFTMUX_SHIFT_OUTPUT; }),
       "backend trusting lacks FFTMUX_CAP_SHIFT: the problem shifts its input or output"},
      {"trusting", problem([](fftmux_desc& d) { d.in_extent[0] = 10; }),
       "backend trusting lacks FFTMUX_CAP_PADDING: the problem pads its input or cuts its output"},
      {"trusting", problem([](fftmux_desc& d) { d.out_extent[0] = 4; }),
       "lacks FFTMUX_CAP_PADDING"},
      {"trusting", fftmux::make_desc({4, 4}, FFTMUX_C2C, FFTMUX_F64),
       "backend trusting runs rank 1 at most (max_rank): the problem has rank 2"},
      {"no-buffers", problem([](fftmux_desc& d) { d.placement = FFTMUX_DEVICE; }),
       "backend no-buffers has no buffers of its own (no buffer_alloc): DEVICE placement"},
  };
}

struct Caps : fftmux::test::FixtureTest {};

// The decline comes from the host: the fixture itself accepts everything.
TEST_F(Caps, TheHostDeclinesWhatTheCapsLeaveOutNamingTheCapability) {
  fftmux::context ctx = open(caps, {});
  for (const Gap& g : gaps()) {
    fftmux_support s = ctx.query(g.desc, g.backend);
    EXPECT_EQ(s.supported, 0u) << g.backend << ": " << g.reason;
    EXPECT_TRUE(has(s.reason, g.reason)) << s.reason;
  }
}

TEST_F(Caps, ForcingTheBackendFailsInsteadOfComputingGarbage) {
  fftmux::context ctx = open(caps, {});
  for (const Gap& g : gaps()) {
    try {
      ctx.make_plan(g.desc, g.backend);
      ADD_FAILURE() << g.backend << " planned a problem outside its caps: " << g.reason;
    } catch (const fftmux::error& e) {
      EXPECT_EQ(e.status(), FFTMUX_ERROR_UNSUPPORTED) << e.what();
      EXPECT_TRUE(has(e.what(), g.reason)) << e.what();
    }
  }
}

// Routed among them all, each problem goes to a backend that computes it right.
TEST_F(Caps, RoutingPicksACapableBackendThatComputesItRight) {
  fftmux::context ctx = open(caps, {});
  for (const Gap& g : gaps()) {
    if (g.desc.kind != FFTMUX_C2C || g.desc.rank != 1 || g.desc.flags & FFTMUX_SHIFT_OUTPUT ||
        g.desc.placement == FFTMUX_DEVICE || fftmux::geometry::padded(g.desc))
      continue; // no fixture runs these
    fftmux::plan p = ctx.make_plan(g.desc);
    EXPECT_NE(p.backend(), g.backend) << p.explain();
    std::vector<unsigned char> in = fftmux::ref::random_input(g.desc, 5);
    std::vector<unsigned char> out(fftmux::layout(g.desc).out_bytes);
    bool in_place = g.desc.flags & FFTMUX_IN_PLACE;
    p.forward(in.data(), in_place ? in.data() : out.data());
    const unsigned char* result = in_place ? in.data() : out.data();
    std::vector<unsigned char> original = fftmux::ref::random_input(g.desc, 5);
    double err =
        fftmux::ref::relative_error(fftmux::ref::read_side(g.desc, false, result),
                                    fftmux::ref::expected(g.desc, FFTMUX_FORWARD, original.data()));
    EXPECT_LE(err, fftmux::ref::error_bound(g.desc)) << p.backend() << ": " << g.reason;
  }
}

// Layouts that place every element where the default one does need no
// FFTMUX_CAP_STRIDES: a distance of a single batch, the default spelled out.
TEST_F(Caps, TheDefaultLayoutSpelledOutNeedsNoStrides) {
  fftmux::context ctx = open(caps, {});
  for (fftmux_desc d :
       {problem([](fftmux_desc& d) { d.in_distance = 40; }), problem([](fftmux_desc& d) {
          d.batch = 3;
          d.in_strides[0] = d.out_strides[0] = 1;
          d.in_distance = d.out_distance = 16;
        })}) {
    fftmux::plan p = ctx.make_plan(d, "lacks-strides");
    std::vector<unsigned char> in = fftmux::ref::random_input(d, 9);
    std::vector<unsigned char> out(fftmux::layout(d).out_bytes);
    p.forward(in.data(), out.data());
    double err = fftmux::ref::relative_error(fftmux::ref::read_side(d, false, out.data()),
                                             fftmux::ref::expected(d, FFTMUX_FORWARD, in.data()));
    EXPECT_LE(err, fftmux::ref::error_bound(d)) << d.batch;
  }
}

} // namespace
