// Convolution geometry: the checked descriptor, its FFT sizes and the window
// each mode cuts out of the inverse transform.
#pragma once

#include <fftmux/fftmux.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fftmux {

using Dims = std::array<int64_t, FFTMUX_MAX_RANK>;

// Sizes are kept aligned to the last axis (a rank-1 problem's in [2]), so
// that the innermost loops run over whole rows.
struct ConvGeometry {
  fftmux_conv_desc desc{};
  Dims n{1, 1, 1}, m{1, 1, 1}; // signal and filter sizes
  Dims out{1, 1, 1};           // the mode's output sizes
  Dims fft{1, 1, 1};           // padded transform sizes L
  // v's sizes of the rank's axes, first axis first, the others 1 (as fftmux_desc.n).
  Dims axes(const Dims& v) const;
  bool real() const { return desc.kind == FFTMUX_R2C; }
  int64_t signal_points() const;   // elements of one signal
  int64_t filter_points() const;   // elements of one filter
  int64_t out_points() const;      // elements of one output
  int64_t fft_points() const;      // points of the padded real or complex grid
  int64_t spectrum_points() const; // complex points of one spectrum (L/2+1 last axis if real)
  // For each axis, the padded index each output index reads.
  std::vector<std::vector<int64_t>> window() const;
};

// The smallest 2,3,5,7-smooth integer >= n (scipy.fft.next_fast_len).
int64_t next_smooth(int64_t n);

// Validates desc (struct_size, rank, sizes, kind, precision, mode, placement).
ConvGeometry conv_geometry(const fftmux_conv_desc* desc);

std::string describe(const ConvGeometry& g);

// Turns a failed inner call into the calling entry's failure, keeping its message.
void check_inner(fftmux_status s);

// A DEVICE convolution's filters as the spectra its forward plan multiplies by, one after
// another, interleaved doubles (conj for a correlation, times the phases that start the inverse
// at the mode's window).
std::shared_ptr<const std::vector<double>> filter_spectra(fftmux_context ctx, const ConvGeometry& g,
                                                          const void* filters, uint32_t layout);

} // namespace fftmux
