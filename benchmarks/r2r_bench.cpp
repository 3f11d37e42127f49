// DCT-II and DCT-IV through fftmux, routed, against FFTW's r2r plans called
// directly on the same arrays in the same run: 1D batched lines and 2D
// 512^2 and 2048^2, F32 and F64. Every side plans with FFTW_ESTIMATE (what
// fftmux's FFTW backend does by default); FFTW directly on the threads the
// backend starts from (one below 65536 points, every core above) and on one
// thread, since the backend times the two for estimated plans and keeps the
// faster. Each repeat times one call of each, in turn, so that drift hits
// them alike. Writes CSV: the medians in milliseconds, fftmux's over FFTW's.
//
//   build/bin/r2r_bench [repeats] > benchmarks/results/cpu/r2r.csv
#include <fftmux/fftmux.hpp>

#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Problem {
  std::vector<int> n;
  int batch;
  uint32_t kind; // FFTMUX_DCT2 or FFTMUX_DCT4
};

// FFTW's API of one precision, for the direct side.
template <class T> struct Fftw;
template <> struct Fftw<double> {
  using plan = fftw_plan;
  static constexpr auto make = fftw_plan_many_r2r;
  static constexpr auto run = fftw_execute;
  static constexpr auto destroy = fftw_destroy_plan;
  static constexpr auto threads = fftw_plan_with_nthreads;
  static constexpr const char* name = "f64";
};
template <> struct Fftw<float> {
  using plan = fftwf_plan;
  static constexpr auto make = fftwf_plan_many_r2r;
  static constexpr auto run = fftwf_execute;
  static constexpr auto destroy = fftwf_destroy_plan;
  static constexpr auto threads = fftwf_plan_with_nthreads;
  static constexpr const char* name = "f32";
};

template <class F> double seconds(F&& run) {
  auto t = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class T> void measure(const fftmux::context& ctx, const Problem& p, int repeats) {
  using F = Fftw<T>;
  int line = 1;
  for (int n : p.n)
    line *= n;
  size_t total = size_t(line) * size_t(p.batch);
  std::vector<T> in(total), out(total);
  for (size_t i = 0; i < total; ++i)
    in[i] = T(i % 17) * T(0.125) - T(1);

  std::vector<fftw_r2r_kind> kinds(p.n.size(), p.kind == FFTMUX_DCT2 ? FFTW_REDFT10 : FFTW_REDFT11);
  auto plan_on = [&](int threads) {
    F::threads(threads);
    return F::make(int(p.n.size()), p.n.data(), p.batch, in.data(), nullptr, 1, line, out.data(),
                   nullptr, 1, line, kinds.data(), FFTW_ESTIMATE);
  };
  int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  typename F::plan direct = plan_on(total < 65536 ? 1 : cores), single = plan_on(1);

  std::vector<int64_t> dims(p.n.begin(), p.n.end());
  fftmux_desc d = fftmux::make_desc(dims, FFTMUX_R2R, sizeof(T) == 8 ? FFTMUX_F64 : FFTMUX_F32);
  d.batch = p.batch;
  d.norm = FFTMUX_NORM_NONE; // FFTW's r2r does not scale either
  for (size_t i = 0; i < p.n.size(); ++i)
    d.r2r[i] = p.kind;
  fftmux::plan routed = ctx.make_plan(d);

  std::vector<double> times[3];        // FFTW, FFTW on one thread, fftmux
  for (int r = -2; r < repeats; ++r) { // two warm-ups
    double t[3] = {seconds([&] { F::run(direct); }), seconds([&] { F::run(single); }),
                   seconds([&] { routed.forward(in.data(), out.data()); })};
    for (int i = 0; r >= 0 && i < 3; ++i)
      times[i].push_back(t[i]);
  }
  F::destroy(direct);
  F::destroy(single);

  std::string shape;
  for (int n : p.n)
    shape += (shape.empty() ? "" : "x") + std::to_string(n);
  double fftw = median(times[0]), one = median(times[1]), ours = median(times[2]);
  std::printf("%s,%s,%s,%d,%s,%.4f,%.4f,%.4f,%.3f,%.3f\n", p.kind == FFTMUX_DCT2 ? "dct2" : "dct4",
              F::name, shape.c_str(), p.batch, (routed.backend() + "/" + routed.variant()).c_str(),
              fftw * 1e3, one * 1e3, ours * 1e3, ours / fftw, ours / std::min(fftw, one));
  std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
  int repeats = argc > 1 ? std::atoi(argv[1]) : 21;
  fftw_init_threads();
  fftwf_init_threads();
  fftmux::context ctx;
  const Problem problems[] = {
      {{1024}, 1024, FFTMUX_DCT2}, {{512, 512}, 1, FFTMUX_DCT2}, {{2048, 2048}, 1, FFTMUX_DCT2},
      {{1024}, 1024, FFTMUX_DCT4}, {{512, 512}, 1, FFTMUX_DCT4}, {{2048, 2048}, 1, FFTMUX_DCT4},
  };
  std::printf("kind,precision,shape,batch,route,fftw_ms,fftw_1thread_ms,fftmux_ms,ratio,"
              "ratio_to_best\n");
  for (const Problem& p : problems) {
    measure<float>(ctx, p, repeats);
    measure<double>(ctx, p, repeats);
  }
}
