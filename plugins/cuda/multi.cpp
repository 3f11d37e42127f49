#include "multi.hpp"

#include "check.hpp"

#include <fftmux/plugin_support.hpp>

#include <cufftXt.h>

#include <algorithm>
#include <cstring>

namespace fftmux::cuda {

namespace {

using plugin::fail;

bool smooth(int64_t n) { // of factors 2, 3, 5 and 7
  for (int64_t p : {2, 3, 5, 7})
    while (n % p == 0)
      n /= p;
  return n == 1;
}

std::string count_text(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// The devices: present, of one architecture.
std::string device_declines(const std::vector<Device>& all, const fftmux_plan_params_v1& p) {
  if (p.device_count < 2)
    return "cuda: a plan across devices spans 2 to " + std::to_string(FFTMUX_MAX_DEVICES) +
           " GPUs; for one, leave the devices option out ([backends.cuda] device picks it)";
  if (p.device_count > all.size())
    return "cuda: this machine has " + count_text(all.size(), "CUDA device") +
           "; the plan asks for " + std::to_string(p.device_count);
  for (uint32_t i = 0; i < p.device_count; ++i) {
    uint32_t g = p.devices[i];
    if (g >= all.size())
      return "cuda: device " + std::to_string(g) + " is not present: this machine has " +
             count_text(all.size(), "CUDA device") + " (0 to " + std::to_string(all.size() - 1) +
             ")";
    const Device& first = all[p.devices[0]];
    if (all[g].arch() != first.arch())
      return "cuda: devices " + std::to_string(p.devices[0]) + " (" + first.arch() + ") and " +
             std::to_string(g) + " (" + all[g].arch() +
             ") differ: cuFFT's multi-GPU plans need GPUs of one architecture";
  }
  return "";
}

// The problem: what cuFFT's multi-GPU plans run, as fftmux runs them (in
// place on cuFFT's descriptors).
std::string problem_declines(const fftmux_desc& d) {
  if (plugin::half_storage(d.precision))
    return "cuda: plans across devices run F32 and F64";
  if (d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT))
    return "cuda: plans across devices do not shift (FFTMUX_SHIFT_*): cuFFT's multi-GPU plans "
           "take no callbacks, and fftmux adds no pass across devices";
  for (bool input : {true, false})
    if (plugin::custom_strides(d, input) || plugin::custom_distance(d, input))
      return "cuda: cuFFT's multi-GPU plans take no strides: the layout must be the default";
  if (d.kind != FFTMUX_C2C && !(d.flags & FFTMUX_IN_PLACE))
    return "cuda: R2C and C2R across devices run in place (FFTMUX_IN_PLACE): cuFFT's multi-GPU "
           "descriptors hold the real side padded to whole complex rows";
  if (d.placement == FFTMUX_DEVICE && !(d.flags & FFTMUX_IN_PLACE))
    return "cuda: a DEVICE plan across devices runs in place (FFTMUX_IN_PLACE) on one buffer "
           "that spans them (fftmux_buffer_create_for_plan)";
  if (d.rank == 1 && (d.kind != FFTMUX_C2C || d.batch != 1 || (d.n[0] & (d.n[0] - 1))))
    return "cuda: a 1D plan across devices is a C2C of one batch whose length is a power of two "
           "(cuFFT's multi-GPU rules): n[0] = " +
           std::to_string(d.n[0]) + ", batch " + std::to_string(d.batch);
  for (uint32_t a = 0; a < d.rank; ++a) {
    if (d.n[a] < 32)
      return "cuda: cuFFT's multi-GPU plans need at least 32 points along every axis: n[" +
             std::to_string(a) + "] = " + std::to_string(d.n[a]);
    if (!smooth(d.n[a]))
      return "cuda: n[" + std::to_string(a) + "] = " + std::to_string(d.n[a]) +
             " has a prime factor above 7: fftmux spans devices only for sizes of factors 2, 3, "
             "5 and 7";
    if (d.n[a] > 0x7fffffff)
      return "cuda: n[" + std::to_string(a) + "] = " + std::to_string(d.n[a]) +
             " exceeds the 32-bit sizes of cuFFT's multi-GPU plans";
  }
  return "";
}

cufftType type_of(const fftmux_desc& d) {
  bool f64 = d.precision == FFTMUX_F64;
  if (d.kind == FFTMUX_R2C)
    return f64 ? CUFFT_D2Z : CUFFT_R2C;
  if (d.kind == FFTMUX_C2R)
    return f64 ? CUFFT_Z2D : CUFFT_C2R;
  return f64 ? CUFFT_Z2Z : CUFFT_C2C;
}

// The in-place array cufftXtMemcpy moves: the larger side.
uint64_t array_bytes(const fftmux_desc& d) {
  return std::max(plugin::side_bytes(d, true), plugin::side_bytes(d, false));
}

// Multiplies n reals of one precision by s, grid-stride.
const char* const scale_source = R"(
extern "C" __global__ void fftmux_scale_f32(float* p, unsigned long long n, float s) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    p[i] *= s;
}
extern "C" __global__ void fftmux_scale_f64(double* p, unsigned long long n, double s) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    p[i] *= s;
}
)";

} // namespace

