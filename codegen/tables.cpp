#include "tables.hpp"

#include <cmath>

namespace fftmux::codegen {

cd unit_root(int sign, int64_t a, int64_t b) {
  a %= b;
  if (a < 0)
    a += b;
  // Reduce to the first octant so the angle handed to sin/cos is small.
  const long double pi = 3.141592653589793238462643383279502884L;
  bool neg = 2 * a > b; // use the conjugate of b - a
  if (neg)
    a = b - a;
  long double ang = 2 * pi * (long double)a / (long double)b;
  cd w(double(std::cos(ang)), double(std::sin(ang)));
  if (neg)
    w = std::conj(w);
  return sign < 0 ? std::conj(w) : w;
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

template <class F>
int64_t Tables::add(std::tuple<int, int64_t, int64_t, double> key, int64_t count, F f) {
  auto it = at_.find(key);
  if (it != at_.end())
    return it->second;
  int64_t at = int64_t(t_.size());
  for (int64_t i = 0; i < count; ++i)
    t_.push_back(f(i));
  at_[key] = at;
  return at;
}

int64_t Tables::stage(int64_t length) {
  return add({0, length, 0, 0.0}, length, [&](int64_t m) { return unit_root(-1, m, length); });
}

int64_t Tables::stage_twiddles(int64_t span, int radix) {
  return add({7, span, radix, 0.0}, (radix - 1) * span,
             [&](int64_t m) { return unit_root(-1, (m / span + 1) * (m % span), span * radix); });
}

Table Tables::twiddle(int64_t n, int sign) {
  Table t;
  t.conj = sign > 0;
  if (n <= 4096) {
    t.offset = stage(n);
    return t;
  }
  int bits = 0;
  while ((int64_t(1) << (2 * bits)) < n)
    ++bits;
  int64_t lo = int64_t(1) << bits, hi = (n + lo - 1) / lo;
  t.split_bits = bits;
  t.offset = add({1, n, 0, 0.0}, lo, [&](int64_t m) { return unit_root(-1, m, n); });
  t.hi_offset = add({2, n, 0, 0.0}, hi, [&](int64_t a) { return unit_root(-1, a * lo, n); });
  return t;
}

int64_t Tables::half(int64_t n) {
  return add({3, n, 0, 0.0}, n / 2 + 1, [&](int64_t k) { return unit_root(-1, k, n); });
}

int64_t Tables::chirp(int64_t n, int sign) {
  return add({4, n, sign, 0.0}, n,
             [&](int64_t k) { return unit_root(sign, k * k % (2 * n), 2 * n); });
}

int64_t Tables::bluestein(int64_t n, int64_t m, int sign, double scale) {
  auto key = std::make_tuple(5 + (sign > 0), n, m, scale);
  auto it = at_.find(key);
  if (it != at_.end())
    return it->second;
  std::vector<cd> b(static_cast<size_t>(m));
  for (int64_t k = 0; k < n; ++k) {
    cd w = unit_root(-sign, k * k % (2 * n), 2 * n);
    b[size_t(k)] = w;
    if (k)
      b[size_t(m - k)] = w;
  }
  host_fft(b, -1);
  return add(key, m, [&](int64_t k) { return b[size_t(k)] * (scale / double(m)); });
}

} // namespace fftmux::codegen
