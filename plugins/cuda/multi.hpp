// Plans across several GPUs of one host through cuFFT's multi-GPU API
// (cufftXtSetGPUs, cufftXtMalloc, cufftXtMemcpy, cufftXtExecDescriptor):
// cuFFT does the exchange between the devices; fftmux adds no pass of its
// own across them but the scaling of a normalized direction.
#pragma once

#include "backend.hpp"

#include <fftmux/plugin.h>

#include <cudalibxt.h>
#include <cufft.h>

#include <memory>
#include <string>
#include <vector>

namespace fftmux::cuda {

// Every device the driver sees, in index order (own: the backend's, probed).
std::vector<Device> probe_all(const Device& own);

// Why cuFFT's multi-GPU plans do not run the problem on params' devices;
// "" when they do. The rules are cuFFT's documented ones (docs/cuda.md,
// "Several GPUs").
std::string multi_declines(const std::vector<Device>& devices, const fftmux_desc& desc,
                           const fftmux_plan_params_v1& params);

// A cuFFT handle of a multi-GPU plan, shared by the plan and its buffers
// (cufftXtMemcpy needs it).
struct XtHandle {
  cufftHandle handle = 0;
  std::vector<int> gpus;
  XtHandle() = default;
  XtHandle(const XtHandle&) = delete;
  XtHandle& operator=(const XtHandle&) = delete;
  ~XtHandle();
};

// A cufftXtMalloc'ed descriptor: one piece a device.
struct XtBuffer {
  std::shared_ptr<XtHandle> plan;
  cudaLibXtDesc* desc = nullptr;
  uint64_t bytes = 0; // the whole array, as cufftXtMemcpy moves it
  XtBuffer(std::shared_ptr<XtHandle> plan, uint64_t bytes);
  XtBuffer(const XtBuffer&) = delete;
  XtBuffer& operator=(const XtBuffer&) = delete;
  ~XtBuffer();
  void write(const void* src);
  void read(void* dst);
  uint32_t pieces() const;
  // Piece i: device, pointer, offset (the bytes of the pieces before it), size, order.
  void piece(uint32_t i, fftmux_piece& out) const;
};

class MultiPlan {
public:
  MultiPlan(Backend& backend, const fftmux_desc& desc, const fftmux_plan_params_v1& params);
  void execute_host(int direction, const void* in, void* out);
  // On buffers of the plan: out gets a copy of in first where they differ
  // (DEVICE plans are in place; HOST plans may be run on buffers too).
  void execute(int direction, XtBuffer& in, XtBuffer& out);
  std::unique_ptr<XtBuffer> allocate(uint64_t bytes) const;
  // Waits for every device of the plan.
  void synchronize() const;
  const fftmux_desc& desc() const { return desc_; }
  Backend& backend() const { return backend_; }

private:
  void transform(int direction, cudaLibXtDesc* data);
  // Piece by piece, on each GPU: two descriptors of this plan.
  void copy(const cudaLibXtDesc* from, cudaLibXtDesc* to);
  void scale(cudaLibXtDesc* data, double factor);

  Backend& backend_;
  fftmux_desc desc_;
  uint32_t order_;
  uint64_t bytes_; // the in-place array
  std::shared_ptr<XtHandle> xt_;
  std::unique_ptr<XtBuffer> work_, scratch_; // HOST staging; DEVICE natural-order copies
  std::unique_ptr<Module> scaler_;           // the scaling kernel, loaded on first need
};

} // namespace fftmux::cuda
