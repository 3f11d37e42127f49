// The correctness matrix every backend runs: sizes (pow2, smooth, primes),
// ranks, kinds, precisions, layouts, norms and shifts.
#pragma once

#include <fftmux/fftmux.h>

#include <ostream>
#include <string>
#include <vector>

namespace fftmux::test {

struct Case {
  std::string name; // a valid gtest parameter name
  fftmux_desc desc;
  int direction;
  // C2R only: the input is any complex array, not the spectrum of reals. The
  // imaginary parts a real signal's spectrum cannot have are ignored, as
  // numpy and FFTW do (the reference's Hermitian completion).
  bool any_spectrum = false;
};

// gtest prints the case by name rather than as bytes.
inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

enum class Scale {
  small, // software rasterizers (lavapipe, llvmpipe): every size and feature,
         // fewer combinations (about 200 cases)
  full   // CPUs with FFTW and real GPUs
};

// FFTMUX_TEST_SCALE=small|full; full by default.
Scale scale_from_env();

std::vector<Case> cases(Scale scale);

} // namespace fftmux::test
