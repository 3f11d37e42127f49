// Benchmark of the CUDA backend on an NVIDIA GPU: our "cufft" variant against
// direct cuFFT calls on the same problems, our "native" variant against
// cuFFT, shifts fused (callbacks, modulation) against plain transforms and
// against a separate pass, and a device-to-device copy as the bandwidth
// line. Everything on device memory, timed with CUDA events on one stream,
// median of repeats. Every output is verified: each fftmux output against
// cuFFT's over every element (outputs poisoned with NaN first), and cuFFT's
// own output against exact DFT bins computed in double on the CPU.
//
//   cuda_bench [--quick] [--all-variants] [--variants A,B] [--shifts-only] [--match TEXT]
//              [--repeats N] [--warmup SECONDS] [--json FILE]
// --variants runs the named native variants, as the backend lists them
// ("native-two-groups,native-wide"), where --all-variants runs them all.
// --match keeps the problems whose name contains TEXT (e.g. "10007 x"), or one
// of several texts separated by '|' ("c2c f32 8192 x|c2c f32 2187 x").
#include "warm_up.hpp"

#include <elementwise.hpp>
#include <nvrtc.hpp>

#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void cufft_ok(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuFFT status " + std::to_string(int(r)));
}

struct Options {
  bool quick = false;
  bool all_variants = false; // every native variant on every problem
  std::string variants;      // those native variants only (comma-separated), "" = all
  bool shifts_only = false;  // the fused-shift rows alone
  std::string match;         // problems whose name contains this, "" = all
  int repeats = 25;
  double warmup = 1; // seconds of untimed runs before each timing
  std::string json;
  int plans = 0; // the native plan made this many times more, each timed twice in turn
  // Runs queued back to back in one timed sample: 1 leaves the GPU idle
  // while the host launches, so the launch's host time counts.
  int chain = 1;
};

// ---- problems ----

struct Problem {
  std::string group, name;
  fftmux_desc desc;
};

fftmux_desc make(std::vector<int64_t> n, int64_t batch, fftmux_kind kind = FFTMUX_C2C,
                 fftmux_precision p = FFTMUX_F32, uint32_t flags = 0) {
  fftmux_desc d = fftmux::make_desc(n, kind, p, batch);
  d.placement = FFTMUX_DEVICE;
  d.norm = FFTMUX_NORM_NONE; // cuFFT does not scale: compare like with like
  d.flags = flags;
  return d;
}

std::string shape_name(const fftmux_desc& d) {
  std::string s;
  for (uint32_t i = 0; i < d.rank; ++i)
    s += (i ? "x" : "") + std::to_string(d.n[i]);
  return s;
}

int64_t points(const fftmux_desc& d) {
  int64_t n = 1;
  for (uint32_t i = 0; i < d.rank; ++i)
    n *= d.n[i];
  return n;
}

// Whether name contains one of the '|'-separated texts of match.
bool matches(const std::string& name, const std::string& match) {
  for (size_t at = 0;;) {
    size_t bar = match.find('|', at);
    if (name.find(match.substr(at, bar - at)) != std::string::npos)
      return true;
    if (bar == std::string::npos)
      return false;
    at = bar + 1;
  }
}

std::vector<Problem> problems(bool quick) {
  const int64_t total = int64_t(1) << 27; // complex F32 elements per call
  std::vector<int64_t> sizes;
  for (int e = 3; e <= 24; ++e)
    sizes.push_back(int64_t(1) << e);
  for (int64_t n : {1000, 1536, 2187, 2401, 3125, 4093, 4097, 6000, 10007})
    sizes.push_back(n);
  if (quick)
    sizes = {8, 1024, 16384, 65536, 1 << 20, 4093, 4097, 10007};
  std::vector<Problem> v;
  for (int64_t n : sizes)
    v.push_back({"1d", "", make({n}, total / n)});
  v.push_back({"2d", "", make({1024, 1024}, 64)});
  v.push_back({"2d", "", make({4096, 4096}, 1)});
  v.push_back({"3d", "", make({256, 256, 256}, 1)});
  if (!quick)
    v.push_back({"3d", "", make({512, 512, 512}, 1)});
  for (int64_t n : {1024, 16384, 1 << 20})
    v.push_back({"f64", "", make({n}, (total / 2) / n, FFTMUX_C2C, FFTMUX_F64)});
  v.push_back({"f64", "", make({1024, 1024}, 32, FFTMUX_C2C, FFTMUX_F64)});
  for (int64_t n : {1024, 16384, 1 << 20})
    v.push_back({"r2c", "", make({n}, (2 * total) / n, FFTMUX_R2C)});
  v.push_back({"r2c", "", make({4096, 4096}, 4, FFTMUX_R2C)});
  for (auto& p : v) {
    const char* kind[] = {"c2c", "r2c", "c2r"};
    p.name = std::string(kind[p.desc.kind]) + (p.desc.precision == FFTMUX_F64 ? " f64 " : " f32 ") +
             shape_name(p.desc) + " x" + std::to_string(p.desc.batch);
  }
  return v;
}