std::vector<Device> probe_all(const Device& own) {
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  std::vector<Device> all;
  for (int i = 0; i < count; ++i)
    all.push_back(i == own.index ? own : probe(i));
  return all;
}

std::string multi_declines(const std::vector<Device>& devices, const fftmux_desc& d,
                           const fftmux_plan_params_v1& p) {
  std::string why = device_declines(devices, p);
  return why.empty() ? problem_declines(d) : why;
}

XtHandle::~XtHandle() {
  if (handle)
    cufftDestroy(handle);
}

XtBuffer::XtBuffer(std::shared_ptr<XtHandle> h, uint64_t b) : plan(std::move(h)), bytes(b) {
  check(cufftXtMalloc(plan->handle, &desc, CUFFT_XT_FORMAT_INPLACE), "cufftXtMalloc");
}

XtBuffer::~XtBuffer() {
  if (desc)
    cufftXtFree(desc);
}

void XtBuffer::write(const void* src) {
  desc->subFormat = CUFFT_XT_FORMAT_INPLACE; // the host's array is in natural order
  check(cufftXtMemcpy(plan->handle, desc, const_cast<void*>(src), CUFFT_COPY_HOST_TO_DEVICE),
        "cufftXtMemcpy to the devices");
}

void XtBuffer::read(void* dst) {
  check(cufftXtMemcpy(plan->handle, dst, desc, CUFFT_COPY_DEVICE_TO_HOST),
        "cufftXtMemcpy from the devices");
}

uint32_t XtBuffer::pieces() const {
  return uint32_t(desc->descriptor->nGPUs);
}

void XtBuffer::piece(uint32_t i, fftmux_piece& out) const {
  const cudaXtDesc& x = *desc->descriptor;
  out.device = uint32_t(x.GPUs[i]);
  out.native = reinterpret_cast<uint64_t>(x.data[i]);
  out.offset = 0;
  for (uint32_t j = 0; j < i; ++j)
    out.offset += x.size[j];
  out.bytes = x.size[i];
  out.order = desc->subFormat == CUFFT_XT_FORMAT_INPLACE_SHUFFLED ? FFTMUX_ORDER_PERMUTED
                                                                  : FFTMUX_ORDER_NATURAL;
}

MultiPlan::MultiPlan(Backend& backend, const fftmux_desc& d, const fftmux_plan_params_v1& p)
    : backend_(backend), desc_(d), order_(p.order), bytes_(array_bytes(d)),
      xt_(std::make_shared<XtHandle>()) {
  xt_->gpus.assign(p.devices, p.devices + p.device_count);
  check(cufftCreate(&xt_->handle), "cufftCreate");
  check(cufftXtSetGPUs(xt_->handle, int(xt_->gpus.size()), xt_->gpus.data()), "cufftXtSetGPUs");
  std::vector<size_t> work(xt_->gpus.size()); // one work area a GPU
  int n[FFTMUX_MAX_RANK];
  for (uint32_t a = 0; a < d.rank; ++a)
    n[a] = int(d.n[a]);
  check(cufftMakePlanMany(xt_->handle, int(d.rank), n, nullptr, 1, 0, nullptr, 1, 0, type_of(d),
                          int(d.batch), work.data()),
        "cufftMakePlanMany across devices");
  if (d.placement == FFTMUX_HOST)
    work_ = allocate(bytes_);
}

