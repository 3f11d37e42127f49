// Padded sides in the generator: the lines each pass runs, the scratch a cut
// output takes between passes, and the guards of the emitted loads and stores.
#include <fftmux/codegen.hpp>

#include <gtest/gtest.h>
#include <reference.hpp>

#include <string>
#include <vector>

namespace fftmux::codegen {
namespace {

// A resolved 2D or 3D descriptor with its held extents.
fftmux_desc padded(std::vector<int64_t> n, std::vector<int64_t> in, std::vector<int64_t> out,
                   fftmux_kind kind = FFTMUX_C2C) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = uint32_t(n.size());
  d.kind = kind;
  for (size_t i = 0; i < n.size(); ++i) {
    d.n[i] = n[i];
    d.in_extent[i] = in[i];
    d.out_extent[i] = out[i];
  }
  return ref::resolved(d);
}

int direction(const fftmux_desc& d) {
  return d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
}

// The lines each pass of a plan transforms.
std::vector<int64_t> lines(const Plan& p) {
  std::vector<int64_t> l;
  for (const Pass& pass : p.passes)
    l.push_back(pass.kernel.transforms());
  return l;
}

// The rows of a 64 x 64 input holding 8 x 20 are transformed 8 at a time
// (the other 56 are zero), the columns only the 10 of 64 the output wants.
TEST(Padding, PassesSkipTheZeroAndUnwantedLines) {
  Plan p = plan(padded({64, 64}, {8, 20}, {64, 10}), FFTMUX_FORWARD, Device{});
  EXPECT_EQ(lines(p), (std::vector<int64_t>{8, 10}));
  Plan whole = plan(padded({64, 64}, {0, 0}, {0, 0}), FFTMUX_FORWARD, Device{});
  EXPECT_EQ(lines(whole), (std::vector<int64_t>{64, 64}));
}

// A cut output cannot hold the data between passes: they go through
// scratch, the last pass writing the output.
TEST(Padding, ACutOutputTakesScratchBetweenPasses) {
  Plan p = plan(padded({16, 16, 16}, {0, 0, 0}, {4, 16, 16}), FFTMUX_FORWARD, Device{});
  ASSERT_EQ(p.passes.size(), 3u);
  EXPECT_EQ(p.passes[0].dst, Binding::scratch);
  EXPECT_EQ(p.passes[1].src, Binding::scratch);
  EXPECT_EQ(p.passes[2].dst, Binding::output);
  EXPECT_GE(p.scratch_elements, 16u * 16 * 16);
}

// The first pass reads zero past the held elements without a memory
// access, and the last stores only the wanted ones.
TEST(Padding, LoadsAndStoresAreGuarded) {
  Plan p = plan(padded({100}, {37}, {11}), FFTMUX_FORWARD, Device{});
  std::string first = emit(p.passes.front().kernel, Dialect::vulkan);
  std::string last = emit(p.passes.back().kernel, Dialect::vulkan);
  EXPECT_NE(first.find(" < 37u ? "), std::string::npos) << first;
  EXPECT_NE(last.find(" < 11u) { "), std::string::npos) << last;
}

// Real pairs and Hermitian partners are guarded one element at a time:
// an odd count of held reals ends inside a pair.
TEST(Padding, RealPairsAndPartnersAreGuardedEach) {
  for (fftmux_desc d : {padded({64}, {21}, {0}, FFTMUX_R2C), padded({64}, {9}, {0}, FFTMUX_C2R),
                        padded({63}, {9}, {31}, FFTMUX_C2R)}) {
    Plan p = plan(d, direction(d), Device{});
    std::string source = emit(p.passes.front().kernel, Dialect::opengl);
    std::string held = d.kind == FFTMUX_R2C ? "21u" : "9u";
    size_t guards = 0;
    for (size_t at = source.find(" < " + held + " ? "); at != std::string::npos;
         at = source.find(" < " + held + " ? ", at + 1))
      ++guards;
    EXPECT_GE(guards, 2u) << p.summary; // both reals of a pair, or a value and its partner
  }
}

} // namespace
} // namespace fftmux::codegen
