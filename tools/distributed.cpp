// fftmux run --distributed: one distributed transform under mpirun, timed
// and verified on every rank. The command links no MPI: the fftw-mpi
// backend initializes MPI for it (FFTMUX_MPI_INIT=1) and the plan runs over
// the backend's MPI_COMM_WORLD (FFTMUX_COMM_WORLD).
#include "commands.hpp"

#include <fftmux/desc_geometry.hpp>
#include <reference.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace fftmux::cli {
namespace {

using Complex = std::complex<double>;

void check(fftmux_status s, const char* what) {
  if (s != FFTMUX_OK)
    throw std::runtime_error(std::string(what) + ": " + fftmux_last_error());
}

// This process's rank and the ranks' count, as the MPI launcher tells them.
int launcher(const char* const* names, int fallback) {
  for (const char* const* n = names; *n; ++n)
    if (const char* v = std::getenv(*n))
      return std::atoi(v);
  return fallback;
}

// f(element, global index) over the box, the batch innermost.
template <class F> void each(const fftmux_desc& d, const fftmux_box& b, F&& f) {
  int64_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, st[3] = {0, 0, 0};
  for (uint32_t i = 0; i < d.rank; ++i)
    lo[i] = b.lower[i], hi[i] = b.upper[i], st[i] = b.strides[i];
  for (int64_t i = lo[0]; i < hi[0]; ++i)
    for (int64_t j = lo[1]; j < hi[1]; ++j)
      for (int64_t k = lo[2]; k < hi[2]; ++k)
        for (int64_t h = 0; h < d.batch; ++h) {
          int64_t at[3] = {i, j, k};
          f((i - lo[0]) * st[0] + (j - lo[1]) * st[1] + (k - lo[2]) * st[2] + h, at);
        }
}

// The input: a plane wave of frequency 1 along each axis, its real part on a real side.
Complex wave(const fftmux_desc& d, const int64_t* j) {
  double phase = 0;
  for (uint32_t i = 0; i < d.rank; ++i)
    phase += double(j[i] % d.n[i]) / double(d.n[i]);
  return std::polar(1.0, 2 * M_PI * phase);
}

// The exact transform of wave in direction dir at output index k, numpy's
// shifts and the norm's scale applied.
Complex spectrum(const fftmux_desc& d, int dir, const int64_t* k, double scale) {
  double n = 1, phase = 0;
  int64_t u[3];
  for (uint32_t i = 0; i < d.rank; ++i) {
    int64_t s = d.n[i] / 2;
    bool halved = d.kind == FFTMUX_R2C && i + 1 == d.rank;
    u[i] = (d.flags & FFTMUX_SHIFT_OUTPUT) && !halved ? (k[i] - s + d.n[i]) % d.n[i] : k[i];
    if (d.flags & FFTMUX_SHIFT_INPUT)
      phase -= dir * double(s * u[i] % d.n[i]) / double(d.n[i]);
    n *= double(d.n[i]);
  }
  auto peak = [&](int sign) { // the wave's frequency, or its mirror
    for (uint32_t i = 0; i < d.rank; ++i)
      if ((u[i] + dir * sign) % d.n[i] != 0 && d.n[i] > 1)
        return 0.0;
    return 1.0;
  };
  double a = d.kind == FFTMUX_C2C ? peak(1) : (peak(1) + peak(-1)) / 2;
  return std::polar(a * n * scale, 2 * M_PI * phase);
}

template <class T> Complex element(const T* p, int64_t e, bool complex) {
  return complex ? Complex(p[2 * e], p[2 * e + 1]) : Complex(p[e], 0);
}

// ||got - want|| / ||want|| over the box of one side, ||want|| at least
// floor (the largest value of the whole side), for boxes that hold zeros only.
template <class T, class W>
double error(const fftmux_desc& d, const fftmux_box& b, bool complex, const T* got, double floor,
             W&& want) {
  double diff = 0, norm = 0;
  each(d, b, [&](int64_t e, const int64_t* at) {
    Complex w = want(e, at);
    diff += std::norm(element(got, e, complex) - w);
    norm += std::norm(w);
  });
  return std::sqrt(diff / std::max(norm, floor * floor));
}

// "c2c f64 256x256x256 batch 1", for the summary line.
std::string text(const fftmux_desc& d) {
  std::string s = geometry::kind_text(d) + (d.precision == FFTMUX_F64 ? " f64 " : " f32 ");
  for (uint32_t i = 0; i < d.rank; ++i)
    s += (i ? "x" : "") + std::to_string(d.n[i]);
  return s + " batch " + std::to_string(d.batch);
}

struct Local {
  fftmux_plan plan = nullptr;
  fftmux_box in{}, out{};
  uint64_t in_bytes = 0, out_bytes = 0;
  ~Local() { fftmux_plan_destroy(plan); }
};

void make(fftmux_context ctx, const fftmux_desc& d, uint32_t decomposition,
          const fftmux_plan_options& o, Local& l) {
  fftmux_distribution dist;
  fftmux_distribution_init(&dist);
  dist.decomposition = decomposition;
  check(fftmux_plan_create_distributed(ctx, &d, &o, &dist, &l.plan), "plan");
  check(fftmux_plan_local(l.plan, &l.in, &l.out, &l.in_bytes, &l.out_bytes), "plan_local");
}

// The way back: R2C and C2R swapped, the shifts swapped, the transposed side kept.
fftmux_desc back_of(fftmux_desc d) {
  d.kind = d.kind == FFTMUX_R2C ? FFTMUX_C2R : d.kind == FFTMUX_C2R ? FFTMUX_R2C : FFTMUX_C2C;
  uint32_t s = d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT);
  d.flags = (d.flags & ~s) | (s & FFTMUX_SHIFT_INPUT ? FFTMUX_SHIFT_OUTPUT : 0) |
            (s & FFTMUX_SHIFT_OUTPUT ? FFTMUX_SHIFT_INPUT : 0);
  return d;
}