// ---- device memory and timing ----

struct DeviceBuffer {
  void* p = nullptr;
  size_t bytes = 0;
  explicit DeviceBuffer(size_t n) : bytes(n) { cuda_ok(cudaMalloc(&p, n), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(p); }
};

struct Timing {
  double median = 0, low = 0, high = 0; // milliseconds
};

// Untimed runs first, for o.warmup seconds (warm_up.hpp says why); each
// sample times o.chain runs queued back to back, divided by their count.
Timing time_on(cudaStream_t s, const Options& o, const std::function<void()>& run) {
  fftmux::bench::warm_up(o.warmup, run,
                         [&] { cuda_ok(cudaStreamSynchronize(s), "a warm-up run"); });
  cudaEvent_t a, b;
  cuda_ok(cudaEventCreate(&a), "cudaEventCreate");
  cuda_ok(cudaEventCreate(&b), "cudaEventCreate");
  std::vector<double> t;
  for (int i = 0; i < o.repeats; ++i) {
    cuda_ok(cudaEventRecord(a, s), "cudaEventRecord");
    for (int c = 0; c < o.chain; ++c)
      run();
    cuda_ok(cudaEventRecord(b, s), "cudaEventRecord");
    cuda_ok(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    cuda_ok(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    t.push_back(ms / o.chain);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cuda_ok(cudaGetLastError(), "a timed run");
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front(), t.back()};
}

uint64_t in_bytes(const fftmux_desc& d) {
  return fftmux::layout(d).in_bytes;
}
uint64_t out_bytes(const fftmux_desc& d) {
  return fftmux::layout(d).out_bytes;
}
double gbs(const fftmux_desc& d, double ms) {
  return double(in_bytes(d) + out_bytes(d)) / (ms * 1e-3) * 1e-9;
}

// ---- direct cuFFT ----

struct Direct {
  cufftHandle h = 0;
  fftmux_desc d;
  Direct(const fftmux_desc& desc, cudaStream_t s) : d(desc) {
    int n[3];
    for (uint32_t i = 0; i < d.rank; ++i)
      n[i] = int(d.n[i]);
    bool f64 = d.precision == FFTMUX_F64;
    cufftType t =
        d.kind == FFTMUX_R2C ? (f64 ? CUFFT_D2Z : CUFFT_R2C) : (f64 ? CUFFT_Z2Z : CUFFT_C2C);
    cufft_ok(cufftPlanMany(&h, int(d.rank), n, nullptr, 1, 0, nullptr, 1, 0, t, int(d.batch)),
             "cufftPlanMany");
    cufft_ok(cufftSetStream(h, s), "cufftSetStream");
  }
  ~Direct() { cufftDestroy(h); }
  void run(void* in, void* out) {
    bool f64 = d.precision == FFTMUX_F64;
    if (d.kind == FFTMUX_R2C)
      f64 ? cufftExecD2Z(h, (cufftDoubleReal*)in, (cufftDoubleComplex*)out)
          : cufftExecR2C(h, (cufftReal*)in, (cufftComplex*)out);
    else
      f64 ? cufftExecZ2Z(h, (cufftDoubleComplex*)in, (cufftDoubleComplex*)out, CUFFT_FORWARD)
          : cufftExecC2C(h, (cufftComplex*)in, (cufftComplex*)out, CUFFT_FORWARD);
  }
};

// ---- verification ----

// The elementwise comparison of an output with cuFFT's, over every element,
// through the output's fftshift when the problem has SHIFT_OUTPUT.
class Comparer {
public:
  explicit Comparer(const fftmux::cuda::Compiler& c) : compiler_(c) {
    cuda_ok(cudaMalloc(reinterpret_cast<void**>(&acc_), 3 * sizeof(double)), "cudaMalloc");
  }
  ~Comparer() { cudaFree(acc_); }

  // sqrt(sum |got - want|^2 / sum |want|^2); infinity when got holds NaN.
  double error(const fftmux_desc& d, const void* got, const void* want, cudaStream_t s) {
    std::string source = kernel(d);
    auto it = modules_.find(source);
    if (it == modules_.end())
      it = modules_
               .emplace(source, std::make_unique<fftmux::cuda::Module>(
                                    compiler_.compile(source, fftmux::cuda::Output::cubin)))
               .first;
    cudaKernel_t k = it->second->kernel("compare");
    cuda_ok(cudaMemsetAsync(acc_, 0, 3 * sizeof(double), s), "cudaMemsetAsync");
    void* args[] = {&got, &want, &acc_};
    fftmux::cuda::launch(k, dim3(132 * 8), dim3(256), 0, s, args, "compare");
    double h[3];
    cuda_ok(cudaMemcpyAsync(h, acc_, sizeof h, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    cuda_ok(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    return h[2] > 0 ? INFINITY : std::sqrt(h[0] / h[1]);
  }

private:
  static std::string kernel(const fftmux_desc& d) {
    fftmux::cuda::Side out = fftmux::cuda::packed(fftmux::cuda::user_side(d, false));
    unsigned roll = (d.flags & FFTMUX_SHIFT_OUTPUT) ? out.shift_axes : 0;
    std::ostringstream k;
    bool f64 = d.precision == FFTMUX_F64;
    k << "typedef " << (f64 ? "double2" : "float2") << " T;\n"
      << "extern \"C\" __global__ void compare(const T* got, const T* want, double* acc) {\n"
      << "  double e = 0, w = 0, nan = 0;\n"
      << "  for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < " << out.count()
      << "ull; i += gridDim.x * 256ull) {\n"
      << "    unsigned long long r = i, p = 0, step = 1;\n";
    for (int a = fftmux::cuda::kAxes - 1; a >= 0; --a) {
      int64_t n = out.extent[a], by = (roll >> a & 1u) ? n / 2 : 0;
      k << "    { unsigned long long x = r % " << n << "ull; r /= " << n << "ull; p += ((x + " << by
        << "ull) % " << n << "ull) * step; step *= " << n << "ull; }\n";
    }
    k << "    T g = got[p], v = want[i];\n"
      << "    if (g.x != g.x || g.y != g.y) nan += 1;\n"
      << "    double dx = (double)g.x - v.x, dy = (double)g.y - v.y;\n"
      << "    e += dx * dx + dy * dy; w += (double)v.x * v.x + (double)v.y * v.y;\n"
      << "  }\n"
      << "  __shared__ double s[3][256];\n"
      << "  s[0][threadIdx.x] = e; s[1][threadIdx.x] = w; s[2][threadIdx.x] = nan;\n"
      << "  __syncthreads();\n"
      << "  for (int h = 128; h > 0; h /= 2) {\n"
      << "    if (threadIdx.x < h) for (int j = 0; j < 3; ++j) s[j][threadIdx.x] += "
         "s[j][threadIdx.x + h];\n"
      << "    __syncthreads();\n"
      << "  }\n"
      << "  if (threadIdx.x == 0) for (int j = 0; j < 3; ++j) atomicAdd(acc + j, s[j][0]);\n"
      << "}\n";
    return k.str();
  }

  const fftmux::cuda::Compiler& compiler_;
  std::map<std::string, std::unique_ptr<fftmux::cuda::Module>> modules_;
  double* acc_ = nullptr;
};

// cuFFT's output checked at a few bins against the exact DFT of the input,
// in double on the CPU: |X - exact| / sqrt(sum |x|^2) (Parseval's scale).
double check_bins(const fftmux_desc& d, const std::vector<float>& in32,
                  const std::vector<double>& in64, const void* dev_out, std::mt19937_64& rng) {
  bool f64 = d.precision == FFTMUX_F64, real = d.kind == FFTMUX_R2C;
  fftmux::cuda::Side out = fftmux::cuda::packed(fftmux::cuda::user_side(d, false));
  int64_t n = points(d);
  double worst = 0;
  std::vector<int64_t> batches = {0, d.batch / 2, d.batch - 1};
  batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
  int bins = n > (1 << 24) ? 2 : 4;
  for (int64_t b : batches)
    for (int j = 0; j < bins; ++j) {
      int64_t k[3] = {0, 0, 0};
      for (uint32_t a = 0; a < d.rank; ++a) {
        int64_t ext = out.extent[fftmux::cuda::kAxes - d.rank + a];
        k[a] = j == 0 ? 0 : j == 1 ? ext - 1 : int64_t(rng() % uint64_t(ext));
      }
      // Twiddles per axis for this bin, then the sum over the transform.
      std::vector<std::vector<std::complex<double>>> tw(d.rank);
      for (uint32_t a = 0; a < d.rank; ++a) {
        tw[a].resize(size_t(d.n[a]));
        for (int64_t m = 0; m < d.n[a]; ++m)
          tw[a][m] = std::polar(1.0, -2 * M_PI * double((k[a] * m) % d.n[a]) / double(d.n[a]));
      }
      std::complex<double> sum = 0;
      double energy = 0;
      int64_t n1 = d.rank > 1 ? d.n[1] : 1, n2 = d.rank > 2 ? d.n[2] : 1;
      for (int64_t e = 0; e < n; ++e) {
        int64_t i0 = e / (n1 * n2), i1 = (e / n2) % n1, i2 = e % n2;
        int64_t at = b * n + e;
        std::complex<double> x = real
                                     ? std::complex<double>(f64 ? in64[at] : in32[at], 0)
                                     : (f64 ? std::complex<double>(in64[2 * at], in64[2 * at + 1])
                                            : std::complex<double>(in32[2 * at], in32[2 * at + 1]));
        std::complex<double> w = tw[0][i0];
        if (d.rank > 1)
          w *= tw[1][i1];
        if (d.rank > 2)
          w *= tw[2][i2];
        sum += x * w;
        energy += std::norm(x);
      }
      // The element of the output at (b, k).
      int64_t off = b * out.stride[0];
      for (uint32_t a = 0; a < d.rank; ++a)
        off += k[a] * out.stride[fftmux::cuda::kAxes - d.rank + a];
      std::complex<double> got;
      if (f64) {
        double v[2];
        cuda_ok(cudaMemcpy(v, (const double*)dev_out + 2 * off, sizeof v, cudaMemcpyDeviceToHost),
                "bin");
        got = {v[0], v[1]};
      } else {
        float v[2];
        cuda_ok(cudaMemcpy(v, (const float*)dev_out + 2 * off, sizeof v, cudaMemcpyDeviceToHost),
                "bin");
        got = {v[0], v[1]};
      }
      worst = std::max(worst, std::abs(got - sum) / std::sqrt(energy));
    }
  return worst;
}

// ---- the runs ----

struct Row {
  Row(std::string g, std::string p, std::string w)
      : group(std::move(g)), problem(std::move(p)), what(std::move(w)) {}
  std::string group, problem, what;
  Timing t;
  double gbs = 0, error = 0, bound = 0;
  bool ok = true;
  std::string note;
};

std::unique_ptr<fftmux::context> make_context(const std::string& settings) {
  auto path = std::filesystem::temp_directory_path() /
              ("fftmux_cuda_bench_" + std::to_string(std::hash<std::string>{}(settings)) + ".toml");
  std::ofstream(path) << "[backends.cuda]\n" << settings << "\n";
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  std::string p = path.string();
  o.config_path = p.c_str();
  return std::make_unique<fftmux::context>(o);
}

fftmux::buffer wrap(fftmux::context& ctx, void* p, uint64_t bytes) {
  fftmux_buffer b = nullptr;
  if (fftmux_buffer_wrap(ctx.get(), "cuda", reinterpret_cast<uint64_t>(p), bytes, &b) != FFTMUX_OK)
    throw std::runtime_error(fftmux_last_error());
  return fftmux::buffer(b);
}

struct Bench {
  Options opt;
  cudaStream_t stream = nullptr;
  std::unique_ptr<DeviceBuffer> in, want, got;
  std::vector<float> host32;
  std::vector<double> host64;
  std::unique_ptr<fftmux::cuda::Compiler> compiler;
  std::unique_ptr<Comparer> compare;
  std::map<std::string, std::unique_ptr<fftmux::context>> ctx;
  std::vector<Row> rows;
  std::vector<std::string> more; // native variants beyond the default
  std::mt19937_64 rng{2026};

  void setup() {
    cuda_ok(cudaSetDevice(0), "cudaSetDevice");
    cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    const size_t bytes = size_t(1) << 30;
    in = std::make_unique<DeviceBuffer>(bytes);
    want = std::make_unique<DeviceBuffer>(bytes + (64 << 20));
    got = std::make_unique<DeviceBuffer>(bytes + (64 << 20));
    // One random input serves every problem: its first bytes, as floats or doubles.
    host32.resize(bytes / 4);
    std::uniform_real_distribution<float> u(-1, 1);
    std::minstd_rand fast(7);
    for (auto& x : host32)
      x = float(int32_t(fast()) % 2000001 - 1000000) * 1e-6f;
    host64.resize(bytes / 8);
    for (auto& x : host64)
      x = double(int32_t(fast()) % 2000001 - 1000000) * 1e-6;
    compiler = std::make_unique<fftmux::cuda::Compiler>("sm_90", "bench", "", nullptr);
    compare = std::make_unique<Comparer>(*compiler);
    ctx["pass"] = make_context("cufft_fusion = \"pass\"");
    ctx["callback"] = make_context("cufft_fusion = \"callback-experimental\"");
    more = more_native();
  }

  void upload(const fftmux_desc& d) {
    const void* src = d.precision == FFTMUX_F64 ? (const void*)host64.data() : host32.data();
    cuda_ok(cudaMemcpy(in->p, src, in->bytes, cudaMemcpyHostToDevice), "upload");
  }

  void copy_line() {
    Row r{"copy", "cudaMemcpy D2D 1 GiB", "copy"};
    r.t = time_on(stream, opt, [&] {
      cuda_ok(cudaMemcpyAsync(got->p, in->p, in->bytes, cudaMemcpyDeviceToDevice, stream), "copy");
    });
    r.gbs = 2.0 * double(in->bytes) / (r.t.median * 1e-3) * 1e-9;
    rows.push_back(r);
    print(r);
  }

  // Direct cuFFT: the time, and its output (left in want) checked at bins.
  Timing direct(const Problem& p, Row& r) {
    Direct cu(p.desc, stream);
    r.t = time_on(stream, opt, [&] { cu.run(in->p, want->p); });
    cuda_ok(cudaMemset(want->p, 0xFF, out_bytes(p.desc)), "poison");
    cu.run(in->p, want->p);
    cuda_ok(cudaStreamSynchronize(stream), "direct run");
    r.error = check_bins(p.desc, host32, host64, want->p, rng);
    r.bound = 5 * fftmux::ref::error_bound(p.desc);
    r.ok = r.error <= r.bound;
    r.gbs = gbs(p.desc, r.t.median);
    return r.t;
  }

  // One fftmux variant; its output compared with cuFFT's (in want). When the
  // problem shifts, want holds the plain transform and the comparison rolls.
  void variant(const Problem& p, const fftmux_desc& d, const char* context, const char* variant,
               const std::string& what, double direct_ms) {
    Row r{p.group, p.name, what};
    try {
      fftmux::context& c = *ctx[context];
      auto t0 = std::chrono::steady_clock::now();
      fftmux::plan plan = c.make_plan(d, "cuda", variant);
      double plan_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      plan.set_stream(reinterpret_cast<uint64_t>(stream));
      measure(r, d, c, plan, direct_ms);
      char note[32];
      std::snprintf(note, sizeof note, ", plan %.0f ms", plan_ms);
      r.note += note;
    } catch (const std::exception& e) {
      r.ok = false;
      r.note = e.what();
    }
    rows.push_back(r);
    print(r);
  }

  // The backend's variants beyond "cufft" and "native", as it lists them.
  std::vector<std::string> more_native() {
    uint32_t count = 0;
    fftmux_backend_count(ctx["pass"]->get(), &count);
    for (uint32_t i = 0; i < count; ++i) {
      fftmux_backend_info b;
      fftmux_backend_info_init(&b);
      if (fftmux_backend_get(ctx["pass"]->get(), i, FFTMUX_PROBE, &b) != FFTMUX_OK ||
          std::strcmp(b.name, "cuda"))
        continue;
      std::vector<std::string> out;
      std::stringstream list(ctx["pass"]->variants(i));
      for (std::string v; std::getline(list, v, ',');)
        if (v != "cufft" && v != "native" &&
            (opt.variants.empty() ||
             ("," + opt.variants + ",").find("," + v + ",") != std::string::npos))
          out.push_back(v);
      return out;
    }
    return {};
  }

  // The generator's other launch shapes: on the 1D sizes of the quick set.
  bool more_variants(const Problem& p) const {
    if (opt.all_variants)
      return true;
    for (const Problem& q : problems(true))
      if (q.group == "1d" && p.group == "1d" && q.desc.n[0] == p.desc.n[0])
        return true;
    return false;
  }

  // Compiles every native kernel the run needs at once, over all cores, so
  // that the timed loop finds them in the process's caches.
  void prewarm(const std::vector<Problem>& all) {
    std::vector<std::pair<fftmux_desc, std::string>> work;
    for (const Problem& p : all) {
      fftmux_desc s = p.desc;
      s.flags |= FFTMUX_SHIFT_OUTPUT;
      work.push_back({p.desc, "native"});
      work.push_back({s, "native"});
      if (more_variants(p))
        for (const std::string& v : more)
          work.push_back({p.desc, v});
    }
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    auto t0 = std::chrono::steady_clock::now();
    for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
      threads.emplace_back([&] {
        for (size_t i; (i = next++) < work.size();) {
          try {
            fftmux::plan plan =
                ctx["pass"]->make_plan(work[i].first, "cuda", work[i].second.c_str());
          } catch (const std::exception&) {
            // the timed run reports it
          }
        }
      });
    for (auto& t : threads)
      t.join();
    std::printf("prewarm: %zu native plans in %.1f s\n", work.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }

  void run_problem(const Problem& p, bool shifts) {
    upload(p.desc);
    Row r{p.group, p.name, "cuFFT direct"};
    double direct_ms = 0;
    try {
      direct_ms = direct(p, r).median;
    } catch (const std::exception& e) {
      r.ok = false;
      r.note = e.what();
    }
    rows.push_back(r);
    print(r);
    if (!direct_ms)
      return;
    variant(p, p.desc, "pass", "cufft", "fftmux cufft", direct_ms);
    if (opt.shifts_only && !shifts)
      return;
    variant(p, p.desc, "pass", "native", "fftmux native", direct_ms);
    if (opt.plans)
      plan_spread(p, direct_ms);
    if (more_variants(p) && !opt.shifts_only)
      for (const std::string& v : more)
        variant(p, p.desc, "pass", v.c_str(), "fftmux " + v, direct_ms);
    if (!shifts)
      return;
    fftmux_desc s = p.desc;
    s.flags |= FFTMUX_SHIFT_OUTPUT;
    variant(p, s, "callback", "cufft", "cufft + shift (callback)", direct_ms);
    variant(p, s, "pass", "cufft", "cufft + shift (pass)", direct_ms);
    variant(p, s, "pass", "native", "native + shift (modulation)", direct_ms);
  }

  // r's time of plan (on the wrapped in and got buffers) and its output
  // checked against cuFFT's in want.
  void measure(Row& r, const fftmux_desc& d, fftmux::context& c, fftmux::plan& plan,
               double direct_ms) {
    fftmux::buffer bin = wrap(c, in->p, in_bytes(d)), bout = wrap(c, got->p, out_bytes(d));
    r.t = time_on(stream, opt, [&] { plan.execute(FFTMUX_FORWARD, bin, bout); });
    cuda_ok(cudaMemsetAsync(got->p, 0xFF, out_bytes(d), stream), "poison");
    plan.execute(FFTMUX_FORWARD, bin, bout);
    r.error = compare->error(d, got->p, want->p, stream);
    r.bound = 2 * fftmux::ref::error_bound(d);
    r.ok = r.error <= r.bound;
    r.gbs = gbs(d, r.t.median);
    char note[32];
    std::snprintf(note, sizeof note, "%.3fx cuFFT time", r.t.median / direct_ms);
    r.note = note;
  }

  // The native plan made opt.plans times in this process and each timed
  // twice, in turn: whether a plan's time sticks to the plan (its own
  // allocations) or changes from one timing to the next. The kernels are the
  // native row's; each plan's output is checked against cuFFT's too.
  void plan_spread(const Problem& p, double direct_ms) {
    fftmux::context& c = *ctx["pass"];
    std::vector<fftmux::plan> plans;
    for (int i = 0; i < opt.plans; ++i) {
      plans.push_back(c.make_plan(p.desc, "cuda", "native"));
      plans.back().set_stream(reinterpret_cast<uint64_t>(stream));
    }
    for (int round = 0; round < 2; ++round)
      for (int i = 0; i < opt.plans; ++i) {
        Row r{p.group, p.name, "native plan " + std::to_string(i) + (round ? " again" : " first")};
        measure(r, p.desc, c, plans[size_t(i)], direct_ms);
        rows.push_back(r);
        print(r);
      }
  }

  static void print(const Row& r) {
    std::printf("%-5s %-26s %-28s %9.3f ms [%8.3f %8.3f] %7.0f GB/s  err %.2e/%.1e %s %s\n",
                r.group.c_str(), r.problem.c_str(), r.what.c_str(), r.t.median, r.t.low, r.t.high,
                r.gbs, r.error, r.bound, r.ok ? "ok" : "FAILED", r.note.c_str());
    std::fflush(stdout);
  }

  void write_json() const {
    if (opt.json.empty())
      return;
    std::ofstream f(opt.json);
    for (const Row& r : rows)
      f << "{\"group\":\"" << r.group << "\",\"problem\":\"" << r.problem << "\",\"what\":\""
        << r.what << "\",\"median_ms\":" << r.t.median << ",\"low_ms\":" << r.t.low
        << ",\"high_ms\":" << r.t.high << ",\"gbs\":" << r.gbs << ",\"error\":" << r.error
        << ",\"ok\":" << (r.ok ? "true" : "false") << "}\n";
  }
};

} // namespace

int main(int argc, char** argv) {
  Bench b;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick")
      b.opt.quick = true;
    else if (a == "--repeats" && i + 1 < argc)
      b.opt.repeats = std::stoi(argv[++i]);
    else if (a == "--shifts-only")
      b.opt.shifts_only = true;
    else if (a == "--all-variants")
      b.opt.all_variants = true;
    else if (a == "--variants" && i + 1 < argc) {
      b.opt.all_variants = true;
      b.opt.variants = argv[++i];
    } else if (a == "--warmup" && i + 1 < argc)
      b.opt.warmup = std::stod(argv[++i]);
    else if (a == "--json" && i + 1 < argc)
      b.opt.json = argv[++i];
    else if (a == "--match" && i + 1 < argc)
      b.opt.match = argv[++i];
    else if (a == "--plans" && i + 1 < argc)
      b.opt.plans = std::stoi(argv[++i]);
    else if (a == "--chain" && i + 1 < argc)
      b.opt.chain = std::max(1, std::stoi(argv[++i]));
    else {
      std::fprintf(stderr,
                   "usage: cuda_bench [--quick] [--all-variants] [--variants A,B] [--shifts-only] "
                   "[--match TEXT] [--plans K] [--chain K] [--repeats N] [--warmup SECONDS] "
                   "[--json FILE]\n");
      return 2;
    }
  }
  try {
    b.setup();
    cudaDeviceProp prop{};
    cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::printf("device %s, %d SMs, %zu KiB shared per block (opt-in)\n", prop.name,
                prop.multiProcessorCount, prop.sharedMemPerBlockOptin / 1024);
    b.copy_line();
    const int64_t shift_sizes[] = {1024, 16384, 4093};
    std::vector<Problem> all = problems(b.opt.quick);
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const Problem& p) { return !matches(p.name, b.opt.match); }),
              all.end());
    auto has_shifts = [&](const Problem& p) {
      bool shifts = p.desc.rank > 1 && p.group == "2d";
      for (int64_t n : shift_sizes)
        shifts = shifts || (p.group == "1d" && p.desc.n[0] == n);
      return shifts;
    };
    if (b.opt.shifts_only) // plus the one cufft-variant ratio that was off (R2C 2^20)
      all.erase(std::remove_if(all.begin(), all.end(),
                               [&](const Problem& p) {
                                 return !has_shifts(p) &&
                                        !(p.group == "r2c" && p.desc.n[0] == (1 << 20));
                               }),
                all.end());
    else
      b.prewarm(all);
    for (const Problem& p : all) {
      bool shifts = has_shifts(p);
      b.run_problem(p, shifts);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuda_bench: %s\n", e.what());
    b.write_json();
    return 1;
  }
  b.write_json();
  int failed = 0;
  for (const Row& r : b.rows)
    failed += !r.ok;
  std::printf("%d of %zu rows failed verification\n", failed, b.rows.size());
  return failed ? 3 : 0;
}
