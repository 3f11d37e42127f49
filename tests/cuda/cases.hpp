// Problems the CUDA tests run: a compact text form ("c2c f32 1024x8 ...")
// turned into resolved descriptors, so the CPU and GPU suites share one list.
#pragma once

#include <fftmux/fftmux.h>

#include <string>
#include <vector>

namespace fftmux::cuda_test {

// "kind precision n0[xn1[xn2]] [b<batch>] [in-place] [norm=none|backward|ortho|forward]
//  [shift=in|out|both] [istride=a,b,c] [idist=d] [ostride=..] [odist=..]"
fftmux_desc parse_case(const std::string& text);

// The cases of both suites: every kind, precision, rank, shift parity,
// norm, layout and placement the backend must handle.
std::vector<std::string> correctness_cases();

} // namespace fftmux::cuda_test
