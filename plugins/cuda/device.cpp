#include "device.hpp"

#include "check.hpp"

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace fftmux::cuda {

using plugin::fail;

namespace {

// libcuda stays loaded for the life of the process (cudart loads it too).
void require_driver_library() {
  if (dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) ||
      dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))
    return;
  const char* why = dlerror();
  fail(FFTMUX_ERROR_UNAVAILABLE, std::string("no CUDA driver: libcuda.so.1 could not be loaded (") +
                                     (why ? why : "not found") + ")");
}

std::string format_uuid(const cudaUUID_t& u) {
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  char text[64];
  std::snprintf(text, sizeof text,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return text;
}

// The kernel driver's version: through NVML when it is there, else from
// /proc, else only the CUDA version the driver supports.
std::string driver_version(int driver_cuda) {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    using Init = int (*)();
    using Version = int (*)(char*, unsigned);
    auto init = reinterpret_cast<Init>(dlsym(nvml, "nvmlInit_v2"));
    auto get = reinterpret_cast<Version>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
    auto shutdown = reinterpret_cast<Init>(dlsym(nvml, "nvmlShutdown"));
    char text[96] = {};
    bool ok = init && get && shutdown && init() == 0;
    if (ok) {
      ok = get(text, sizeof text) == 0;
      shutdown();
    }
    dlclose(nvml);
    if (ok && text[0])
      return text;
  }
  std::ifstream proc("/proc/driver/nvidia/version");
  std::string line;
  if (std::getline(proc, line)) {
    std::istringstream words(line);
    std::string w;
    while (words >> w)
      if (w.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(w[0])))
        return w;
  }
  return "unknown (supports CUDA " + cuda_version_text(driver_cuda) + ")";
}

} // namespace

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string Device::line() const {
  char text[512];
  std::snprintf(text, sizeof text,
                "%s, %s, %d SMs, %.1f GiB, driver %s (CUDA %s), runtime %s, cuFFT %d, NVRTC %s, %s",
                name.c_str(), arch().c_str(), multiprocessors, double(memory) / (1ull << 30),
                driver.c_str(), cuda_version_text(driver_cuda).c_str(),
                cuda_version_text(runtime_cuda).c_str(), cufft, nvrtc.c_str(), uuid.c_str());
  return text;
}

std::string Device::hardware_key() const {
  return "cuda runtime " + cuda_version_text(runtime_cuda) + "; cufft " + std::to_string(cufft) +
         "; nvrtc " + nvrtc + "; device " + name + " " + arch() + "; driver " + driver + "; " +
         uuid;
}

Device probe(int index) {
  require_driver_library();
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    fail(FFTMUX_ERROR_UNAVAILABLE,
         std::string("CUDA driver: ") + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")");
  if (count == 0)
    fail(FFTMUX_ERROR_UNAVAILABLE, "the CUDA driver sees no device");
  if (index < 0 || index >= count)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "[backends.cuda] device = " + std::to_string(index) +
                                            ": the driver sees " + std::to_string(count) +
                                            " devices");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, index), "cudaGetDeviceProperties");
  Device d;
  d.index = index;
  d.name = p.name;
  d.major = p.major;
  d.minor = p.minor;
  d.multiprocessors = p.multiProcessorCount;
  d.memory = p.totalGlobalMem;
  d.shared_optin = p.sharedMemPerBlockOptin;
  d.shared_per_sm = p.sharedMemPerMultiprocessor;
  d.shared_reserved = p.reservedSharedMemPerBlock;
  d.l2_bytes = p.l2CacheSize;
  d.uuid = format_uuid(p.uuid);
  check(cudaDriverGetVersion(&d.driver_cuda), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&d.runtime_cuda), "cudaRuntimeGetVersion");
  check(cufftGetVersion(&d.cufft), "cufftGetVersion");
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  d.nvrtc = std::to_string(major) + "." + std::to_string(minor);
  d.driver = driver_version(d.driver_cuda);
  return d;
}

} // namespace fftmux::cuda
