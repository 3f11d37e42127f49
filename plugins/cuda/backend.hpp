// State shared by every plan of the CUDA backend, device memory, and the
// plan interface both variants implement.
#pragma once

#include "device.hpp"
#include "nvrtc.hpp"

#include <fftmux/plugin.h>

#include <memory>
#include <vector>

namespace fftmux::cuda {

struct Backend {
  const fftmux_host_v1* host = nullptr;
  Device device;
  std::vector<Device> all; // every device the driver sees, for plans across them
  std::unique_ptr<Compiler> compiler;
  // How the "cufft" variant applies shifts and scaling: "pass" (generated
  // elementwise kernels around cuFFT) or "callback-experimental" (cuFFT LTO
  // callbacks where they apply; a plan fails when cuFFT cannot make them).
  // Passes are the default: docs/cuda.md has the measurements behind that.
  std::string cufft_fusion = "pass";

  // Makes the backend's device current on the calling thread.
  void use() const;
};

// A device allocation owned by its holder.
class DeviceMemory {
public:
  DeviceMemory() = default;
  explicit DeviceMemory(size_t bytes);
  ~DeviceMemory();
  DeviceMemory(DeviceMemory&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  DeviceMemory& operator=(DeviceMemory&& o) noexcept;
  void* get() const { return p_; }

private:
  void* p_ = nullptr;
};

class Plan {
public:
  Plan(Backend& backend, const fftmux_desc& desc);
  virtual ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  // Queues the transform on the plan's stream; in and out are device
  // pointers (equal for in-place plans).
  virtual void enqueue(int direction, const void* in, void* out) = 0;
  // Host memory: copies through device memory the plan keeps, and waits.
  void execute_host(int direction, const void* in, void* out);
  // A caller's stream, or 0 for the plan's own.
  void set_stream(cudaStream_t stream);
  void synchronize();
  // Marks the end of the work just queued, on whichever stream it went to.
  void queued();
  // Waits for the work queued so far, before the derived plan frees the
  // kernels, workspace and cuFFT handle it uses. An event, not the stream:
  // a caller's stream may be gone by then.
  void drain() noexcept;

  Backend& backend() const { return backend_; }
  const fftmux_desc& desc() const { return desc_; }
  cudaStream_t stream() const { return stream_; }

protected:
  virtual void on_stream_change() {}

private:
  Backend& backend_;
  fftmux_desc desc_;
  cudaStream_t own_ = nullptr, stream_ = nullptr;
  cudaEvent_t done_ = nullptr;
  DeviceMemory host_in_, host_out_; // staging of execute_host, made on first use
};

std::unique_ptr<Plan> make_cufft_plan(Backend& backend, const fftmux_desc& desc);

} // namespace fftmux::cuda
