#include "check.hpp"

#include <string>

namespace fftmux::cuda {

using plugin::fail;

void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess)
    return;
  std::string message = std::string(call) + " failed: " + cudaGetErrorString(status) + " (" +
                        cudaGetErrorName(status) + ")";
  fail(status == cudaErrorMemoryAllocation ? FFTMUX_ERROR_OUT_OF_MEMORY : FFTMUX_ERROR_BACKEND,
       message);
}

const char* cufft_status_name(cufftResult status) {
  static const char* const names[] = {"CUFFT_SUCCESS",
                                      "CUFFT_INVALID_PLAN",
                                      "CUFFT_ALLOC_FAILED",
                                      "CUFFT_INVALID_TYPE",
                                      "CUFFT_INVALID_VALUE",
                                      "CUFFT_INTERNAL_ERROR",
                                      "CUFFT_EXEC_FAILED",
                                      "CUFFT_SETUP_FAILED",
                                      "CUFFT_INVALID_SIZE",
                                      "CUFFT_UNALIGNED_DATA",
                                      "status 10",
                                      "CUFFT_INVALID_DEVICE",
                                      "status 12",
                                      "CUFFT_NO_WORKSPACE",
                                      "CUFFT_NOT_IMPLEMENTED",
                                      "status 15",
                                      "CUFFT_NOT_SUPPORTED",
                                      "CUFFT_MISSING_DEPENDENCY",
                                      "CUFFT_NVRTC_FAILURE",
                                      "CUFFT_NVJITLINK_FAILURE",
                                      "CUFFT_NVSHMEM_FAILURE"};
  unsigned i = unsigned(status);
  return i < sizeof names / sizeof *names ? names[i] : "unknown cuFFT status";
}

void check(cufftResult status, const char* call) {
  if (status == CUFFT_SUCCESS)
    return;
  fftmux_status s = FFTMUX_ERROR_BACKEND;
  if (status == CUFFT_ALLOC_FAILED)
    s = FFTMUX_ERROR_OUT_OF_MEMORY;
  else if (status == CUFFT_INVALID_SIZE || status == CUFFT_NOT_SUPPORTED ||
           status == CUFFT_NOT_IMPLEMENTED)
    s = FFTMUX_ERROR_UNSUPPORTED;
  fail(s, std::string(call) + " failed: " + cufft_status_name(status));
}

void check(nvrtcResult status, const char* call) {
  if (status == NVRTC_SUCCESS)
    return;
  fail(status == NVRTC_ERROR_OUT_OF_MEMORY ? FFTMUX_ERROR_OUT_OF_MEMORY : FFTMUX_ERROR_BACKEND,
       std::string(call) + " failed: " + nvrtcGetErrorString(status));
}

} // namespace fftmux::cuda