std::unique_ptr<XtBuffer> MultiPlan::allocate(uint64_t bytes) const {
  if (bytes < bytes_)
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "bytes = " + std::to_string(bytes) +
                                            ": the plan's buffer across devices holds the whole "
                                            "array, " +
                                            std::to_string(bytes_) + " bytes");
  return std::make_unique<XtBuffer>(xt_, bytes_);
}

void MultiPlan::synchronize() const {
  for (int g : xt_->gpus) {
    check(cudaSetDevice(g), "cudaSetDevice");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  backend_.use();
}

void MultiPlan::scale(cudaLibXtDesc* data, double factor) {
  bool f64 = desc_.precision == FFTMUX_F64;
  if (!scaler_)
    scaler_ = std::make_unique<Module>(backend_.compiler->compile(scale_source, Output::cubin));
  cudaKernel_t k = scaler_->kernel(f64 ? "fftmux_scale_f64" : "fftmux_scale_f32");
  const cudaXtDesc& x = *data->descriptor;
  for (int i = 0; i < x.nGPUs; ++i) {
    check(cudaSetDevice(x.GPUs[i]), "cudaSetDevice");
    void* p = x.data[i];
    unsigned long long n = x.size[i] / (f64 ? sizeof(double) : sizeof(float));
    float s32 = float(factor);
    void* args[] = {&p, &n, f64 ? static_cast<void*>(&factor) : static_cast<void*>(&s32)};
    launch(k, dim3(1024), dim3(256), 0, nullptr, args, "fftmux_scale");
  }
  synchronize();
}

void MultiPlan::transform(int direction, cudaLibXtDesc* data) {
  check(cufftXtExecDescriptor(xt_->handle, data, data, direction), "cufftXtExecDescriptor");
  synchronize();
  double s = plugin::scale(desc_, direction);
  if (s != 1)
    scale(data, s);
}

void MultiPlan::execute_host(int direction, const void* in, void* out) {
  work_->write(in);
  transform(direction, work_->desc);
  work_->read(out); // cufftXtMemcpy gathers in natural order whatever the pieces hold
}

void MultiPlan::copy(const cudaLibXtDesc* from, cudaLibXtDesc* to) {
  const cudaXtDesc& x = *from->descriptor;
  for (int i = 0; i < x.nGPUs; ++i) {
    check(cudaSetDevice(x.GPUs[i]), "cudaSetDevice");
    check(cudaMemcpy(to->descriptor->data[i], x.data[i], x.size[i], cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
  }
  to->subFormat = from->subFormat;
  backend_.use();
}

void MultiPlan::execute(int direction, XtBuffer& in, XtBuffer& out) {
  if (in.plan != xt_ || out.plan != xt_) // cuFFT lays each plan's descriptors out its own way
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "cuda: a buffer across devices serves the plan that made "
                                        "it (fftmux_buffer_create_for_plan of this plan)");
  if (&in != &out)
    copy(in.desc, out.desc);
  transform(direction, out.desc);
  if (order_ != FFTMUX_ORDER_NATURAL || out.desc->subFormat != CUFFT_XT_FORMAT_INPLACE_SHUFFLED)
    return;
  if (!scratch_)
    scratch_ = allocate(bytes_);
  scratch_->desc->subFormat = CUFFT_XT_FORMAT_INPLACE;
  check(cufftXtMemcpy(xt_->handle, scratch_->desc, out.desc, CUFFT_COPY_DEVICE_TO_DEVICE),
        "cufftXtMemcpy to natural order");
  copy(scratch_->desc, out.desc); // back into the caller's buffer, GPU by GPU
}

} // namespace fftmux::cuda
