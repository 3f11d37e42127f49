// The tables kernels read (twiddles, chirps, Bluestein's kernel): runs of
// Plan::table laid out while planning, each once, their values computed in
// double precision by table_values.
#pragma once

#include <fftmux/codegen.hpp>

namespace fftmux::codegen {

using cd = std::complex<double>;

// exp(sign 2 pi i a / b), exact in the integers.
cd unit_root(int sign, int64_t a, int64_t b);

// An in-place complex FFT in double precision of a 2,3,5,7-smooth length.
void host_fft(std::vector<cd>& x, int sign);

// Each function returns the offset of its run in the plan's table (a Table:
// of its run, or of its two split runs).
class Tables {
public:
  explicit Tables(Plan& p) : p_(p) {}
  // A Stockham stage's twiddles w^(i k), w = exp(-2 pi i / (span radix)), at
  // (i - 1) span + k for i = 1 .. radix - 1, k < span: a warp's threads hold
  // consecutive k, so each of its reads is one contiguous run.
  int64_t stage_twiddles(int64_t span, int radix);
  Table twiddle(int64_t n, int sign); // exp(sign 2 pi i m / n), m < n, split when long
  // exp(-2 pi i k / n), k <= n / 2; split beyond 2^20 points, or where
  // `strided`: read at k1 + n1 k by rows whose threads hold consecutive k,
  // where each thread's read would take a sector of its own unless the
  // table is two short runs (the low one then hit at few entries, the high
  // one in order).
  Table half(int64_t n, bool strided = false);
  int64_t chirp(int64_t n, int sign); // exp(sign pi i k^2 / n), k < n
  // exp(-2 pi i r c / n) at r row_len + c, r < rows, c < row_len.
  int64_t grid(int64_t n, int64_t row_len, int64_t rows);
  // FFT_m of exp(-sign pi i k^2 / n) wrapped circularly, times scale / m.
  int64_t bluestein(int64_t n, int64_t m, int sign, double scale);
  // The weights of a real-to-real axis of n points before (pre) or after its
  // DFT of N' points, m < count (TableRun::r2r_pre, r2r_post).
  int64_t r2r(uint32_t kind, int64_t n, bool pre, bool ortho, int64_t count);
  // A DCT-III's input weights as a C2R's half spectrum, m < count (TableRun::r2r_half).
  int64_t r2r_half(uint32_t kind, int64_t n, bool ortho, int64_t count);
  // A DST-II's weights after its R2C by the spectrum's position, m < count
  // (TableRun::dst2_post); a DST-III's as a C2R's half spectrum, m <= n (TableRun::dst3_half).
  int64_t dst2_post(int64_t n, bool ortho, int64_t count);
  int64_t dst3_half(int64_t n, bool ortho);
  // The weights of a DCT-IV's or DST-IV's folded line of n / 2 values before (pre) or after its
  // DFT, m < count (TableRun::r2r_fold_pre, r2r_fold_post).
  int64_t r2r_fold(int64_t n, bool pre, int64_t count);
  // The values of Options::product (TableRun::product).
  int64_t product(const std::shared_ptr<const std::vector<cd>>& values);

private:
  Table roots(int64_t n, int64_t count, bool split); // exp(-2 pi i m / n), m < count
  int64_t add(TableRun run);
  Plan& p_;
};

} // namespace fftmux::codegen
