#include "tables.hpp"

#include <fftmux/desc_geometry.hpp>

#include <algorithm>
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

int64_t Tables::r2r(uint32_t kind, int64_t n, bool pre, bool ortho, int64_t count) {
  return add({pre ? TableRun::r2r_pre : TableRun::r2r_post, n, kind, ortho ? 1 : 0, 0.0, 0, count});
}

int64_t Tables::r2r_half(uint32_t kind, int64_t n, bool ortho, int64_t count) {
  return add({TableRun::r2r_half, n, kind, ortho ? 1 : 0, 0.0, 0, count});
}

int64_t Tables::dst2_post(int64_t n, bool ortho, int64_t count) {
  return add({TableRun::dst2_post, n, FFTMUX_DST2, ortho ? 1 : 0, 0.0, 0, count});
}

int64_t Tables::dst3_half(int64_t n, bool ortho) {
  return add({TableRun::dst3_half, n, FFTMUX_DST3, ortho ? 1 : 0, 0.0, 0, n + 1});
}

int64_t Tables::r2r_fold(int64_t n, bool pre, int64_t count) {
  return add({pre ? TableRun::r2r_fold_pre : TableRun::r2r_fold_post, n, 0, 0, 0.0, 0, count});
}

int64_t Tables::product(const std::shared_ptr<const std::vector<cd>>& values) {
  p_.product = values;
  return add({TableRun::product, 0, 0, 0, 0.0, 0, int64_t(values->size())});
}

namespace {

// Each DCT and DST of n points is y[k] = Re(post[k] Z[k]), Z the DFT of N' points of pre[j] x[j]
// (zero from j = n on): the cosines and sines of the definitions (fftmux.h) as phases of
// w = exp(-pi i / N'), or of its square root where `halves`. pre[j] = c_j w^(a j), c_j = 1, or
// for the kinds that weigh one or both ends once (ends: 1 = j = 0, 2 = j = n - 1, 3 = both)
// 2 elsewhere; post[k] = f w^(b k + e), f = 2, 1, 2i, i (fi 0..3; -Im z = Re(i z)).
struct R2rWeights {
  int a, ends, b, e, fi;
  bool halves;
};
constexpr R2rWeights r2r_weights[] = {
    {0, 3, 0, 0, 1, false}, // DCT-I:   Re sum c_j x_j w^(2 j k)
    {0, 0, 1, 0, 0, false}, // DCT-II:  2 Re w^k sum x_j w^(2 j k)
    {1, 1, 0, 0, 1, false}, // DCT-III: Re sum c_j x_j w^j w^(2 j k)
    {2, 0, 2, 1, 0, true},  // DCT-IV:  2 Re w^(k + 1/2) sum x_j w^j w^(2 j k)
    {2, 0, 2, 2, 2, false}, // DST-I:   -2 Im w^(2 k + 2) sum x_j w^(2 j) w^(2 j k)
    {2, 0, 1, 1, 2, false}, // DST-II:  -2 Im w^(k + 1) sum x_j w^(2 j) w^(2 j k)
    {1, 2, 2, 1, 3, false}, // DST-III: -Im w^(2 k + 1) sum c_j x_j w^j w^(2 j k)
    {2, 0, 2, 1, 2, true},  // DST-IV:  -2 Im w^(k + 1/2) sum x_j w^j w^(2 j k)
};

// TableRun::r2r_pre or r2r_post: the weights above, ORTHO's planes times theirs (sign 1).
void r2r_weight(const TableRun& r, cd* out) {
  uint32_t kind = uint32_t(r.b);
  const R2rWeights& w = r2r_weights[kind - 1];
  bool half = r.kind == TableRun::r2r_half, pre = half || r.kind == TableRun::r2r_pre;
  int64_t n = r.n, big = 2 * geometry::logical_size(kind, n) * (w.halves ? 2 : 1);
  static const cd f[] = {{2, 0}, {1, 0}, {0, 2}, {0, 1}};
  for (int64_t m = 0; m < r.count; ++m) {
    bool once = (m == 0 && (w.ends & 1)) || (m == n - 1 && (w.ends & 2));
    out[m] = pre ? unit_root(half ? 1 : -1, w.a * m, big) * (w.ends && !once && !half ? 2.0 : 1.0)
                 : unit_root(-1, w.b * m + w.e, big) * f[w.fi];
  }
  if (!r.sign)
    return;
  for (geometry::Plane p : geometry::ortho_planes(kind, n, pre))
    out[p.index] *= p.factor;
}

// TableRun::dst2_post and dst3_half: DST-II's r2r_post one position on, the conjugates of
// DCT-III's r2r_half in reverse (the C2R's half spectrum shifted by n), zero at position 0.
void dst_weight(const TableRun& r, cd* out) {
  bool post = r.kind == TableRun::dst2_post;
  TableRun base = r;
  base.kind = post ? TableRun::r2r_post : TableRun::r2r_half;
  base.b = post ? FFTMUX_DST2 : FFTMUX_DCT3;
  base.count = post ? r.count - 1 : r.n + 1;
  std::vector<cd> w(size_t(base.count));
  r2r_weight(base, w.data());
  out[0] = 0;
  for (int64_t m = 1; m < r.count; ++m)
    out[m] = post ? w[size_t(m - 1)] : std::conj(w[size_t(r.n - m)]);
}

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
  if (r.kind == TableRun::r2r_pre || r.kind == TableRun::r2r_post || r.kind == TableRun::r2r_half)
    return r2r_weight(r, out);
  if (r.kind == TableRun::dst2_post || r.kind == TableRun::dst3_half)
    return dst_weight(r, out);
  for (int64_t m = 0; m < r.count; ++m)
    switch (r.kind) {
    case TableRun::roots: out[m] = unit_root(-1, m * r.b, n); break;
    case TableRun::stage_twiddles: out[m] = unit_root(-1, (m / n + 1) * (m % n), n * r.b); break;
    case TableRun::chirp: out[m] = unit_root(r.sign, m * m % (2 * n), 2 * n); break;
    case TableRun::r2r_fold_pre: out[m] = unit_root(-1, 4 * m + 1, 8 * n); break;
    case TableRun::r2r_fold_post: out[m] = 2.0 * unit_root(-1, 4 * m, 8 * n); break;
    case TableRun::grid:
    case TableRun::bluestein:
    case TableRun::r2r_pre:
    case TableRun::r2r_post:
    case TableRun::r2r_half:
    case TableRun::dst2_post:
    case TableRun::dst3_half:
    case TableRun::product: break; // filled above
    }
}

} // namespace

std::vector<cd> table_values(const Plan& plan) {
  std::vector<cd> t(size_t(plan.table_size));
  for (const TableRun& r : plan.table)
    if (r.kind == TableRun::product)
      std::copy(plan.product->begin(), plan.product->end(), t.begin() + r.at);
    else
      fill(r, t.data() + r.at);
  return t;
}

} // namespace fftmux::codegen
