// distributed_bench: fftmux's fftw-mpi backend against FFTW-MPI called
// directly, in the same run on the same ranks: one problem per line, the
// median over repeats of the slowest rank's execution, the two interleaved
// so that drift favours neither. Run under mpirun (docs/distributed.md):
//   mpirun -np 4 distributed_bench [repeats] [shapes, e.g. c2c-f64-256 r2c-f32-256]
#include <fftmux/fftmux.h>

#include <fftw3-mpi.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Problem {
  bool real = false; // R2C, else C2C
  bool f64 = true;
  ptrdiff_t n = 256;
};

Problem parse(const std::string& s) { // "c2c-f64-256"
  Problem p;
  p.real = s.rfind("r2c", 0) == 0;
  p.f64 = s.find("f64") != std::string::npos;
  p.n = std::atol(s.substr(s.rfind('-') + 1).c_str());
  return p;
}

// The slowest rank's seconds of one call of f.
template <class F> double timed(F&& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  f();
  double t = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

// FFTW-MPI's plan of the problem on its own arrays, as a program calls it.
template <class T> struct Direct;
template <> struct Direct<double> {
  static fftw_plan plan(const Problem& p, void* in, void* out) {
    ptrdiff_t n[3] = {p.n, p.n, p.n};
    return p.real ? fftw_mpi_plan_dft_r2c(3, n, static_cast<double*>(in),
                                          static_cast<fftw_complex*>(out), MPI_COMM_WORLD,
                                          FFTW_ESTIMATE)
                  : fftw_mpi_plan_dft(3, n, static_cast<fftw_complex*>(in),
                                      static_cast<fftw_complex*>(out), MPI_COMM_WORLD, FFTW_FORWARD,
                                      FFTW_ESTIMATE);
  }
  static void run(fftw_plan p) { fftw_execute(p); }
  static void destroy(fftw_plan p) { fftw_destroy_plan(p); }
};
template <> struct Direct<float> {
  static fftwf_plan plan(const Problem& p, void* in, void* out) {
    ptrdiff_t n[3] = {p.n, p.n, p.n};
    return p.real ? fftwf_mpi_plan_dft_r2c(3, n, static_cast<float*>(in),
                                           static_cast<fftwf_complex*>(out), MPI_COMM_WORLD,
                                           FFTW_ESTIMATE)
                  : fftwf_mpi_plan_dft(3, n, static_cast<fftwf_complex*>(in),
                                       static_cast<fftwf_complex*>(out), MPI_COMM_WORLD,
                                       FFTW_FORWARD, FFTW_ESTIMATE);
  }
  static void run(fftwf_plan p) { fftwf_execute(p); }
  static void destroy(fftwf_plan p) { fftwf_destroy_plan(p); }
};

template <class T> void bench(fftmux_context ctx, const Problem& p, int repeats, int ranks) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = 3;
  d.n[0] = d.n[1] = d.n[2] = p.n;
  d.kind = p.real ? FFTMUX_R2C : FFTMUX_C2C;
  d.precision = sizeof(T) == 8 ? FFTMUX_F64 : FFTMUX_F32;
  fftmux_distribution dist;
  fftmux_distribution_init(&dist);
  dist.comm = uint64_t(MPI_Comm_c2f(MPI_COMM_WORLD));
  fftmux_plan plan = nullptr;
  uint64_t in_bytes = 0, out_bytes = 0;
  if (fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &plan) ||
      fftmux_plan_local(plan, nullptr, nullptr, &in_bytes, &out_bytes)) {
    std::fprintf(stderr, "fftmux: %s\n", fftmux_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  void* in = fftw_malloc(in_bytes);
  void* out = fftw_malloc(out_bytes);
  std::memset(in, 0, in_bytes);
  auto direct = Direct<T>::plan(p, in, out);
  std::vector<double> a, b, ratio;     // ratio: of each pair, robust to drift between pairs
  for (int r = -2; r < repeats; ++r) { // the first two of each: warm-up
    double ta = timed([&] { Direct<T>::run(direct); });
    double tb = timed([&] { fftmux_execute(plan, FFTMUX_FORWARD, in, out); });
    if (r >= 0) {
      a.push_back(ta);
      b.push_back(tb);
      ratio.push_back(tb / ta);
    }
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::sort(ratio.begin(), ratio.end());
  double ma = a[a.size() / 2], mb = b[b.size() / 2];
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("| %s %s %ld^3 | %d | %.3f | %.3f | %+.1f%% |\n", p.real ? "R2C" : "C2C",
                sizeof(T) == 8 ? "F64" : "F32", long(p.n), ranks, ma * 1e3, mb * 1e3,
                (ratio[ratio.size() / 2] - 1) * 100);
  Direct<T>::destroy(direct);
  fftmux_plan_destroy(plan);
  fftw_free(in);
  fftw_free(out);
}

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  fftwf_mpi_init();
  int ranks = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int repeats = argc > 1 ? std::atoi(argv[1]) : 9;
  std::vector<std::string> shapes = {"c2c-f64-256", "r2c-f32-256"};
  if (argc > 2)
    shapes.assign(argv + 2, argv + argc);
  fftmux_context ctx = nullptr;
  fftmux_context_create(nullptr, &ctx);
  if (rank == 0)
    std::printf(
        "| problem | ranks | FFTW-MPI ms | fftmux ms | fftmux / FFTW-MPI - 1 (median of pairs) |\n"
        "|---|---|---|---|---|\n");
  for (const std::string& s : shapes) {
    Problem p = parse(s);
    if (p.f64)
      bench<double>(ctx, p, repeats, ranks);
    else
      bench<float>(ctx, p, repeats, ranks);
  }
  fftmux_context_destroy(ctx);
  MPI_Finalize();
  return 0;
}
