// The CUDA dialect compiles with NVRTC (no GPU needed): what the CUDA
// backend will feed it.
#include <fftmux/codegen.hpp>

#include <gtest/gtest.h>
#include <nvrtc.h>

#include <cstring>

namespace fftmux::codegen {
namespace {

fftmux_desc problem(int64_t n, fftmux_kind kind, fftmux_precision p, int64_t batch) {
  fftmux_desc d;
  std::memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.rank = 1;
  d.n[0] = n;
  d.batch = batch;
  d.kind = kind;
  d.precision = p;
  d.norm = FFTMUX_NORM_ORTHO;
  d.flags = FFTMUX_SHIFT_INPUT;
  d.in_strides[0] = d.out_strides[0] = 1;
  d.in_distance = kind == FFTMUX_C2R ? n / 2 + 1 : n;
  d.out_distance = kind == FFTMUX_R2C ? n / 2 + 1 : n;
  return d;
}

// Every pass of p compiles for sm_90.
void expect_compiles(const Plan& p) {
  for (const Pass& pass : p.passes) {
    std::string src = emit(pass.kernel, Dialect::cuda);
    nvrtcProgram prog;
    ASSERT_EQ(nvrtcCreateProgram(&prog, src.c_str(), "kernel.cu", 0, nullptr, nullptr),
              NVRTC_SUCCESS);
    const char* opts[] = {"--gpu-architecture=compute_90"};
    nvrtcResult r = nvrtcCompileProgram(prog, 1, opts);
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, log.data());
    EXPECT_EQ(r, NVRTC_SUCCESS) << p.summary << "\n" << log;
    nvrtcDestroyProgram(&prog);
  }
}

TEST(Nvrtc, CudaDialectCompiles) {
  Device h200;
  struct P {
    int64_t n;
    fftmux_kind k;
    fftmux_precision p;
  };
  for (P c : {P{4096, FFTMUX_C2C, FFTMUX_F32}, P{1000, FFTMUX_C2C, FFTMUX_F64},
              P{97, FFTMUX_C2C, FFTMUX_F32}, P{1 << 20, FFTMUX_C2C, FFTMUX_F32},
              P{1024, FFTMUX_R2C, FFTMUX_F32}, P{1000, FFTMUX_C2R, FFTMUX_F32},
              P{10007, FFTMUX_C2C, FFTMUX_F32}, P{8192, FFTMUX_C2C, FFTMUX_F32},
              P{1024, FFTMUX_C2C, FFTMUX_F64}}) {
    fftmux_desc d = problem(c.n, c.k, c.p, 8);
    Options tail; // and the variant that emits its last stage a butterfly at a time
    tail.butterfly_tail = true;
    int direction = c.k == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
    Plan p = plan(d, direction, h200);
    Plan t = plan(d, direction, h200, tail);
    p.passes.insert(p.passes.end(), t.passes.begin(), t.passes.end());
    expect_compiles(p);
  }
}

// F16 and BF16 storage: the conversions of each side's kind of access.
TEST(Nvrtc, Storage16Compiles) {
  Device h200;
  struct P {
    int64_t n;
    fftmux_kind k;
    fftmux_precision p;
  };
  for (P c : {P{1000, FFTMUX_C2C, FFTMUX_F16}, P{97, FFTMUX_C2C, FFTMUX_BF16},
              P{1024, FFTMUX_R2C, FFTMUX_BF16}, P{1000, FFTMUX_C2R, FFTMUX_F16},
              P{999, FFTMUX_C2R, FFTMUX_BF16}}) { // odd: single reals stored by atomics
    fftmux_desc d = problem(c.n, c.k, c.p, 8);
    expect_compiles(plan(d, c.k == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD, h200));
  }
}

} // namespace
} // namespace fftmux::codegen
