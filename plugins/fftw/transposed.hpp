// 2D C2C as rows, a transpose, rows again and a transpose back, each an FFTW_ESTIMATE plan of
// contiguous lines: FFTW_ESTIMATE's own 2D plans transform the columns in place without
// buffering, which thrashes the cache where the column step is a multiple of 2 KiB (development
// machine, one thread, F32: 1536x1536 185 ms against 17 ms this way, 11 ms measured; 256x256
// x16 26 ms against 3.9; docs/fftw.md).
#pragma once

#include "fftw_api.hpp"

#include <fftmux/plugin_support.hpp>

#include <cstdint>
#include <memory>

namespace fftmux::fftw {

// Whether an estimated n0 x n1 C2C plan of elements `bytes` wide takes this path: columns that
// step a multiple of 2 KiB over a transform past 256 KiB (smaller ones stay in the cache).
inline bool transposes(int64_t n0, int64_t n1, int64_t bytes) {
  return n0 > 1 && (n1 * bytes) % 2048 == 0 && n0 * n1 * bytes >= 256 * 1024;
}

template <class T> class Transposed {
  using A = Api<T>;
  using C = typename A::complex;

public:
  // `batch` transforms of n0 x n1, row-major, in_distance and out_distance complex elements apart,
  // in direction dir, planned on in and out (aligned as the arrays it runs on, or `flags` holds
  // FFTW_UNALIGNED) with FFTW's threads. Call under the planner lock.
  Transposed(int64_t n0, int64_t n1, int64_t batch, int64_t in_distance, int64_t out_distance,
             int dir, unsigned flags, int threads, C* in, C* out)
      : batch_(batch), in_distance_(in_distance), out_distance_(out_distance),
        scratch_(static_cast<C*>(A::malloc(size_t(n0 * n1) * sizeof(C)))) {
    if (!scratch_)
      plugin::fail(FFTMUX_ERROR_OUT_OF_MEMORY, "fftw_malloc of the transpose's scratch failed");
    A::plan_with_nthreads(threads);
    unsigned f = FFTW_ESTIMATE | flags;
    rows_ = lines(n1, n0, dir, f, in, out);
    across_ = turn(n0, n1, f, out, scratch_.get());
    columns_ = lines(n0, n1, dir, f, scratch_.get(), scratch_.get());
    back_ = turn(n1, n0, f, scratch_.get(), out);
    if (!rows_ || !across_ || !columns_ || !back_)
      plugin::fail(FFTMUX_ERROR_UNSUPPORTED, "FFTW could not plan the transposed 2D path");
  }
  ~Transposed() { // under the planner lock
    for (typename A::plan p : {rows_, across_, columns_, back_})
      if (p)
        A::destroy(p);
  }
  Transposed(const Transposed&) = delete;
  Transposed& operator=(const Transposed&) = delete;

  // One transform after another; a plan runs one execution at a time (the scratch).
  void run(C* in, C* out) const {
    for (int64_t k = 0; k < batch_; ++k) {
      C* x = in + k * in_distance_;
      C* y = out + k * out_distance_;
      A::run_dft(rows_, x, y);
      A::run_dft(across_, y, scratch_.get());
      A::run_dft(columns_, scratch_.get(), scratch_.get());
      A::run_dft(back_, scratch_.get(), y);
    }
  }

private:
  struct Free {
    void operator()(C* p) const { A::free(p); }
  };

  // `count` contiguous lines of n points, one after another.
  static typename A::plan lines(int64_t n, int64_t count, int dir, unsigned flags, C* in, C* out) {
    fftw_iodim64 dim{n, 1, 1}, loop{count, n, n};
    return A::dft(1, &dim, 1, &loop, in, out, dir, flags);
  }
  // The rows x cols matrix in `in` into its transpose in `out` (a rank-0 transform).
  static typename A::plan turn(int64_t rows, int64_t cols, unsigned flags, C* in, C* out) {
    fftw_iodim64 loops[2] = {{rows, cols, 1}, {cols, 1, rows}};
    return A::dft(0, nullptr, 2, loops, in, out, FFTW_FORWARD, flags);
  }

  int64_t batch_, in_distance_, out_distance_;
  std::unique_ptr<C, Free> scratch_;
  typename A::plan rows_ = nullptr, across_ = nullptr, columns_ = nullptr, back_ = nullptr;
};

} // namespace fftmux::fftw
