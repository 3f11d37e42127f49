// C2C of rank 2 or 3 as contiguous lines only: the rows, then each other axis brought to the
// rows by a transpose into scratch, transformed there and transposed back, each an
// FFTW_ESTIMATE plan. FFTW_ESTIMATE's own plans transform the strided axes in place without
// buffering, which thrashes the cache where their steps are powers of two (development machine,
// one thread, F32: 1536x1536 185 ms against 17 ms this way, 11 ms measured; 256x256 x16 26 ms
// against 3.9; docs/fftw.md).
#pragma once

#include "fftw_api.hpp"

#include <fftmux/plugin_support.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace fftmux::fftw {

// Whether an estimated C2C of these axes, elements `bytes` wide, takes this path: a strided
// axis steps a multiple of 512 bytes (a power-of-two share of the cache's sets) over a
// transform past 256 KiB (smaller ones stay in the cache).
inline bool transposes(const int64_t* n, uint32_t rank, int64_t bytes) {
  int64_t step = n[rank - 1] * bytes, total = step;
  bool critical = false;
  for (uint32_t i = rank - 1; i-- > 0; step *= n[i], total *= n[i])
    critical = critical || (n[i] > 1 && step % 512 == 0);
  return rank >= 2 && critical && total >= 256 * 1024;
}

template <class T> class Transposed {
  using A = Api<T>;
  using C = typename A::complex;

public:
  // `batch` row-major transforms of axes n (rank 2 or 3), in_distance and out_distance complex
  // elements apart, in direction dir, planned on in and out (aligned as the arrays it runs on,
  // or `flags` holds FFTW_UNALIGNED) with FFTW's threads. Call under the planner lock.
  Transposed(const int64_t* n, uint32_t rank, int64_t batch, int64_t in_distance,
             int64_t out_distance, int dir, unsigned flags, int threads, C* in, C* out)
      : batch_(batch), in_distance_(in_distance), out_distance_(out_distance) {
    int64_t points = 1;
    for (uint32_t i = 0; i < rank; ++i)
      points *= n[i];
    scratch_.reset(static_cast<C*>(A::malloc(size_t(points) * sizeof(C))));
    if (!scratch_)
      plugin::fail(FFTMUX_ERROR_OUT_OF_MEMORY, "fftw_malloc of the transpose's scratch failed");
    A::plan_with_nthreads(threads);
    unsigned f = FFTW_ESTIMATE | flags;
    C* t = scratch_.get();
    rows_ = keep(lines(n[rank - 1], points / n[rank - 1], dir, f, in, out));
    // Axis i: blocks of n_i x after (the axes after it), `before` of them, each transposed.
    int64_t after = n[rank - 1];
    for (uint32_t i = rank - 1; i-- > 0; after *= n[i]) {
      int64_t m = n[i], before = points / (m * after);
      axes_.push_back({keep(turn(before, m, after, f, out, t)),
                       keep(lines(m, before * after, dir, f, t, t)),
                       keep(turn(before, after, m, f, t, out))});
    }
  }
  ~Transposed() { // under the planner lock
    for (typename A::plan p : plans_)
      A::destroy(p);
  }
  Transposed(const Transposed&) = delete;
  Transposed& operator=(const Transposed&) = delete;

  // One transform after another; a plan runs one execution at a time (the scratch).
  void run(C* in, C* out) const {
    C* t = scratch_.get();
    for (int64_t k = 0; k < batch_; ++k) {
      C* y = out + k * out_distance_;
      A::run_dft(rows_, in + k * in_distance_, y);
      for (const Axis& a : axes_) {
        A::run_dft(a.across, y, t);
        A::run_dft(a.lines, t, t);
        A::run_dft(a.back, t, y);
      }
    }
  }

private:
  struct Free {
    void operator()(C* p) const { A::free(p); }
  };
  struct Axis {
    typename A::plan across, lines, back;
  };

  typename A::plan keep(typename A::plan p) {
    if (!p)
      plugin::fail(FFTMUX_ERROR_UNSUPPORTED, "FFTW could not plan the transposed path");
    plans_.push_back(p);
    return p;
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

  int64_t batch_, in_distance_, out_distance_;
  std::unique_ptr<C, Free> scratch_;
  std::vector<typename A::plan> plans_;
  typename A::plan rows_ = nullptr;
  std::vector<Axis> axes_;
};

} // namespace fftmux::fftw
