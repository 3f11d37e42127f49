// Distributed plans under mpirun against the single-process fftw backend:
// every rank fills its boxes from the global input, the boxes of the result
// are compared with fftw's whole result and the round trip is checked on
// every rank; then the failure paths, each of which must fail every rank
// alike. Rank 0 prints one line. Run without mpirun and with --no-mpi, it
// checks that a process without MPI gets UNAVAILABLE and keeps fftw.
#include "reference.hpp"

#include <fftmux/fftmux.h>

#include <mpi.h>

#include <fftmux/desc_geometry.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Values = fftmux::ref::Values;

int rank = 0, ranks = 1, failures = 0;
fftmux_context ctx = nullptr;

void failed(const std::string& what) {
  std::fprintf(stderr, "rank %d: FAILED %s\n", rank, what.c_str());
  ++failures;
}

fftmux_desc make(uint32_t rank_, std::vector<int64_t> n, uint32_t kind, uint32_t precision,
                 uint32_t flags = 0, int64_t batch = 1, uint32_t norm = FFTMUX_NORM_BACKWARD) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = rank_;
  std::copy(n.begin(), n.end(), d.n);
  d.kind = kind;
  d.precision = precision;
  d.flags = flags;
  d.batch = batch;
  d.norm = norm;
  return d;
}

int direction_of(const fftmux_desc& d) {
  return d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
}

// The way back: R2C and C2R swapped, the shifts swapped, the transposed side kept.
fftmux_desc back_of(fftmux_desc d) {
  d.kind = d.kind == FFTMUX_R2C ? FFTMUX_C2R : d.kind == FFTMUX_C2R ? FFTMUX_R2C : FFTMUX_C2C;
  uint32_t shifts = d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT);
  d.flags &= ~shifts;
  d.flags |= (shifts & FFTMUX_SHIFT_INPUT ? FFTMUX_SHIFT_OUTPUT : 0) |
             (shifts & FFTMUX_SHIFT_OUTPUT ? FFTMUX_SHIFT_INPUT : 0);
  return d;
}

// Calls f(local element, global packed element) for every element of a box.
void each(const fftmux_desc& d, bool input, const fftmux_box& b,
          const std::function<void(int64_t, int64_t)>& f) {
  int64_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, st[3] = {0, 0, 0}, n[3] = {1, 1, 1};
  for (uint32_t i = 0; i < d.rank; ++i)
    lo[i] = b.lower[i], hi[i] = b.upper[i], st[i] = b.strides[i],
    n[i] = fftmux::geometry::side_extent(d, input, i);
  int64_t volume = n[0] * n[1] * n[2];
  for (int64_t h = 0; h < d.batch; ++h)
    for (int64_t i = lo[0]; i < hi[0]; ++i)
      for (int64_t j = lo[1]; j < hi[1]; ++j)
        for (int64_t k = lo[2]; k < hi[2]; ++k)
          f((i - lo[0]) * st[0] + (j - lo[1]) * st[1] + (k - lo[2]) * st[2] + h,
            h * volume + (i * n[1] + j) * n[2] + k);
}

template <class T>
void fill(const fftmux_desc& d, bool input, const fftmux_box& b, const Values& global,
          void* local) {
  bool complex = input ? d.kind != FFTMUX_R2C : d.kind != FFTMUX_C2R;
  T* p = static_cast<T*>(local);
  each(d, input, b, [&](int64_t l, int64_t g) {
    if (complex) {
      p[2 * l] = T(global[g].real());
      p[2 * l + 1] = T(global[g].imag());
    } else {
      p[l] = T(global[g].real());
    }
  });
}

// Sums of |local - want|^2 and |want|^2 over a box.
template <class T>
void compare(const fftmux_desc& d, bool input, const fftmux_box& b, const void* local,
             const Values& want, double sums[2]) {
  bool complex = input ? d.kind != FFTMUX_R2C : d.kind != FFTMUX_C2R;
  const T* p = static_cast<const T*>(local);
  each(d, input, b, [&](int64_t l, int64_t g) {
    std::complex<double> v = complex ? std::complex<double>(p[2 * l], p[2 * l + 1]) : p[l];
    sums[0] += std::norm(v - want[g]);
    sums[1] += std::norm(want[g]);
  });
}

