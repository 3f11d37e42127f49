// What fftmux adds on top of FFTW: the same problem planned once through
// fftmux's FFTW backend and once with FFTW directly (same rigor, same
// thread rule, shared wisdom, so the same FFTW plan), each executed on the
// same host arrays. benchmarks/overhead_table.py turns the JSON into the
// table in docs/performance.md and benchmarks/results/cpu/RESULTS.md.
#include <fftmux/fftmux.hpp>

#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <complex>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

fftmux::context& ctx() {
  static fftmux::context c;
  return c;
}

int threads_for(int64_t points) {
  // The FFTW backend's default: one thread below 65536 points, all cores above.
  return points < 65536 ? 1 : int(std::max(1u, std::thread::hardware_concurrency()));
}

int64_t points(const std::vector<int>& n) {
  int64_t k = 1;
  for (int v : n)
    k *= v;
  return k;
}

// The guru64 dimensions fftmux's FFTW backend plans with (contiguous, one
// transform): the same problem signature, so FFTW's wisdom gives both sides
// the same plan.
struct Guru {
  fftw_iodim64 dims[3];
  fftw_iodim64 batch;
  int rank;
  explicit Guru(const std::vector<int>& n) : rank(int(n.size())) {
    int64_t stride = 1;
    for (int i = rank - 1; i >= 0; --i) {
      dims[i] = {n[size_t(i)], stride, stride};
      stride *= n[size_t(i)];
    }
    batch = {1, stride, stride};
  }
};

template <class T> struct Direct;
template <> struct Direct<double> {
  fftw_plan p;
  Direct(const std::vector<int>& n, void* in, void* out) {
    Guru g(n);
    fftw_plan_with_nthreads(threads_for(points(n)));
    p = fftw_plan_guru64_dft(g.rank, g.dims, 1, &g.batch, static_cast<fftw_complex*>(in),
                             static_cast<fftw_complex*>(out), FFTW_FORWARD, FFTW_MEASURE);
  }
  ~Direct() { fftw_destroy_plan(p); }
  void run(void* in, void* out) {
    fftw_execute_dft(p, static_cast<fftw_complex*>(in), static_cast<fftw_complex*>(out));
  }
};
template <> struct Direct<float> {
  fftwf_plan p;
  Direct(const std::vector<int>& n, void* in, void* out) {
    Guru g(n);
    fftwf_plan_with_nthreads(threads_for(points(n)));
    p = fftwf_plan_guru64_dft(g.rank, g.dims, 1, &g.batch, static_cast<fftwf_complex*>(in),
                              static_cast<fftwf_complex*>(out), FFTW_FORWARD, FFTW_MEASURE);
  }
  ~Direct() { fftwf_destroy_plan(p); }
  void run(void* in, void* out) {
    fftwf_execute_dft(p, static_cast<fftwf_complex*>(in), static_cast<fftwf_complex*>(out));
  }
};

template <class T> struct Arrays {
  T* in;
  T* out;
  explicit Arrays(int64_t count) {
    in = static_cast<T*>(fftw_malloc(sizeof(T) * 2 * size_t(count)));
    out = static_cast<T*>(fftw_malloc(sizeof(T) * 2 * size_t(count)));
    for (int64_t i = 0; i < 2 * count; ++i)
      in[i] = T(i % 7) * T(0.25);
  }
  ~Arrays() {
    fftw_free(in);
    fftw_free(out);
  }
};

void label(benchmark::State& s, const std::vector<int>& n, int64_t count) {
  std::string shape;
  for (int v : n)
    shape += (shape.empty() ? "" : "x") + std::to_string(v);
  s.SetLabel(shape);
  s.counters["points"] = double(count);
}

template <class T> fftmux::plan fftmux_plan(const std::vector<int>& n) {
  std::vector<int64_t> dims(n.begin(), n.end());
  return ctx().make_plan(
      fftmux::make_desc(dims, FFTMUX_C2C, sizeof(T) == 8 ? FFTMUX_F64 : FFTMUX_F32), "fftw");
}

template <class T> void direct(benchmark::State& s, std::vector<int> n) {
  int64_t count = points(n);
  Arrays<T> a(count);
  fftmux_plan<T>(n); // planned first: its wisdom gives the direct plan the same algorithm
  Direct<T> p(n, a.in, a.out);
  for (auto _ : s)
    p.run(a.in, a.out);
  label(s, n, count);
}

template <class T> void through_fftmux(benchmark::State& s, std::vector<int> n) {
  int64_t count = points(n);
  Arrays<T> a(count);
  fftmux::plan p = fftmux_plan<T>(n);
  for (auto _ : s)
    p.forward(a.in, a.out);
  label(s, n, count);
}

void register_all() {
  std::vector<std::vector<int>> shapes;
  for (int e = 4; e <= 20; ++e)
    shapes.push_back({1 << e});
  for (int n : {256, 512, 1024, 2048})
    shapes.push_back({n, n});
  for (const auto& n : shapes) {
    std::string shape = std::to_string(n[0]) + (n.size() > 1 ? "x" + std::to_string(n[1]) : "");
    // Interleaved per shape so that drift hits both sides alike.
    benchmark::RegisterBenchmark(("f32/direct/" + shape).c_str(), direct<float>, n);
    benchmark::RegisterBenchmark(("f32/fftmux/" + shape).c_str(), through_fftmux<float>, n);
    benchmark::RegisterBenchmark(("f64/direct/" + shape).c_str(), direct<double>, n);
    benchmark::RegisterBenchmark(("f64/fftmux/" + shape).c_str(), through_fftmux<double>, n);
  }
}

} // namespace

int main(int argc, char** argv) {
  fftw_init_threads();
  fftwf_init_threads();
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
