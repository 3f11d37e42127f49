// Prototype timing: kernels compiled with NVRTC as fftmux's CUDA backend does,
// against cuFFT and a device copy, on 2^27 complex F32 elements, each output
// compared with cuFFT's. Args: N then specs
// file:kernel:grid:block:shared_bytes:table_file (forward transforms).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cufft.h>
#include <fstream>
#include <nvrtc.h>
#include <sstream>
#include <string>
#include <vector>
#define CK(x)                                                                                      \
  do {                                                                                             \
    CUresult e = (x);                                                                              \
    if (e) {                                                                                       \
      const char* s;                                                                               \
      cuGetErrorString(e, &s);                                                                     \
      printf("%s: %s\n", #x, s);                                                                   \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
static std::string slurp(const std::string& f) {
  std::ifstream i(f);
  std::stringstream s;
  s << i.rdbuf();
  return s.str();
}
static CUfunction compile(const std::string& file, const std::string& name) {
  std::string src = slurp(file);
  nvrtcProgram p;
  nvrtcCreateProgram(&p, src.c_str(), "k.cu", 0, 0, 0);
  const char* o[] = {"--gpu-architecture=sm_90", "-std=c++17", "--ptxas-options=-v"};
  nvrtcResult r = nvrtcCompileProgram(p, 3, o);
  size_t n;
  nvrtcGetProgramLogSize(p, &n);
  std::string log(n, 0);
  nvrtcGetProgramLog(p, log.data());
  for (auto& l : {std::string("registers"), std::string("spill")}) {
    size_t at = log.find(l);
    if (at != std::string::npos) {
      size_t b = log.rfind('\n', at);
      printf("  %s", log.substr(b + 1, log.find('\n', at) - b).c_str());
    }
  }
  if (r) {
    printf("%s\n", log.c_str());
    exit(1);
  }
  nvrtcGetCUBINSize(p, &n);
  std::vector<char> cu(n);
  nvrtcGetCUBIN(p, cu.data());
  CUmodule m;
  CK(cuModuleLoadData(&m, cu.data()));
  CUfunction f;
  CK(cuModuleGetFunction(&f, m, name.c_str()));
  return f;
}
static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2] * 1000;
}
int main(int argc, char** argv) {
  long N = atol(argv[1]), B = (1L << 27) / N, E = N * B;
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  int sms;
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  CUdeviceptr in, out, ref, tab;
  CK(cuMemAlloc(&in, E * 8));
  CK(cuMemAlloc(&out, E * 8));
  CK(cuMemAlloc(&ref, E * 8));
  CK(cuMemAlloc(&tab, 8 << 20));
  {
    std::vector<float> h(E * 2);
    unsigned s = 1;
    for (auto& x : h) {
      s = s * 1664525u + 1013904223u;
      x = (s >> 8) * (1.0f / 16777216.0f) - 0.5f;
    }
    CK(cuMemcpyHtoD(in, h.data(), E * 8));
    std::vector<float> t(2 << 20);
    for (size_t i = 0; i < t.size(); i += 2) {
      double a = 0.001 * i;
      t[i] = cos(a);
      t[i + 1] = sin(a);
    }
    CK(cuMemcpyHtoD(tab, t.data(), 8 << 20));
  }
  CUevent a, b;
  cuEventCreate(&a, 0);
  cuEventCreate(&b, 0);
  auto timeit = [&](auto launch) {
    std::vector<float> ts;
    for (int i = 0; i < 40; ++i) {
      cuEventRecord(a, 0);
      launch();
      cuEventRecord(b, 0);
      cuEventSynchronize(b);
      float ms;
      cuEventElapsedTime(&ms, a, b);
      if (i >= 10)
        ts.push_back(ms);
    }
    return median(ts);
  };
  cufftHandle plan;
  int n = N;
  cufftPlanMany(&plan, 1, &n, 0, 1, N, 0, 1, N, CUFFT_C2C, B);
  double tc =
      timeit([&] { cufftExecC2C(plan, (cufftComplex*)in, (cufftComplex*)out, CUFFT_FORWARD); });
  double tcopy = timeit([&] { CK(cuMemcpyDtoDAsync(ref, in, E * 8, 0)); });
  CK(cuCtxSynchronize());
  std::vector<float> hr(E * 2);
  CK(cuMemcpyDtoH(hr.data(), out, E * 8));
  double rmax = 0;
  for (float v : hr)
    rmax = std::max(rmax, (double)std::fabs(v));
  printf("N %ld cufft %.1f us, copy %.1f us (%.0f GB/s)\n", N, tc, tcopy, E * 16 / tcopy / 1e3);
  std::vector<float> h1(E * 2);
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    std::vector<std::string> f;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, ':'))
      f.push_back(x);
    printf("%s", s.c_str());
    CUfunction k = compile(f[0], f[1]);
    std::string tb = slurp(f[5]);
    CK(cuMemcpyHtoD(tab, tb.data(), tb.size()));
    unsigned grid = atol(f[2].c_str()), block = atol(f[3].c_str()), shb = atol(f[4].c_str());
    if (grid == 0)
      grid = B;
    if (grid == 1)
      grid = sms;
    if (grid == 2)
      grid = 2 * sms;
    CK(cuFuncSetAttribute(k, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shb));
    unsigned off = 0;
    void* args[] = {&in, &out, &tab, &off};
    CK(cuMemsetD32(out, 0x7fc00000, E * 2));
    auto go = [&] { CK(cuLaunchKernel(k, grid, 1, 1, block, 1, 1, shb, 0, args, 0)); };
    double t = timeit(go);
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(h1.data(), out, E * 8));
    double md = 0;
    for (size_t j = 0; j < h1.size(); ++j)
      md = std::max(md, (double)std::fabs(h1[j] - hr[j]));
    bool nan = false;
    for (size_t j = 0; j < h1.size(); ++j)
      if (std::isnan(h1[j])) {
        nan = true;
        break;
      }
    printf("  grid %u: %.1f us, cufft/this %.3f, copy/this %.3f, max |this - cufft| / max |cufft| %.3g%s\n",
           grid, t, tc / t, tcopy / t, md / rmax, nan ? " NAN!" : "");
  }
}