// ||got - want|| / ||want|| over every rank's box.
double global_error(double sums[2]) {
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return std::sqrt(sums[0] / std::max(sums[1], 1e-300));
}

// fftw's result of the whole problem, and its input, packed.
void reference(fftmux_desc d, Values& in, Values& out) {
  d.flags &= ~FFTMUX_IN_PLACE;
  fftmux_desc r = fftmux::ref::resolved(d);
  std::vector<unsigned char> input = fftmux::ref::random_input(r, 7), copy = input;
  fftmux_layout l;
  l.struct_size = sizeof l;
  fftmux_desc_layout(&r, &l);
  std::vector<unsigned char> output(l.out_bytes);
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = "fftw";
  fftmux_plan p = nullptr;
  if (fftmux_plan_create(ctx, &r, &o, &p) ||
      fftmux_execute(p, direction_of(d), copy.data(), output.data()))
    failed(std::string("the fftw reference: ") + fftmux_last_error());
  fftmux_plan_destroy(p);
  in = fftmux::ref::read_side(r, true, input.data());
  out = fftmux::ref::read_side(r, false, output.data());
}

struct Local {
  fftmux_plan plan = nullptr;
  fftmux_box in{}, out{};
  uint64_t in_bytes = 0, out_bytes = 0;
};

Local plan(const fftmux_desc& d, uint32_t decomposition, const fftmux_box* given = nullptr) {
  fftmux_distribution dist;
  fftmux_distribution_init(&dist);
  dist.decomposition = decomposition;
  dist.comm = uint64_t(MPI_Comm_c2f(MPI_COMM_WORLD));
  if (given) {
    dist.in_box = given[0];
    dist.out_box = given[1];
  }
  Local l;
  if (fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &l.plan) ||
      fftmux_plan_local(l.plan, &l.in, &l.out, &l.in_bytes, &l.out_bytes))
    failed(std::string("plan: ") + fftmux_last_error());
  return l;
}

// One problem forward, compared, and back: its largest error over the bound.
template <class T> double run(const fftmux_desc& d, uint32_t decomposition, bool given) {
  Values in, want;
  reference(d, in, want);
  Local f = plan(d, decomposition);
  if (given) { // the same boxes, given: accepted
    fftmux_box boxes[2] = {f.in, f.out};
    fftmux_plan_destroy(f.plan);
    f = plan(d, FFTMUX_GIVEN, boxes);
  }
  // TRANSPOSED_OUT (1) and TRANSPOSED_IN (2) lead back to each other
  uint32_t way_back = decomposition == FFTMUX_SLABS ? decomposition : 3 - decomposition;
  Local b = plan(back_of(d), way_back);
  if (!f.plan || !b.plan)
    return 1e9;
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  std::vector<T> x(f.in_bytes / sizeof(T)), y(f.out_bytes / sizeof(T)), z(b.out_bytes / sizeof(T));
  fill<T>(d, true, f.in, in, x.data());
  T* out = in_place ? x.data() : y.data();
  if (fftmux_execute(f.plan, direction_of(d), x.data(), out))
    failed(std::string("execute: ") + fftmux_last_error());
  double sums[2] = {0, 0}, trip[2] = {0, 0};
  compare<T>(d, false, f.out, out, want, sums);
  if (std::memcmp(&f.out, &b.in, sizeof f.out))
    failed("the way back's input box is not the output box");
  T* back = in_place ? out : z.data();
  if (fftmux_execute(b.plan, -direction_of(d), out, back))
    failed(std::string("execute back: ") + fftmux_last_error());
  if (d.norm == FFTMUX_NORM_NONE) // the way back multiplies by the points
    for (auto& v : in)
      v *= double(d.n[0] * d.n[1] * (d.rank > 2 ? d.n[2] : 1));
  compare<T>(d, true, f.in, back, in, trip); // this rank's round trip
  double mine = std::sqrt(trip[0] / std::max(trip[1], 1e-300));
  double bound = fftmux::ref::error_bound(d) * (1 + std::log2(double(ranks)));
  if (mine > 2 * bound)
    failed("round trip error " + std::to_string(mine) + " on this rank");
  fftmux_plan_destroy(f.plan);
  fftmux_plan_destroy(b.plan);
  return global_error(sums) / bound;
}

