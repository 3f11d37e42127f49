#include "cuda_run.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>

namespace bench::cuda {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

std::string unavailable() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return std::string("no CUDA device: ") + cudaGetErrorString(e);
  if (count == 0)
    return "no CUDA device";
  // The primary context, current from now on: VkFFT's driver calls use it.
  e = cudaSetDevice(0);
  if (e == cudaSuccess)
    e = cudaFree(nullptr);
  return e == cudaSuccess ? "" : std::string("CUDA device 0: ") + cudaGetErrorString(e);
}

static std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string device_text() {
  cudaDeviceProp p{};
  int driver = 0, runtime = 0;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess)
    return "";
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  char text[512];
  std::snprintf(text, sizeof text, "%s, cc %d.%d, %.1f GiB, driver %s, runtime %s", p.name, p.major,
                p.minor, double(p.totalGlobalMem) / (1ull << 30), version_text(driver).c_str(),
                version_text(runtime).c_str());
  return text;
}

EngineInfo info(const std::string& name, Family family, const std::string& version,
                const std::string& why) {
  EngineInfo i;
  i.name = name;
  i.family = family;
  i.device = Device::gpu;
  i.version = version;
  i.skipped = why;
  i.devices = why.empty() ? device_text() : "";
  return i;
}

CudaRun::CudaRun(const Host& host) : host_(host) {
  try {
    for (Slot s : {Slot::in, Slot::mid, Slot::back})
      check(cudaMalloc(&mem_[int(s)], host.bytes(s)), "cudaMalloc");
    check(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  } catch (...) {
    release();
    throw;
  }
}

CudaRun::~CudaRun() {
  release();
}

void CudaRun::release() {
  for (void*& p : mem_)
    if (p)
      cudaFree(std::exchange(p, nullptr));
  for (cudaEvent_t* e : {&start_, &stop_})
    if (*e)
      cudaEventDestroy(std::exchange(*e, nullptr));
  if (stream_)
    cudaStreamDestroy(std::exchange(stream_, nullptr));
}

void CudaRun::write(Slot s, const void* from) {
  finish();
  check(cudaMemcpy(at(s), from, host_.bytes(s), cudaMemcpyHostToDevice), "cudaMemcpy to device");
}

void CudaRun::read(Slot s, void* to) {
  finish();
  check(cudaMemcpy(to, at(s), host_.bytes(s), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

void CudaRun::poison(Slot s) {
  // Every byte 0xFF is a NaN in f32 and f64.
  check(cudaMemsetAsync(at(s), 0xFF, host_.bytes(s), stream_), "cudaMemsetAsync");
  finish();
}

void CudaRun::finish() {
  check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

double CudaRun::time_launches(int direction, int runs) {
  check(cudaEventRecord(start_, stream_), "cudaEventRecord");
  for (int i = 0; i < runs; ++i)
    launch(direction);
  check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
  check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return double(ms) * 1e-3 / runs;
}

} // namespace bench::cuda
