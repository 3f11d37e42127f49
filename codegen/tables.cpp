#include "tables.hpp"

#include <cmath>
#include <complex>
#include <utility>
#include <vector>

namespace fftmux::codegen {

namespace {

using cl = std::complex<long double>;

// exp(sign 2 pi i a / b) in long double, exact in the integers.
cl root_l(int sign, int64_t a, int64_t b) {
  a %= b;
  if (a < 0)
    a += b;
  // Reduce to an angle of at most pi / 4 in the integers: sinl and cosl take
  // their multi-precision argument reduction beyond it, which made twiddle
  // tables most of a warm plan's creation time.
  const long double half_pi = 1.570796326794896619231321691639751442L;
  bool neg = 2 * a > b; // the conjugate of b - a
  if (neg)
    a = b - a;
  int64_t quarter = 4 * a / b, r = 4 * a - quarter * b; // angle = pi/2 (quarter + r / b)
  bool flip = 2 * r > b;                                // pi/2 r / b = pi/2 - pi/2 (b - r) / b
  long double ang = half_pi * (long double)(flip ? b - r : r) / (long double)b;
  long double c = cosl(ang), s = sinl(ang);
  if (flip)
    std::swap(c, s);
  cl w = quarter ? cl(-s, c) : cl(c, s);
  if (quarter == 2)
    w = cl(-c, -s);
  if (neg)
    w = std::conj(w);
  return sign < 0 ? std::conj(w) : w;
}

cd rounded(const cl& w) {
  return cd(double(w.real()), double(w.imag()));
}

} // namespace

cd unit_root(int sign, int64_t a, int64_t b) {
  return rounded(root_l(sign, a, b));
}

void host_fft(std::vector<cd>& x, int sign) {
  int64_t n = int64_t(x.size());
  std::vector<cd> y(x.size()), v, root(x.size());
  for (int64_t m = 0; m < n; ++m)
    root[size_t(m)] = unit_root(sign, m, n);
  int64_t span = 1;
  for (int r : {7, 5, 3, 2}) {
    while (span < n && n / span % r == 0) {
      v.resize(size_t(r));
      int64_t q = n / r, step = n / (span * r);
      for (int64_t j = 0; j < q; ++j) {
        int64_t k = j % span;
        for (int i = 0; i < r; ++i)
          v[size_t(i)] = x[size_t(j + i * q)] * root[size_t(i * k * step)];
        int64_t d = (j / span) * span * r + k;
        for (int o = 0; o < r; ++o) {
          cd s = 0;
          for (int i = 0; i < r; ++i)
            s += v[size_t(i)] * root[size_t(i * o % r * (n / r))];
          y[size_t(d + o * span)] = s;
        }
      }
      x.swap(y);
      span *= r;
    }
  }
  if (span != n)
    throw std::logic_error("host_fft: length is not 7-smooth");
}

int64_t Tables::add(TableRun run) {
  for (const TableRun& r : p_.table)
    if (r.kind == run.kind && r.n == run.n && r.b == run.b && r.sign == run.sign &&
        r.scale == run.scale && r.count == run.count)
      return r.at;
  run.at = p_.table_size;
  p_.table_size += run.count;
  p_.table.push_back(run);
  return run.at;
}

int64_t Tables::stage_twiddles(int64_t span, int radix) {
  return add({TableRun::stage_twiddles, span, radix, 0, 0.0, 0, (radix - 1) * span});
}

// The low run holds w^m for m < 2^bits, the high run w^(m 2^bits), so
// w^m = high[m >> bits] low[m & (2^bits - 1)]: about 2 sqrt(count) values,
// which stay in cache where count would not (H200, R2C 2^24: a 64 MiB
// table beside 64 MiB of data a line).
Table Tables::roots(int64_t n, int64_t count, bool split) {
  Table t;
  if (!split) {
    t.offset = add({TableRun::roots, n, 1, 0, 0.0, 0, count});
    return t;
  }
  int bits = 0;
  while ((int64_t(1) << (2 * bits)) < count)
    ++bits;
  int64_t lo = int64_t(1) << bits, hi = (count + lo - 1) / lo;
  t.split_bits = bits;
  t.offset = add({TableRun::roots, n, 1, 0, 0.0, 0, lo});
  t.hi_offset = add({TableRun::roots, n, lo, 0, 0.0, 0, hi});
  return t;
}

Table Tables::twiddle(int64_t n, int sign) {
  Table t = roots(n, n, n > 4096);
  t.conj = sign > 0;
  return t;
}

// Whole up to 2^20 points (4 MiB in F32), which stay in L2 beside the
// data: H200, split from 2^18 on, C2R
// 2^20 ran 5 % slower (788 -> 827 us; not spills: ptxas reports 24 bytes
// split, 28 whole), 2^19 3 %; beyond, C2R 2^22 1137 -> 1012, 2^24 1344 ->
// 1235 (cuFFT 1408), R2C 2^23 1230 -> 1157 (the rows' table, always split).
Table Tables::half(int64_t n, bool strided) {
  return roots(n, n / 2 + 1, strided || n > (int64_t(1) << 20));
}

int64_t Tables::chirp(int64_t n, int sign) {
  return add({TableRun::chirp, n, 0, sign, 0.0, 0, n});
}

int64_t Tables::grid(int64_t n, int64_t row_len, int64_t rows) {
  return add({TableRun::grid, n, row_len, 0, 0.0, 0, row_len * rows});
}

int64_t Tables::bluestein(int64_t n, int64_t m, int sign, double scale) {
  return add({TableRun::bluestein, n, m, sign, scale, 0, m});
}

namespace {

// Rows of roots of order n: w^(i d) = w^k, k = i d mod n, each w^k the
// product of w^(k - k % s) and w^(k % s) in long double, s ~ sqrt(n): 2
// sqrt(n) calls of sinl and cosl, not n (development VM, the tables of a
// 2^24-point plan, 65536 of their 77808 values rows: 10.1-10.9 -> 7.9-8.0 ms).
void grid(const TableRun& r, cd* out) {
  int64_t n = r.n, s = int64_t(std::ceil(std::sqrt(double(n))));
  std::vector<cl> lo;
  for (int64_t j = 0; j < s; ++j)
    lo.push_back(root_l(-1, j, n));
  std::vector<cd> all(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; k += s) {
    cl h = root_l(-1, k, n);
    for (int64_t j = 0; j < s && k + j < n; ++j) { // not std::complex's *: Annex G's checks
      const cl& l = lo[size_t(j)];
      all[size_t(k + j)] = cd(double(h.real() * l.real() - h.imag() * l.imag()),
                              double(h.real() * l.imag() + h.imag() * l.real()));
    }
  }
  for (int64_t m = 0, i = 0; m < r.count; ++i)
    for (int64_t d = 0, k = 0; d < r.b && m < r.count; ++d, ++m) {
      out[m] = all[size_t(k)];
      k = k + i < n ? k + i : k + i - n; // i < n
    }
}

// FFT_m of exp(-sign pi i k^2 / n) wrapped circularly, times scale / m.
void bluestein_kernel(const TableRun& r, cd* out) {
  int64_t n = r.n, m = r.b;
  std::vector<cd> b(static_cast<size_t>(m));
  for (int64_t k = 0; k < n; ++k) {
    cd w = unit_root(-r.sign, k * k % (2 * n), 2 * n);
    b[size_t(k)] = w;
    if (k)
      b[size_t(m - k)] = w;
  }
  host_fft(b, -1);
  for (int64_t k = 0; k < m; ++k)
    out[k] = b[size_t(k)] * (r.scale / double(m));
}

void fill(const TableRun& r, cd* out) {
  int64_t n = r.n;
  if (r.kind == TableRun::bluestein)
    return bluestein_kernel(r, out);
  if (r.kind == TableRun::grid)
    return grid(r, out);
  for (int64_t m = 0; m < r.count; ++m)
    switch (r.kind) {
    case TableRun::roots: out[m] = unit_root(-1, m * r.b, n); break;
    case TableRun::stage_twiddles: out[m] = unit_root(-1, (m / n + 1) * (m % n), n * r.b); break;
    case TableRun::chirp: out[m] = unit_root(r.sign, m * m % (2 * n), 2 * n); break;
    case TableRun::grid:
    case TableRun::bluestein: break; // filled above
    }
}

} // namespace

std::vector<cd> table_values(const Plan& plan) {
  std::vector<cd> t(size_t(plan.table_size));
  for (const TableRun& r : plan.table)
    fill(r, t.data() + r.at);
  return t;
}

} // namespace fftmux::codegen