// Every rank must fail alike: the same status and rank 0's message.
void expect_agreed(fftmux_status s, fftmux_status want, const char* needle, const char* what) {
  std::string m = fftmux_last_error();
  char root[1024] = {};
  std::snprintf(root, sizeof root, "%s", m.c_str());
  MPI_Bcast(root, sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (s != want || m != root || m.find(needle) == std::string::npos)
    failed(std::string(what) + ": status " + std::to_string(s) + ", message \"" + m + "\"");
}

void failure_paths() {
  fftmux_distribution dist;
  fftmux_distribution_init(&dist);
  dist.comm = uint64_t(MPI_Comm_c2f(MPI_COMM_WORLD));
  fftmux_plan p = nullptr;
  int last = ranks - 1;
  std::string who = "rank " + std::to_string(last);

  fftmux_desc d = make(3, {8, 6, 4}, FFTMUX_C2C, FFTMUX_F64);
  if (rank == last)
    d.n[0] = 9;
  fftmux_status s = fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &p);
  expect_agreed(s, ranks > 1 ? FFTMUX_ERROR_INVALID_ARGUMENT : FFTMUX_OK,
                ranks > 1 ? "differs from rank 0's" : "", "a descriptor unlike the others'");
  fftmux_plan_destroy(p);

  d = make(2, {8, 6}, FFTMUX_C2C, FFTMUX_F64);
  if (rank == last)
    d.n[1] = 0;
  s = fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &p);
  expect_agreed(s, FFTMUX_ERROR_INVALID_ARGUMENT, (who + ": n[1] = 0").c_str(),
                "n[1] = 0 on one rank");

  d = make(2, {8, 6}, FFTMUX_C2C, FFTMUX_F64);
  dist.decomposition = FFTMUX_GIVEN;
  dist.in_box = fftmux_box{{0, 0, 0}, {8, 6, 1}, {0, 0, 0}}; // everything, on every rank
  dist.out_box = dist.in_box;
  if (ranks == 1)
    dist.in_box.upper[0] = 7; // one row short
  s = fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &p);
  expect_agreed(s, FFTMUX_ERROR_UNSUPPORTED, "are none of FFTW-MPI's",
                "overlapping or incomplete boxes");

  dist.decomposition = FFTMUX_SLABS;
  d.in_extent[0] = 5;
  s = fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &p);
  expect_agreed(s, FFTMUX_ERROR_INVALID_ARGUMENT, "distributed plans hold whole sides",
                "a padded side");
  d.in_extent[0] = 0;

  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = "fftw";
  s = fftmux_plan_create_distributed(ctx, &d, &o, &dist, &p);
  expect_agreed(s, FFTMUX_ERROR_UNSUPPORTED, "fftw has no distributed transforms",
                "a backend without distributed plans");

  d = make(1, {64}, FFTMUX_C2C, FFTMUX_F64);
  s = fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &p);
  expect_agreed(s, FFTMUX_ERROR_UNSUPPORTED, "rank-1 problem has no slabs", "rank 1");

  d = make(2, {8, 6}, FFTMUX_C2C, FFTMUX_F64);
  Local l = plan(d, FFTMUX_SLABS);
  std::vector<double> x(l.in_bytes / 8 + 1), y(l.out_bytes / 8 + 1);
  s = fftmux_execute(l.plan, FFTMUX_FORWARD, x.data(), rank == last ? nullptr : y.data());
  expect_agreed(s, FFTMUX_ERROR_INVALID_ARGUMENT, (who + ": out is NULL").c_str(),
                "a NULL buffer on one rank");
  s = fftmux_execute(l.plan, FFTMUX_FORWARD, x.data(), rank == last ? x.data() : y.data());
  expect_agreed(s, FFTMUX_ERROR_INVALID_ARGUMENT, (who + ": out == in").c_str(),
                "an in-place buffer to an out-of-place plan on one rank");
  fftmux_plan_destroy(l.plan);
}

