// What FFTW itself gets wrong, and which problems avoid it: one rule, which
// the backend applies and tests/fftw/quirks_test.cpp checks against the
// installed FFTW.
#pragma once

#include <fftw3.h>

namespace fftmux::fftw {

// FFTW 3.3.10's single-precision SIMD codelets plan, and then crash on, C2C
// problems that read neighbouring lines' elements side by side and write
// them an odd number of elements apart: a loop (the batch, or an axis beside
// another) whose input stride is 1 and output stride odd above 1 (16 points
// x8, input stride 8 and distance 1, output distance 19). tests/sweep found
// it. FFTW_UNALIGNED plans run these problems; planned so elsewhere, FFTW
// takes up to 2.4x longer (odd row pitches), so only these take it.
inline bool f32_c2c_crashes(int rank, const fftw_iodim64* dims, const fftw_iodim64& batch) {
  auto side_by_side = [](const fftw_iodim64& l) {
    return l.n > 1 && l.is == 1 && l.os > 1 && l.os % 2;
  };
  bool any = side_by_side(batch);
  for (int i = 0; rank > 1 && i < rank; ++i) // an axis loops around the others' transforms
    any = any || side_by_side(dims[i]);
  return any;
}

} // namespace fftmux::fftw
