// VkFFT called directly through Debian's libvkfft-dev header with its CUDA
// backend (kernels compiled by NVRTC at plan time). A module of its own: it
// links the CUDA driver, which machines without a GPU do not have.
#define VKFFT_BACKEND 1
#include <vkFFT.h>

#include "cuda_run.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace bench::cuda {

namespace {

// VkFFT 1.2.26 puts the batch count (times the outer size of a 3D problem)
// into one grid dimension and leaves output unwritten beyond 65535: larger
// batches run as several calls.
constexpr int64_t grid_limit = 65535;

int64_t batch_limit(const fftmux_desc& d) {
  return grid_limit / (d.rank == 3 ? d.n[0] : 1);
}

class VkfftRun : public CudaRun {
public:
  VkfftRun(const fftmux_desc& d, const Host& h) : CudaRun(h), d_(d) {
    CUresult r = cuDeviceGet(&device_, 0);
    if (r != CUDA_SUCCESS)
      throw std::runtime_error("cuDeviceGet failed: " + std::to_string(int(r)));
    int64_t rows = std::min(d.batch, batch_limit(d));
    chunks_ = {{rows, d.batch / rows}};
    if (d.batch % rows)
      chunks_.push_back({d.batch % rows, 1});
  }
  ~VkfftRun() override { release(); }

  void plan() override {
    release();
    for (Chunk& c : chunks_)
      make(c);
  }
  void launch(int direction) override {
    bool f = direction == FFTMUX_FORWARD;
    auto* in = static_cast<unsigned char*>(at(f ? Slot::in : Slot::mid));
    auto* out = static_cast<unsigned char*>(at(f ? Slot::mid : Slot::back));
    int64_t row = 0;
    for (Chunk& c : chunks_)
      for (int64_t k = 0; k < c.calls; ++k, row += c.rows) {
        // Forward reads inputBuffer and writes buffer; the inverse reads
        // buffer and, with inverseReturnToInputBuffer, writes inputBuffer.
        // VkFFT keeps the addresses of these pointers and reads them at
        // each kernel launch: members, so the addresses stay valid.
        input_side_ = (f ? in : out) + row * row_bytes(true);
        spectrum_ = (f ? out : in) + row * row_bytes(false);
        VkFFTLaunchParams p{};
        p.inputBuffer = &input_side_;
        p.buffer = &spectrum_;
        VkFFTResult r = VkFFTAppend(&c.app, f ? -1 : 1, &p);
        if (r != VKFFT_SUCCESS)
          throw std::runtime_error("VkFFTAppend failed: VkFFTResult " + std::to_string(int(r)));
      }
  }

private:
  struct Chunk {
    int64_t rows;  // batch entries per call
    int64_t calls; // how many such calls
    VkFFTApplication app{};
    bool made = false;
    uint64_t in_bytes = 0, out_bytes = 0;
    void* in = nullptr;
    void* out = nullptr;
  };

  // Bytes of one batch entry: of the input side (real for R2C) or the spectrum.
  int64_t row_bytes(bool input) const {
    return int64_t(input ? host().in_bytes : host().out_bytes) / d_.batch;
  }

  void make(Chunk& c) {
    VkFFTConfiguration k{};
    k.FFTdim = d_.rank;
    // VkFFT counts axes from the contiguous one.
    for (uint32_t i = 0; i < 3; ++i)
      k.size[i] = i < d_.rank ? uint64_t(d_.n[d_.rank - 1 - i]) : 1;
    k.numberBatches = uint64_t(c.rows);
    k.device = &device_;
    k.stream = stream_handle();
    k.num_streams = 1;
    k.doublePrecision = d_.precision == FFTMUX_F64;
    k.performR2C = d_.kind == FFTMUX_R2C;
    k.performDCT = d_.kind == FFTMUX_R2R ? d_.r2r[0] : 0; // DCT-I..IV are 1..4, every axis
    // Out of place: the input apart from the spectrum, both unpadded.
    k.isInputFormatted = 1;
    k.inverseReturnToInputBuffer = 1;
    uint64_t spectrum0 = k.performR2C ? k.size[0] / 2 + 1 : k.size[0];
    k.inputBufferStride[0] = k.size[0];
    k.bufferStride[0] = spectrum0;
    for (int i = 1; i < 3; ++i) {
      k.inputBufferStride[i] = k.inputBufferStride[i - 1] * k.size[i];
      k.bufferStride[i] = k.bufferStride[i - 1] * k.size[i];
    }
    c.in_bytes = uint64_t(row_bytes(true) * c.rows);
    c.out_bytes = uint64_t(row_bytes(false) * c.rows);
    c.in = at(Slot::in);
    c.out = at(Slot::mid);
    k.inputBufferSize = &c.in_bytes;
    k.bufferSize = &c.out_bytes;
    k.inputBuffer = &c.in;
    k.buffer = &c.out;
    VkFFTResult r = initializeVkFFT(&c.app, k);
    if (r != VKFFT_SUCCESS)
      throw std::runtime_error("initializeVkFFT failed: VkFFTResult " + std::to_string(int(r)));
    c.made = true;
  }
  void release() {
    for (Chunk& c : chunks_)
      if (std::exchange(c.made, false)) {
        deleteVkFFT(&c.app);
        c.app = VkFFTApplication{};
      }
  }

  fftmux_desc d_;
  CUdevice device_ = 0;
  std::vector<Chunk> chunks_;
  void* input_side_ = nullptr; // the real side of R2C: input forward, output inverse
  void* spectrum_ = nullptr;
};

class VkfftEngine : public CudaEngine<VkfftRun> {
public:
  using CudaEngine::CudaEngine;
  std::string declines(const fftmux_desc& d) const override {
    if (d.precision == FFTMUX_F16 || d.precision == FFTMUX_BF16)
      return "this harness runs VkFFT in F32 and F64 only";
    for (uint32_t a = 0; d.kind == FFTMUX_R2R && a < d.rank; ++a)
      if (d.r2r[a] > FFTMUX_DCT4 || d.r2r[a] != d.r2r[0])
        return "VkFFT 1.2.26 runs DCT-I..IV, the same on every axis";
    if (batch_limit(d) < 1)
      return "VkFFT 1.2.26 runs at most 65535 outer slices per call; " + std::to_string(d.n[0]) +
             " exceed it";
    return "";
  }
};

std::string vkfft_version() {
  int v = VkFFTGetVersion();
  return "VkFFT " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100) + " (CUDA backend)";
}

} // namespace

} // namespace bench::cuda

BENCH_PEER_ENTRY fftmux_bench_peers(bench::Engines* out) {
  using namespace bench;
  std::string why = cuda::unavailable();
  if (why.empty() && cuInit(0) != CUDA_SUCCESS)
    why = "cuInit failed";
  out->push_back(std::make_unique<cuda::VkfftEngine>(
      cuda::info("vkfft", Family::peer, cuda::vkfft_version(), why)));
}
