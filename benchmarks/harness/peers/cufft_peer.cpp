// cuFFT called directly, and cudaMemcpy device to device: the GPU's peer and
// its bandwidth limit. A module of its own, loaded at run time, so the
// harness starts on machines without CUDA and reports why it skipped these.
#include "cuda_run.hpp"

#include <cufft.h>
#include <cufftXt.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace bench::cuda {

namespace {

void check_fft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed with cufftResult " + std::to_string(r));
}

// cuFFT's types by kind and precision: forward, then inverse.
cufftType type_of(const fftmux_desc& d, bool forward) {
  bool f64 = d.precision == FFTMUX_F64;
  if (d.kind == FFTMUX_C2C)
    return f64 ? CUFFT_Z2Z : CUFFT_C2C;
  if (forward)
    return f64 ? CUFFT_D2Z : CUFFT_R2C;
  return f64 ? CUFFT_Z2D : CUFFT_C2R;
}

bool half(const fftmux_desc& d) {
  return d.precision == FFTMUX_F16 || d.precision == FFTMUX_BF16;
}

// The 16-bit formats go through cufftXt: data types of the real and the
// complex side (execution in the same format).
cudaDataType xt_type(const fftmux_desc& d, bool complex) {
  if (d.precision == FFTMUX_BF16)
    return complex ? CUDA_C_16BF : CUDA_R_16BF;
  return complex ? CUDA_C_16F : CUDA_R_16F;
}

// A cufftXt plan of packed rows, embeds and distances spelled out.
void make_xt_plan(cufftHandle& h, const fftmux_desc& d, bool forward) {
  check_fft(cufftCreate(&h), "cufftCreate");
  long long n[FFTMUX_MAX_RANK], real[FFTMUX_MAX_RANK], spectrum[FFTMUX_MAX_RANK];
  long long real_dist = 1, spectrum_dist = 1;
  for (uint32_t a = 0; a < d.rank; ++a) {
    n[a] = real[a] = spectrum[a] = d.n[a];
    if (a + 1 == d.rank && d.kind != FFTMUX_C2C)
      spectrum[a] = d.n[a] / 2 + 1;
    real_dist *= real[a];
    spectrum_dist *= spectrum[a];
  }
  bool c2c = d.kind == FFTMUX_C2C;
  bool in_complex = c2c || !forward, out_complex = c2c || forward;
  size_t work = 0;
  check_fft(cufftXtMakePlanMany(h, int(d.rank), n, in_complex ? spectrum : real, 1,
                                in_complex ? spectrum_dist : real_dist, xt_type(d, in_complex),
                                out_complex ? spectrum : real, 1,
                                out_complex ? spectrum_dist : real_dist, xt_type(d, out_complex),
                                d.batch, &work, xt_type(d, true)),
            "cufftXtMakePlanMany");
}

class CufftRun : public CudaRun {
public:
  CufftRun(const fftmux_desc& d, const Host& h) : CudaRun(h), d_(d) {}
  ~CufftRun() override { release(); }

  void plan() override {
    release();
    int n[FFTMUX_MAX_RANK];
    std::copy(d_.n, d_.n + d_.rank, n);
    // C2C plans run both ways; a real problem needs an R2C and a C2R plan.
    for (bool forward : {true, false}) {
      if (!forward && d_.kind == FFTMUX_C2C)
        break;
      cufftHandle& h = forward ? fwd_ : inv_;
      if (half(d_))
        make_xt_plan(h, d_, forward);
      else
        check_fft(cufftPlanMany(&h, int(d_.rank), n, nullptr, 1, 0, nullptr, 1, 0,
                                type_of(d_, forward), int(d_.batch)),
                  "cufftPlanMany");
      made_[forward ? 0 : 1] = true;
      check_fft(cufftSetStream(h, stream()), "cufftSetStream");
    }
  }
  void launch(int direction) override {
    bool f = direction == FFTMUX_FORWARD;
    void* in = at(f ? Slot::in : Slot::mid);
    void* out = at(f ? Slot::mid : Slot::back);
    int sign = f ? CUFFT_FORWARD : CUFFT_INVERSE;
    bool f64 = d_.precision == FFTMUX_F64;
    cufftResult r;
    if (half(d_))
      r = cufftXtExec(d_.kind == FFTMUX_C2C || f ? fwd_ : inv_, in, out, sign);
    else if (d_.kind == FFTMUX_C2C)
      r = f64 ? cufftExecZ2Z(fwd_, z(in), z(out), sign) : cufftExecC2C(fwd_, c(in), c(out), sign);
    else if (f)
      r = f64 ? cufftExecD2Z(fwd_, static_cast<cufftDoubleReal*>(in), z(out))
              : cufftExecR2C(fwd_, static_cast<cufftReal*>(in), c(out));
    else
      r = f64 ? cufftExecZ2D(inv_, z(in), static_cast<cufftDoubleReal*>(out))
              : cufftExecC2R(inv_, c(in), static_cast<cufftReal*>(out));
    check_fft(r, "cufftExec");
  }

private:
  static cufftComplex* c(void* p) { return static_cast<cufftComplex*>(p); }
  static cufftDoubleComplex* z(void* p) { return static_cast<cufftDoubleComplex*>(p); }
  void release() {
    if (std::exchange(made_[0], false))
      cufftDestroy(fwd_);
    if (std::exchange(made_[1], false))
      cufftDestroy(inv_);
  }

  fftmux_desc d_;
  cufftHandle fwd_ = 0, inv_ = 0;
  bool made_[2] = {false, false};
};

class CufftEngine : public CudaEngine<CufftRun> {
public:
  using CudaEngine::CudaEngine;
  std::string declines(const fftmux_desc& d) const override {
    if (d.kind == FFTMUX_R2R)
      return "cuFFT has no real-to-real (DCT, DST) transforms";
    for (uint32_t a = 0; a < d.rank && half(d); ++a)
      if (d.n[a] & (d.n[a] - 1))
        return "cuFFT runs 16-bit formats on powers of two only; " + std::to_string(d.n[a]) +
               " is not one";
    return "";
  }
};

// cudaMemcpyAsync device to device of the input's bytes: in -> mid, mid -> back.
class CopyRun : public CudaRun {
public:
  CopyRun(const fftmux_desc&, const Host& h) : CudaRun(h) {}
  void plan() override {}
  void launch(int direction) override {
    bool f = direction == FFTMUX_FORWARD;
    check(cudaMemcpyAsync(at(f ? Slot::mid : Slot::back), at(f ? Slot::in : Slot::mid),
                          host().in_bytes, cudaMemcpyDeviceToDevice, stream()),
          "cudaMemcpyAsync");
  }
};

std::string cufft_version() {
  int v = 0;
  return cufftGetVersion(&v) == CUFFT_SUCCESS ? "cuFFT " + std::to_string(v) : "cuFFT";
}

} // namespace

} // namespace bench::cuda

BENCH_PEER_ENTRY fftmux_bench_peers(bench::Engines* out) {
  using namespace bench;
  std::string why = cuda::unavailable();
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  out->push_back(std::make_unique<cuda::CufftEngine>(
      cuda::info("cufft", Family::peer, cuda::cufft_version(), why)));
  out->push_back(std::make_unique<cuda::CudaEngine<cuda::CopyRun>>(
      cuda::info("cudaMemcpy", Family::copy, "CUDA runtime " + std::to_string(runtime), why)));
}
