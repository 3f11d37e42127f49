// The oracle every check compares against: the exact transform of a
// problem computed in long double (naive DFT, small sizes) or with FFTW in
// double, shifts and normalization applied by plain index arithmetic, so
// that it shares no code with the backends it judges.
#pragma once

#include <fftmux/fftmux.h>

#include <complex>
#include <cstdint>
#include <vector>

namespace fftmux::ref {

using Values = std::vector<std::complex<double>>;

enum class Method { automatic, naive, fftw };

// desc with its strides and distances resolved (fftmux_desc_layout), as
// plugins receive it; throws std::invalid_argument with the library's
// message for a descriptor it rejects.
fftmux_desc resolved(const fftmux_desc& desc);

// Deterministic random input in desc's input layout (desc resolved or not).
// C2R inputs are Hermitian-consistent: the R2C transform of random reals.
std::vector<unsigned char> random_input(const fftmux_desc& desc, uint64_t seed);

// The logical elements of one side of data laid out as desc says, packed in
// batch-major, row-major order; real elements have a zero imaginary part.
Values read_side(const fftmux_desc& desc, bool input, const void* data);

// Writes packed logical elements into one side of desc's layout; the
// imaginary parts are dropped on a real side. data holds that side's span.
void write_side(const fftmux_desc& desc, bool input, const Values& values, void* data);

// The expected output of desc in direction for the given input, packed as
// read_side(desc, false, ...) returns it.
Values expected(const fftmux_desc& desc, int direction, const void* input,
                Method method = Method::automatic);

// ||a - b||_2 / ||b||_2 (absolute when b is zero).
double relative_error(const Values& got, const Values& want);

// The error a correct transform stays under: 5 eps log2(N) plus a few eps
// for the normalization, eps of the descriptor's precision (F16 2^-11, BF16
// 2^-8: their rounding of the output dominates the F32 arithmetic's).
double error_bound(const fftmux_desc& desc);

// 5 N log2 N per complex transform, half that per real one.
double flops(const fftmux_desc& desc);

// The directions desc's kind runs: both for C2C, forward for R2C, inverse
// for C2R.
std::vector<int> directions(const fftmux_desc& desc);

} // namespace fftmux::ref