template <class T>
int run_on(fftmux_context ctx, const DistributedOptions& opt, const fftmux_desc& d,
           const fftmux_plan_options& po, int repeat, int warmup) {
  static const char* rank_names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", nullptr};
  static const char* size_names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", nullptr};
  int rank = launcher(rank_names, 0), ranks = launcher(size_names, 1);
  uint32_t decomposition =
      choice("--decomposition", opt.decomposition, {"slabs", "transposed-out", "transposed-in"});
  int dir = d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
  Local f, b;
  make(ctx, d, decomposition, po, f);
  make(ctx, back_of(d), decomposition == 0 ? 0 : 3 - decomposition, po, b);
  bool in_place = d.flags & FFTMUX_IN_PLACE, complex_in = d.kind != FFTMUX_R2C;
  std::vector<T> x(f.in_bytes / sizeof(T)), y(f.out_bytes / sizeof(T)), z(b.out_bytes / sizeof(T));
  each(d, f.in, [&](int64_t e, const int64_t* at) {
    Complex v = d.kind == FFTMUX_C2R ? spectrum(back_of(d), -dir, at, 1) : wave(d, at);
    if (!complex_in)
      x[e] = T(v.real());
    else
      x[2 * e] = T(v.real()), x[2 * e + 1] = T(v.imag());
  });
  const std::vector<T> keep = x; // distributed plans may overwrite their input
  T* out = in_place ? x.data() : y.data();
  std::vector<double> times;
  for (int r = 0; r < warmup + repeat; ++r) {
    std::copy(keep.begin(), keep.end(), x.begin());
    auto start = std::chrono::steady_clock::now();
    check(fftmux_execute(f.plan, dir, x.data(), out), "execute");
    if (r >= warmup)
      times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  double bound = ref::error_bound(d) * (1 + std::log2(double(std::max(ranks, 1)))) * 4;
  double scale = geometry::scale(d, dir);
  double points = double(geometry::points(d)), peak = d.kind == FFTMUX_C2C ? points : points / 2;
  double spec = error(d, f.out, d.kind != FFTMUX_C2R, out, std::abs(peak * scale),
                      [&](int64_t, const int64_t* at) {
                        return d.kind == FFTMUX_C2R ? wave(d, at).real() * scale * points
                                                    : spectrum(d, dir, at, scale);
                      });
  T* back = in_place ? out : z.data();
  check(fftmux_execute(b.plan, -dir, out, back), "execute back");
  double trip_scale = d.norm == FFTMUX_NORM_NONE ? double(geometry::points(d)) : 1;
  double trip = error(
      d, f.in, complex_in, back, (d.kind == FFTMUX_C2R ? peak : 1) * trip_scale,
      [&](int64_t e, const int64_t*) { return element(keep.data(), e, complex_in) * trip_scale; });
  bool ok = spec <= bound && trip <= bound;
  if (rank == 0 || !ok)
    std::printf("rank %d of %d: %s %s: median %.3f ms of %d runs; spectrum error %.1e, round "
                "trip %.1e, bound %.1e: %s\n",
                rank, ranks, opt.decomposition.c_str(), text(d).c_str(),
                times[times.size() / 2] * 1e3, repeat, spec, trip, bound,
                ok ? "verified" : "FAILED");
  return ok ? 0 : 3;
}

} // namespace

std::shared_ptr<DistributedOptions> add_distributed(CLI::App& run) {
  auto o = std::make_shared<DistributedOptions>();
  run.add_flag("--distributed", o->on,
               "under mpirun: one transform over every rank (fftw-mpi), timed and verified on "
               "each");
  run.add_option("--decomposition", o->decomposition,
                 "distributed: slabs, transposed-out or transposed-in")
      ->capture_default_str();
  return o;
}

int run_distributed(const DistributedOptions& opt, const ProblemOptions& problem, int repeat,
                    int warmup, int64_t threads) {
  if (repeat < 1 || warmup < 0)
    throw std::runtime_error("--repeat " + std::to_string(repeat) + " --warmup " +
                             std::to_string(warmup) +
                             ": at least one timed run, no negative warm-up");
  setenv("FFTMUX_MPI_INIT", "1", 0); // the command links no MPI: fftw-mpi initializes it
  fftmux_desc d = problem.desc();
  fftmux_plan_options po;
  fftmux_plan_options_init(&po);
  po.backend = problem.backend.c_str();
  po.threads = uint32_t(threads);
  fftmux_context ctx = nullptr;
  check(fftmux_context_create(nullptr, &ctx), "context");
  int status = d.precision == FFTMUX_F64 ? run_on<double>(ctx, opt, d, po, repeat, warmup)
                                         : run_on<float>(ctx, opt, d, po, repeat, warmup);
  fftmux_context_destroy(ctx);
  return status;
}

} // namespace fftmux::cli
