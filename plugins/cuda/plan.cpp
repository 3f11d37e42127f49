#include "backend.hpp"

#include "check.hpp"
#include "layout.hpp"

#include <fftmux/codegen.hpp>

#include <algorithm>

namespace fftmux::cuda {

void Backend::use() const {
  check(cudaSetDevice(device.index), "cudaSetDevice");
}

DeviceMemory::DeviceMemory(size_t bytes) {
  check(cudaMalloc(&p_, std::max<size_t>(bytes, 1)),
        ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
}

DeviceMemory::~DeviceMemory() {
  if (p_)
    cudaFree(p_);
}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& o) noexcept {
  if (this != &o) {
    if (p_)
      cudaFree(p_);
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}

// Plans get a stream of their own that still orders itself after work on
// the legacy default stream (cudaMemcpy, callers' kernels on stream 0).
Plan::Plan(Backend& backend, const fftmux_desc& desc) : backend_(backend), desc_(desc) {
  backend_.use();
  check(cudaStreamCreateWithFlags(&own_, cudaStreamDefault), "cudaStreamCreate");
  stream_ = own_;
  check(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "cudaEventCreate");
}

Plan::~Plan() {
  if (done_)
    cudaEventDestroy(done_);
  if (own_)
    cudaStreamDestroy(own_);
}

void Plan::queued() {
  check(cudaEventRecord(done_, stream_), "cudaEventRecord");
}

void Plan::drain() noexcept {
  cudaEventSynchronize(done_);
  cudaStreamSynchronize(own_);
}

void Plan::set_stream(cudaStream_t stream) {
  stream_ = stream ? stream : own_;
  on_stream_change();
}

void Plan::synchronize() {
  check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
}

// The caller's output is copied in first where it has gaps (strides, padding)
// or shares the input's memory, so what lies between elements comes back
// unchanged.
void Plan::execute_host(int direction, const void* in, void* out) {
  backend_.use();
  uint64_t in_bytes = codegen::side_bytes(desc_, true),
           out_bytes = codegen::side_bytes(desc_, false);
  bool in_place = desc_.flags & FFTMUX_IN_PLACE;
  Side user_out = user_side(desc_, false);
  bool gaps = user_out.span() != user_out.count();
  if (!host_in_.get())
    host_in_ = DeviceMemory(in_place ? std::max(in_bytes, out_bytes) : in_bytes);
  if (!in_place && !host_out_.get())
    host_out_ = DeviceMemory(out_bytes);
  void* dst = in_place ? host_in_.get() : host_out_.get();
  auto upload = [&](void* to, const void* from, uint64_t bytes) {
    check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToDevice, stream_),
          "cudaMemcpyAsync to the device");
  };
  upload(host_in_.get(), in, in_place ? std::max(in_bytes, out_bytes) : in_bytes);
  if (!in_place && gaps)
    upload(dst, out, out_bytes);
  enqueue(direction, host_in_.get(), dst);
  check(cudaMemcpyAsync(out, dst, out_bytes, cudaMemcpyDeviceToHost, stream_),
        "cudaMemcpyAsync to the host");
  synchronize();
}

} // namespace fftmux::cuda
