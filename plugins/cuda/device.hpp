// Finding the CUDA driver and describing a device. The driver is looked for
// at run time, so the plugin loads on machines without one (CI) and reports
// why it cannot run instead of failing to load.
#pragma once

#include <cstddef>
#include <string>

namespace fftmux::cuda {

struct Device {
  int index = 0;
  std::string name;
  int major = 0, minor = 0; // compute capability
  int multiprocessors = 0;
  size_t memory = 0;
  size_t shared_optin = 0;    // shared memory a block may opt in to
  size_t shared_per_sm = 0;   // the most a multiprocessor's carveout gives
  size_t shared_reserved = 0; // the driver's own share of each block's
  int l2_bytes = 0;
  std::string uuid;                      // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string driver;                    // the kernel driver's version, e.g. "580.159.04"
  int driver_cuda = 0, runtime_cuda = 0; // CUDA versions as 13000
  int cufft = 0;
  std::string nvrtc;

  std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
  // One line for fftmux_backend_info.devices.
  std::string line() const;
  // Identity for the tuning cache: everything that changes timings.
  std::string hardware_key() const;
};

// Throws plugin::Failure(FFTMUX_ERROR_UNAVAILABLE) with the reason when the
// driver or the device is missing: "no CUDA driver: ..." where libcuda
// cannot be loaded, else the driver's own error.
Device probe(int index);

// "13.0" from 13000.
std::string cuda_version_text(int version);

} // namespace fftmux::cuda
