// What one execution costs each CUDA variant, as query reports it to the
// host's device model (plugin.h): the generated kernels' own count, and a
// model of cuFFT's algorithm for the cufft variant.
#pragma once

#include <fftmux/gpu/generation.hpp>
#include <fftmux/plugin_support.hpp>

namespace fftmux::cuda {

// cuFFT: the passes its kernels make over the data (docs/routing.md has the
// measurements behind them), plus the route's copy and scaling passes.
codegen::Work cufft_work(const fftmux_desc& d);

// The generated kernels of the native variants.
codegen::Work native_work(const fftmux_desc& d, const codegen::Device& limits,
                          const codegen::Options& options);

} // namespace fftmux::cuda
