// Turns the status codes of the CUDA runtime, cuFFT and NVRTC into
// plugin::Failure exceptions with a message that names the call.
#pragma once

#include <fftmux/plugin_support.hpp>

#include <cuda_runtime_api.h>
#include <cufft.h>
#include <nvrtc.h>

namespace fftmux::cuda {

void check(cudaError_t status, const char* call);
void check(cufftResult status, const char* call);
void check(nvrtcResult status, const char* call);

const char* cufft_status_name(cufftResult status);

// Reports a failed kernel launch; launches are asynchronous, so errors of the
// kernel itself surface at the next synchronizing call.
inline void check_launch(const char* kernel) {
  check(cudaGetLastError(), kernel);
}

} // namespace fftmux::cuda