// A process that never initialized MPI: UNAVAILABLE with the reason, fftw unharmed.
int without_mpi() {
  fftmux_desc d = make(2, {8, 8}, FFTMUX_C2C, FFTMUX_F64);
  fftmux_distribution dist;
  fftmux_distribution_init(&dist);
  fftmux_plan p = nullptr;
  fftmux_status s = fftmux_plan_create_distributed(ctx, &d, nullptr, &dist, &p);
  std::string m = fftmux_last_error();
  if (s != FFTMUX_ERROR_UNAVAILABLE || m.find("MPI is not initialized") == std::string::npos)
    failed("without MPI: status " + std::to_string(s) + ", message \"" + m + "\"");
  if (fftmux_plan_create(ctx, &d, nullptr, &p) != FFTMUX_OK)
    failed(std::string("fftw without MPI: ") + fftmux_last_error());
  fftmux_plan_destroy(p);
  std::printf("distributed without MPI: %s\n", failures ? "FAILED" : ("UNAVAILABLE: " + m).c_str());
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  if (fftmux_context_create(nullptr, &ctx)) {
    std::fprintf(stderr, "context: %s\n", fftmux_last_error());
    return 1;
  }
  if (argc > 1 && std::string(argv[1]) == "--no-mpi")
    return without_mpi();
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  struct Case {
    fftmux_desc d;
    uint32_t decomposition;
    bool given;
  };
  const uint32_t S = FFTMUX_SLABS, T = FFTMUX_SLABS_TRANSPOSED_OUT, I = FFTMUX_SLABS_TRANSPOSED_IN;
  const uint32_t P = FFTMUX_IN_PLACE, SI = FFTMUX_SHIFT_INPUT, SO = FFTMUX_SHIFT_OUTPUT;
  const Case cases[] = {
      {make(2, {12, 10}, FFTMUX_C2C, FFTMUX_F64), S, false},
      {make(3, {7, 6, 5}, FFTMUX_C2C, FFTMUX_F32, P), S, false},
      {make(3, {2, 5, 3}, FFTMUX_C2C, FFTMUX_F64), T, false}, // more ranks than rows
      {make(3, {5, 3, 7}, FFTMUX_C2C, FFTMUX_F64, P), I, true},
      {make(2, {13, 11}, FFTMUX_C2C, FFTMUX_F64, SI | SO, 1, FFTMUX_NORM_ORTHO), S, false},
      {make(2, {6, 10}, FFTMUX_C2C, FFTMUX_F64, 0, 3, FFTMUX_NORM_FORWARD), T, true},
      {make(3, {9, 8, 7}, FFTMUX_R2C, FFTMUX_F64), S, true},
      {make(2, {13, 11}, FFTMUX_R2C, FFTMUX_F32, P), S, false},
      {make(2, {16, 12}, FFTMUX_R2C, FFTMUX_F64, SI | SO, 2), T, false},
      {make(3, {8, 6, 5}, FFTMUX_R2C, FFTMUX_F32, SO | P, 1, FFTMUX_NORM_NONE), T, false},
      {make(3, {6, 5, 9}, FFTMUX_C2R, FFTMUX_F64, SO, 1, FFTMUX_NORM_ORTHO), S, false},
      {make(2, {10, 7}, FFTMUX_C2R, FFTMUX_F32, SI | P, 2), I, false},
      {make(3, {3, 4, 5}, FFTMUX_C2R, FFTMUX_F64), I, true},
  };
  double worst = 0;
  for (const Case& c : cases) {
    double e = c.d.precision == FFTMUX_F64 ? run<double>(c.d, c.decomposition, c.given)
                                           : run<float>(c.d, c.decomposition, c.given);
    if (e > 1)
      failed("problem " + std::to_string(&c - cases) + ": error " + std::to_string(e) +
             " of its bound");
    worst = std::max(worst, e);
  }
  failure_paths();
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("distributed on %d ranks: %zu problems (largest error %.2f of its bound), "
                "failure paths agreed: %s\n",
                ranks, sizeof cases / sizeof *cases, worst, failures ? "FAILED" : "passed");
  fftmux_context_destroy(ctx);
  MPI_Finalize();
  return failures ? 1 : 0;
}
