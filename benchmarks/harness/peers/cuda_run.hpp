// Device memory, a stream and CUDA events: what the CUDA peers (cuFFT,
// VkFFT, the device copy) share.
#pragma once

#include "../engine.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <utility>

namespace bench::cuda {

// Throws std::runtime_error naming the call and CUDA's message.
void check(cudaError_t e, const char* what);

// Why device 0 cannot run CUDA here ("" when it can); makes its primary
// context current when it can.
std::string unavailable();

// "NVIDIA H200, cc 9.0, 139.8 GiB, driver 13.0, runtime 13.0"
std::string device_text();

// Information shared by every CUDA engine: family, class, devices, and the
// reason to skip when CUDA is unavailable.
EngineInfo info(const std::string& name, Family family, const std::string& version,
                const std::string& unavailable);

class CudaRun : public Run {
public:
  explicit CudaRun(const Host& host);
  ~CudaRun() override;
  void write(Slot s, const void* host) override;
  void read(Slot s, void* host) override;
  void poison(Slot s) override;
  void finish() override;
  // CUDA events around the launches on the run's stream.
  double time_launches(int direction, int runs) override;
  const char* timer() const override { return "cuda-event"; }

protected:
  void* at(Slot s) const { return mem_[int(s)]; }
  cudaStream_t stream() const { return stream_; }
  const Host& host() const { return host_; }
  cudaStream_t* stream_handle() { return &stream_; }

private:
  Host host_;
  void* mem_[3] = {nullptr, nullptr, nullptr};
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  void release();
};

// An engine of runs R(desc, host), or Skipped-like when info says why not.
template <class R> class CudaEngine : public Engine {
public:
  explicit CudaEngine(EngineInfo i) : info_(std::move(i)) {}
  const EngineInfo& info() const override { return info_; }
  std::unique_ptr<Run> open(const fftmux_desc& d, const Host& h) override {
    return std::make_unique<R>(d, h);
  }

private:
  EngineInfo info_;
};

} // namespace bench::cuda

// The symbol a peer module exports (engine.hpp's PeerEntry).
#define BENCH_PEER_ENTRY extern "C" __attribute__((visibility("default"))) void
