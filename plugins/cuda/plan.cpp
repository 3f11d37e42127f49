#include "backend.hpp"

#include "check.hpp"
#include "layout.hpp"

#include <algorithm>

namespace fftmux::cuda {

void Backend::use() const { check(cudaSetDevice(device.index), "cudaSetDevice"); }

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

uint64_t side_bytes(const fftmux_desc& d, bool input) {
  Side s = user_side(d, input);
  return uint64_t(s.span()) * uint64_t(s.element_bytes(d.precision == FFTMUX_F64));
}

// Plans get a stream of their own that still orders itself after work on
// the legacy default stream (cudaMemcpy, callers' kernels on stream 0).
Plan::Plan(Backend& backend, const fftmux_desc& desc) : backend_(backend), desc_(desc) {
  backend_.use();
  check(cudaStreamCreateWithFlags(&own_, cudaStreamDefault), "cudaStreamCreate");
  stream_ = own_;
}

Plan::~Plan() {
  if (own_) {
    cudaStreamSynchronize(own_);
    cudaStreamDestroy(own_);
  }
}

void Plan::set_stream(cudaStream_t stream) {
  stream_ = stream ? stream : own_;
  on_stream_change();
}

void Plan::synchronize() { check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

void Plan::execute_host(int direction, const void* in, void* out) {
  backend_.use();
  uint64_t in_bytes = side_bytes(desc_, true), out_bytes = side_bytes(desc_, false);
  bool in_place = desc_.flags & FFTMUX_IN_PLACE;
  if (!host_in_.get())
    host_in_ = DeviceMemory(in_place ? std::max(in_bytes, out_bytes) : in_bytes);
  if (!in_place && !host_out_.get())
    host_out_ = DeviceMemory(out_bytes);
  void* dst = in_place ? host_in_.get() : host_out_.get();
  check(cudaMemcpyAsync(host_in_.get(), in, in_bytes, cudaMemcpyHostToDevice, stream_),
        "cudaMemcpyAsync to the device");
  enqueue(direction, host_in_.get(), dst);
  check(cudaMemcpyAsync(out, dst, out_bytes, cudaMemcpyDeviceToHost, stream_),
        "cudaMemcpyAsync to the host");
  synchronize();
}

} // namespace fftmux::cuda
