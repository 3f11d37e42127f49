// C2C and R2C of rank 2 or 3 as contiguous lines only: the rows, then each other axis of the
// complex output brought to the rows by a transpose into scratch, transformed there and
// transposed back, each an FFTW_ESTIMATE plan. FFTW_ESTIMATE's own plans transform the strided axes
// in place without buffering, which thrashes the cache where their steps are powers of two
// (development machine, one thread, F32: 1536x1536 185 ms against 17 ms this way, 11 ms measured;
// 256x256 x16 26 ms against 3.9; docs/fftw.md).
#pragma once

#include "fftw_api.hpp"

#include <fftmux/desc_geometry.hpp>
#include <fftmux/plugin_support.hpp>

#include <cstdint>
#include <mutex>
#include <vector>

namespace fftmux::fftw {

// Whether an estimated transform of these axes, complex elements `bytes` wide (the last axis
// halved for R2C and C2R), takes this path: a strided axis steps a multiple of 512 bytes (a
// power-of-two share of the cache's sets) over a transform past 256 KiB (smaller ones stay in
// the cache).
inline bool transposes(const int64_t* n, uint32_t rank, int64_t bytes, bool halved = false) {
  int64_t step = (halved ? n[rank - 1] / 2 + 1 : n[rank - 1]) * bytes, total = step;
  bool critical = false;
  for (uint32_t i = rank - 1; i-- > 0; step *= n[i], total *= n[i])
    critical = critical || (n[i] > 1 && step % 512 == 0);
  return rank >= 2 && critical && total >= 256 * 1024;
}

// The problems that run transposed where their layout allows: C2C of rank 2 and 3 and R2C of
// rank 2. FFTW_ESTIMATE's own plans of C2R and of 3D R2C ran as fast or faster there (2048x2048
// C2R 5.9 ms against 14.3 transposed, 64x64x64 x8 R2C 1.9 against 6.7; development machine).
inline bool rows_transposed(const fftmux_desc& d) {
  bool kind = d.kind == FFTMUX_C2C || (d.kind == FFTMUX_R2C && d.rank == 2);
  return kind &&
         transposes(d.n, d.rank, d.precision == FFTMUX_F64 ? 16 : 8, geometry::halved_kind(d));
}

// Complex elements of the scratch a transform of d transposes through: its complex side, one
// transform.
inline int64_t transposed_scratch(const fftmux_desc& d) {
  int64_t last = d.n[d.rank - 1], rows = 1;
  for (uint32_t i = 0; i + 1 < d.rank; ++i)
    rows *= d.n[i];
  return rows * (d.kind == FFTMUX_C2C ? last : last / 2 + 1);
}

template <class T> class Transposed {
  using A = Api<T>;
  using C = typename A::complex;

public:
  // d's `batch` row-major transforms (C2C or R2C, rank 2 or 3), in_distance and out_distance
  // scalars apart, in direction dir, planned on in and out (aligned as the arrays it runs on, or
  // `flags` holds FFTW_UNALIGNED) and on `scratch` (transposed_scratch(d) elements, FFTW-aligned;
  // the plan's, which runs one execution at a time) with FFTW's threads. Call under the planner
  // lock.
  Transposed(const fftmux_desc& d, int64_t in_distance, int64_t out_distance, int dir,
             unsigned flags, int threads, T* in, T* out, C* scratch)
      : kind_(d.kind), batch_(d.batch), in_distance_(in_distance), out_distance_(out_distance),
        scratch_(scratch) {
    const int64_t* n = d.n;
    uint32_t rank = d.rank;
    int64_t last = n[rank - 1], row = kind_ == FFTMUX_C2C ? last : last / 2 + 1;
    int64_t rows = transposed_scratch(d) / row;
    A::plan_with_nthreads(threads);
    unsigned f = FFTW_ESTIMATE | flags;
    // A batch entry starts off FFTW's 16-byte alignment where the distances do not keep it
    // (an R2C input of odd rows times an odd count): the rows then plan unaligned.
    bool aligned = (in_distance * int64_t(sizeof(T))) % 16 == 0 &&
                   (out_distance * int64_t(sizeof(T))) % 16 == 0;
    C* t = scratch_;
    C* z = reinterpret_cast<C*>(out);
    try {
      rows_ = keep(row_lines(last, rows, dir, aligned ? f : f | FFTW_UNALIGNED, in, out));
      // Axis i: blocks of n_i x after (the axes after it), `before` of them, each transposed.
      int64_t after = row;
      for (uint32_t i = rank - 1; i-- > 0; after *= n[i]) {
        int64_t m = n[i], before = rows * row / (m * after);
        axes_.push_back({keep(turn(before, m, after, f, z, t)),
                         keep(lines(m, before * after, dir, f, t, t)),
                         keep(turn(before, after, m, f, t, z))});
      }
    } catch (...) {
      destroy();
      throw;
    }
  }
  ~Transposed() {
    std::lock_guard<std::mutex> lock(planner);
    destroy();
  }
  Transposed(const Transposed&) = delete;
  Transposed& operator=(const Transposed&) = delete;

  // One transform after another; a plan runs one execution at a time (the scratch).
  void run(T* in, T* out) const {
    for (int64_t k = 0; k < batch_; ++k) {
      T* x = in + k * in_distance_;
      T* y = out + k * out_distance_;
      if (kind_ == FFTMUX_R2C)
        A::run_r2c(rows_, x, reinterpret_cast<C*>(y));
      else
        A::run_dft(rows_, reinterpret_cast<C*>(x), reinterpret_cast<C*>(y));
      other_axes(reinterpret_cast<C*>(y));
    }
  }

private:
  struct Axis {
    typename A::plan across, lines, back;
  };

  // The axes before the last, in place on the complex output z, each through the scratch.
  void other_axes(C* z) const {
    C* t = scratch_;
    for (const Axis& a : axes_) {
      A::run_dft(a.across, z, t);
      A::run_dft(a.lines, t, t);
      A::run_dft(a.back, t, z);
    }
  }

  void destroy() {
    for (typename A::plan p : plans_)
      A::destroy(p);
    plans_.clear();
  }

  typename A::plan keep(typename A::plan p) {
    if (!p)
      plugin::fail(FFTMUX_ERROR_UNSUPPORTED, "FFTW could not plan the transposed path");
    plans_.push_back(p);
    return p;
  }
  // The rows: `count` lines of n points (R2C: n reals into n / 2 + 1 complex).
  typename A::plan row_lines(int64_t n, int64_t count, int dir, unsigned flags, T* in,
                             T* out) const {
    int64_t h = n / 2 + 1;
    if (kind_ == FFTMUX_C2C)
      return lines(n, count, dir, flags, reinterpret_cast<C*>(in), reinterpret_cast<C*>(out));
    fftw_iodim64 dim{n, 1, 1}, loop{count, n, h};
    return A::r2c(1, &dim, 1, &loop, in, reinterpret_cast<C*>(out), flags);
  }
  // `count` contiguous lines of n points, one after another.
  static typename A::plan lines(int64_t n, int64_t count, int dir, unsigned flags, C* in, C* out) {
    fftw_iodim64 dim{n, 1, 1}, loop{count, n, n};
    return A::dft(1, &dim, 1, &loop, in, out, dir, flags);
  }
  // `blocks` rows x cols matrices one after another in `in`, each into its transpose in `out`
  // (a rank-0 transform).
  static typename A::plan turn(int64_t blocks, int64_t rows, int64_t cols, unsigned flags, C* in,
                               C* out) {
    fftw_iodim64 loops[3] = {{blocks, rows * cols, rows * cols}, {rows, cols, 1}, {cols, 1, rows}};
    return A::dft(0, nullptr, 3, loops, in, out, FFTW_FORWARD, flags);
  }

  uint32_t kind_;
  int64_t batch_, in_distance_, out_distance_;
  C* scratch_;
  std::vector<typename A::plan> plans_;
  typename A::plan rows_ = nullptr;
  std::vector<Axis> axes_;
};

} // namespace fftmux::fftw
