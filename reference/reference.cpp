#include "reference.hpp"
#include "r2r.hpp"

#include <fftmux/half.hpp>

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace fftmux::ref {

namespace {

using Cl = std::complex<long double>;
constexpr int R = FFTMUX_MAX_RANK;

// The geometry of one side, right-aligned to three axes.
struct Geometry {
  bool complex;
  int64_t ext[R] = {1, 1, 1};
  int64_t stride[R] = {0, 0, 0};
  int64_t distance;
  int64_t count() const { return ext[0] * ext[1] * ext[2]; }
};

Geometry geometry(const fftmux_desc& d, bool input) {
  Geometry g;
  g.complex = d.kind != FFTMUX_R2R && !(input ? d.kind == FFTMUX_R2C : d.kind == FFTMUX_C2R);
  int off = R - int(d.rank);
  for (uint32_t i = 0; i < d.rank; ++i) {
    g.ext[off + i] = d.n[i];
    g.stride[off + i] = input ? d.in_strides[i] : d.out_strides[i];
  }
  if (d.kind != FFTMUX_C2C && d.kind != FFTMUX_R2R && g.complex)
    g.ext[R - 1] = d.n[d.rank - 1] / 2 + 1;
  const int64_t* held = input ? d.in_extent : d.out_extent; // 0: the whole axis
  for (uint32_t i = 0; i < d.rank; ++i)
    if (held[i])
      g.ext[off + i] = held[i];
  g.distance = input ? d.in_distance : d.out_distance;
  return g;
}

bool is_padded(const fftmux_desc& d) {
  for (uint32_t i = 0; i < d.rank; ++i)
    if (d.in_extent[i] || d.out_extent[i])
      return true;
  return false;
}

int64_t packed(const int64_t* ext, const int64_t* i);
void unpack(const int64_t* ext, int64_t e, int64_t* i);

// The values of a (packed, batch-major) side of extents from, each batch
// copied into the leading corner of extents to, the rest zero; or cut to it
// where to is smaller.
Values reshaped(const Values& x, const Geometry& from, const Geometry& to, int64_t batch) {
  Values y(size_t(to.count() * batch));
  int64_t i[R];
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t e = 0; e < to.count(); ++e) {
      unpack(to.ext, e, i);
      bool inside = i[0] < from.ext[0] && i[1] < from.ext[1] && i[2] < from.ext[2];
      y[b * to.count() + e] = inside ? x[b * from.count() + packed(from.ext, i)] : 0.0;
    }
  return y;
}

// Element e (packed index within a batch) of a side, at its place in memory.
int64_t offset(const Geometry& g, int64_t b, int64_t e) {
  int64_t o = b * g.distance;
  for (int a = R - 1; a >= 0; --a) {
    o += (e % g.ext[a]) * g.stride[a];
    e /= g.ext[a];
  }
  return o;
}

template <class T> Cl load(const void* data, const Geometry& g, int64_t at) {
  const T* p = static_cast<const T*>(data);
  return g.complex ? Cl(p[2 * at], p[2 * at + 1]) : Cl(p[at], 0);
}

template <class T> void store(void* data, const Geometry& g, int64_t at, Cl v) {
  T* p = static_cast<T*>(data);
  if (g.complex) {
    p[2 * at] = T(v.real());
    p[2 * at + 1] = T(v.imag());
  } else {
    p[at] = T(v.real());
  }
}

// Calls f with a value of the scalar type of a precision.
template <class F> auto by_precision(uint32_t precision, F&& f) {
  switch (precision) {
  case FFTMUX_F64: return f(double());
  case FFTMUX_F16: return f(half::F16());
  case FFTMUX_BF16: return f(half::BF16());
  default: return f(float());
  }
}

// Packed index of (i0, i1, i2) in extents ext.
int64_t packed(const int64_t* ext, const int64_t* i) {
  return (i[0] * ext[1] + i[1]) * ext[2] + i[2];
}

void unpack(const int64_t* ext, int64_t e, int64_t* i) {
  for (int a = R - 1; a >= 0; --a) {
    i[a] = e % ext[a];
    e /= ext[a];
  }
}

// Moves every element to (i + n/2) mod n along the axes in mask (fftshift),
// or reads from there (ifftshift) when inverse.
std::vector<Cl> roll(const std::vector<Cl>& x, const int64_t* ext, unsigned mask, bool inverse) {
  std::vector<Cl> y(x.size());
  int64_t i[R], j[R];
  for (int64_t e = 0; e < int64_t(x.size()); ++e) {
    unpack(ext, e, i);
    for (int a = 0; a < R; ++a)
      j[a] = (mask >> a & 1u) ? (i[a] + ext[a] / 2) % ext[a] : i[a];
    if (inverse)
      y[e] = x[packed(ext, j)];
    else
      y[packed(ext, j)] = x[e];
  }
  return y;
}

void naive_axis(std::vector<Cl>& x, const int64_t* ext, int axis, int sign) {
  int64_t n = ext[axis];
  if (n == 1)
    return;
  std::vector<Cl> w(static_cast<size_t>(n)), line(static_cast<size_t>(n));
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int64_t k = 0; k < n; ++k)
    w[k] = std::polar(1.0L, sign * 2 * pi * k / n);
  int64_t step = 1;
  for (int a = axis + 1; a < R; ++a)
    step *= ext[a];
  for (int64_t e = 0; e < int64_t(x.size()); ++e) {
    if ((e / step) % n != 0)
      continue; // e is the first element of a line along axis
    for (int64_t k = 0; k < n; ++k) {
      Cl s = 0;
      for (int64_t j = 0; j < n; ++j)
        s += x[e + j * step] * w[(j * k) % n];
      line[k] = s;
    }
    for (int64_t k = 0; k < n; ++k)
      x[e + k * step] = line[k];
  }
}

// One FFTW plan a shape and sign, kept while the shape repeats: a batch of
// 655360 lines spent its time planning each line again.
void fftw_dft(std::vector<Cl>& x, const int64_t* ext, int sign) {
  struct Cached {
    int n[R] = {0, 0, 0};
    int sign = 0;
    fftw_complex* buf = nullptr;
    fftw_plan plan = nullptr;
    ~Cached() { reset(); }
    void reset() {
      if (plan)
        fftw_destroy_plan(plan);
      fftw_free(buf);
      plan = nullptr;
      buf = nullptr;
    }
  };
  thread_local Cached c;
  int n[R] = {int(ext[0]), int(ext[1]), int(ext[2])};
  if (!c.plan || !std::equal(n, n + R, c.n) || c.sign != sign) {
    c.reset();
    c.buf = fftw_alloc_complex(x.size());
    c.plan = fftw_plan_dft(R, n, c.buf, c.buf, sign, FFTW_ESTIMATE);
    std::copy(n, n + R, c.n);
    c.sign = sign;
  }
  for (size_t i = 0; i < x.size(); ++i) {
    c.buf[i][0] = double(x[i].real());
    c.buf[i][1] = double(x[i].imag());
  }
  fftw_execute(c.plan);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = Cl(c.buf[i][0], c.buf[i][1]);
}

// The naive DFT in long double for small problems; its quadratic work
// made verifying a large batch take hours.
bool naive_fits(const int64_t* ext, int64_t batch) {
  double work = double(ext[0]) * ext[1] * ext[2] * double(ext[0] + ext[1] + ext[2]);
  return work <= 4e7 && work * double(batch) <= 4e8;
}

void dft(std::vector<Cl>& x, const int64_t* ext, int sign, Method m) {
  if (m == Method::naive) {
    for (int a = 0; a < R; ++a)
      naive_axis(x, ext, a, sign);
  } else {
    fftw_dft(x, ext, sign);
  }
}

// The full complex array a C2R input stands for: Hermitian completion.
std::vector<Cl> complete(const std::vector<Cl>& half, const int64_t* full, const int64_t* hext) {
  std::vector<Cl> x(size_t(full[0] * full[1] * full[2]));
  int64_t i[R], j[R];
  for (int64_t e = 0; e < int64_t(x.size()); ++e) {
    unpack(full, e, i);
    if (i[2] < hext[2]) {
      x[e] = half[packed(hext, i)];
      continue;
    }
    for (int a = 0; a < R; ++a)
      j[a] = (full[a] - i[a]) % full[a];
    x[e] = std::conj(half[packed(hext, j)]);
  }
  return x;
}

template <class T> Values read_as(const fftmux_desc& d, bool input, const void* data) {
  Geometry g = geometry(d, input);
  Values out(size_t(g.count() * d.batch));
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t e = 0; e < g.count(); ++e) {
      Cl v = load<T>(data, g, offset(g, b, e));
      out[b * g.count() + e] = {double(v.real()), double(v.imag())};
    }
  return out;
}

unsigned all_axes(const fftmux_desc& d) {
  return ((1u << d.rank) - 1) << (R - d.rank);
}

// Each batch of an R2R problem through r2r_expected.
Values r2r_batches(const fftmux_desc& d, int direction, const Values& x, bool naive) {
  Values result(x.size());
  int64_t count = int64_t(x.size()) / d.batch;
  for (int64_t b = 0; b < d.batch; ++b) {
    std::vector<long double> values(static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e)
      values[e] = x[b * count + e].real();
    values = r2r_expected(d, direction, std::move(values), naive);
    for (int64_t e = 0; e < count; ++e)
      result[b * count + e] = double(values[e]);
  }
  return result;
}

} // namespace

Values read_side(const fftmux_desc& desc, bool input, const void* data) {
  fftmux_desc d = resolved(desc);
  return by_precision(d.precision, [&](auto t) { return read_as<decltype(t)>(d, input, data); });
}

namespace {

// Runs fill(from, to) over [0, total) in contiguous blocks, on several
// threads when total is large (fftmux run's 2^27 elements).
template <class Fill> void in_blocks(int64_t total, Fill&& fill) {
  int64_t threads =
      std::min<int64_t>(std::max(1u, std::thread::hardware_concurrency()), total >> 16);
  if (threads <= 1)
    return fill(int64_t(0), total);
  std::vector<std::thread> pool;
  int64_t t = 0;
  try {
    for (; t < threads; ++t)
      pool.emplace_back(fill, total * t / threads, total * (t + 1) / threads);
  } catch (const std::system_error&) { // no thread to be had: the rest on this one
  }
  for (int64_t rest = t; rest < threads; ++rest)
    fill(total * rest / threads, total * (rest + 1) / threads);
  for (std::thread& th : pool)
    th.join();
}

// Stores value(i) at the i-th element of a side (batch-major), in d's
// precision and layout; value is called from several threads.
template <class Value>
void write_each(const fftmux_desc& d, bool input, void* data, const Value& value) {
  Geometry g = geometry(d, input);
  int64_t count = g.count();
  in_blocks(count * d.batch, [&](int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) {
      std::complex<double> v = value(i);
      Cl val(v.real(), v.imag());
      int64_t at = offset(g, i / count, i % count);
      by_precision(d.precision, [&](auto t) { store<decltype(t)>(data, g, at, val); });
    }
  });
}

// A value in [-1, 1) for counter k of a seed (splitmix64's mixing): element
// i of an input takes counters 2i and 2i + 1, so that any block of it can
// be drawn on its own thread.
double uniform(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-52 - 1.0;
}

} // namespace

void write_side(const fftmux_desc& desc, bool input, const Values& values, void* data) {
  fftmux_desc d = resolved(desc);
  Geometry g = geometry(d, input);
  if (int64_t(values.size()) != g.count() * d.batch)
    throw std::invalid_argument("write_side: " + std::to_string(values.size()) +
                                " values for a side of " + std::to_string(g.count() * d.batch));
  write_each(d, input, data, [&](int64_t i) { return values[i]; });
}

fftmux_desc resolved(const fftmux_desc& desc) {
  fftmux_layout l;
  l.struct_size = sizeof l;
  if (fftmux_desc_layout(&desc, &l) != FFTMUX_OK)
    throw std::invalid_argument(fftmux_last_error());
  fftmux_desc r = desc;
  std::memcpy(r.in_strides, l.in_strides, sizeof r.in_strides);
  std::memcpy(r.out_strides, l.out_strides, sizeof r.out_strides);
  r.in_distance = l.in_distance;
  r.out_distance = l.out_distance;
  return r;
}

namespace {

// A padded problem's expected output: the whole problem's of the input
// zero-extended to every n, cut to the output extents.
Values padded_expected(const fftmux_desc& d, int direction, const void* input, Method method) {
  fftmux_desc whole = d;
  std::memset(whole.in_extent, 0, sizeof whole.in_extent);
  std::memset(whole.out_extent, 0, sizeof whole.out_extent);
  std::memset(whole.in_strides, 0, sizeof whole.in_strides);
  std::memset(whole.out_strides, 0, sizeof whole.out_strides);
  whole.in_distance = whole.out_distance = 0;
  whole.precision = FFTMUX_F64; // the zero-extended copy holds the input's values exactly
  whole = resolved(whole);
  Values x = reshaped(read_side(d, true, input), geometry(d, true), geometry(whole, true), d.batch);
  fftmux_layout l;
  l.struct_size = sizeof l;
  fftmux_desc_layout(&whole, &l);
  std::vector<unsigned char> bytes(l.in_bytes);
  write_side(whole, true, x, bytes.data());
  return reshaped(expected(whole, direction, bytes.data(), method), geometry(whole, false),
                  geometry(d, false), d.batch);
}

} // namespace

Values expected(const fftmux_desc& desc, int direction, const void* input, Method method) {
  fftmux_desc d = resolved(desc);
  if (is_padded(d))
    return padded_expected(d, direction, input, method);
  Geometry in = geometry(d, true), out = geometry(d, false);
  Geometry full = d.kind == FFTMUX_C2C ? in : d.kind == FFTMUX_R2C ? in : out;
  unsigned axes = all_axes(d), halved = axes & ~(1u << (R - 1));
  Values x = read_side(d, true, input);
  long double scale = 1.0L;
  long double n = full.count();
  if (d.norm == FFTMUX_NORM_ORTHO)
    scale = 1.0L / std::sqrt(n);
  else if ((d.norm == FFTMUX_NORM_BACKWARD && direction == FFTMUX_INVERSE) ||
           (d.norm == FFTMUX_NORM_FORWARD && direction == FFTMUX_FORWARD))
    scale = 1.0L / n;
  if (method == Method::automatic)
    method = naive_fits(full.ext, d.batch) ? Method::naive : Method::fftw;
  if (d.kind == FFTMUX_R2R)
    return r2r_batches(d, direction, x, method == Method::naive);
  Values result;
  for (int64_t b = 0; b < d.batch; ++b) {
    std::vector<Cl> side(x.begin() + b * in.count(), x.begin() + (b + 1) * in.count());
    bool c2r = d.kind == FFTMUX_C2R;
    if (d.flags & FFTMUX_SHIFT_INPUT)
      side = roll(side, in.ext, c2r ? halved : axes, true);
    std::vector<Cl> y = c2r ? complete(side, full.ext, in.ext) : side;
    dft(y, full.ext, direction, method);
    std::vector<Cl> o(size_t(out.count()));
    int64_t i[R];
    for (int64_t e = 0; e < out.count(); ++e) {
      unpack(out.ext, e, i);
      Cl v = y[packed(full.ext, i)] * scale;
      o[e] = out.complex ? v : Cl(v.real(), 0);
    }
    if (d.flags & FFTMUX_SHIFT_OUTPUT)
      o = roll(o, out.ext, d.kind == FFTMUX_R2C ? halved : axes, false);
    for (auto& v : o)
      result.push_back({double(v.real()), double(v.imag())});
  }
  return result;
}

std::vector<unsigned char> random_input(const fftmux_desc& desc, uint64_t seed) {
  fftmux_desc d = resolved(desc);
  fftmux_layout l;
  l.struct_size = sizeof l;
  fftmux_desc_layout(&d, &l);
  std::vector<unsigned char> bytes(l.in_bytes);
  Geometry g = geometry(d, true);
  if (d.kind != FFTMUX_C2R) { // drawn straight into the side: fftmux run's 2^27 elements in 1 GiB
    write_each(d, true, bytes.data(), [&](int64_t i) {
      return std::complex<double>(uniform(seed, 2 * uint64_t(i)),
                                  g.complex ? uniform(seed, 2 * uint64_t(i) + 1) : 0.0);
    });
    return bytes;
  }
  // c2r: the spectrum of random reals
  fftmux_desc r = d;
  r.kind = FFTMUX_R2C;
  r.flags &= ~(FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT | FFTMUX_IN_PLACE);
  r.norm = FFTMUX_NORM_NONE;
  r.precision = FFTMUX_F64;
  std::memset(r.in_strides, 0, sizeof r.in_strides);
  std::memset(r.out_strides, 0, sizeof r.out_strides);
  r.in_distance = r.out_distance = 0;
  std::memcpy(r.out_extent, d.in_extent, sizeof r.out_extent); // the held part of the spectrum
  std::memset(r.in_extent, 0, sizeof r.in_extent);
  std::vector<unsigned char> reals = random_input(r, seed);
  Values v = expected(r, FFTMUX_FORWARD, reals.data(), Method::fftw);
  if (d.flags & FFTMUX_SHIFT_INPUT) // stored centred, as the plan expects it
    v = [&] {
      Values c(v.size());
      for (int64_t b = 0; b < d.batch; ++b) {
        std::vector<Cl> s(v.begin() + b * g.count(), v.begin() + (b + 1) * g.count());
        s = roll(s, g.ext, all_axes(d) & ~(1u << (R - 1)), false);
        std::copy(s.begin(), s.end(), c.begin() + b * g.count());
      }
      return c;
    }();
  write_side(d, true, v, bytes.data());
  return bytes;
}

double relative_error(const Values& got, const Values& want) {
  if (got.size() != want.size())
    return INFINITY;
  long double diff = 0, norm = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i].real()) || !std::isfinite(got[i].imag()))
      return INFINITY;
    diff += std::norm(std::complex<long double>(got[i]) - std::complex<long double>(want[i]));
    norm += std::norm(std::complex<long double>(want[i]));
  }
  return double(norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff));
}

double error_bound(const fftmux_desc& d) {
  const double epsilon[] = {0x1p-23, 0x1p-52, 0x1p-11, 0x1p-8}; // F32, F64, F16, BF16
  double eps = epsilon[d.precision < 4 ? d.precision : 0];
  double n = 1;
  for (uint32_t i = 0; i < d.rank && i < R; ++i)
    n *= double(d.n[i]);
  return eps * (5.0 * std::max(1.0, std::log2(n)) + 4.0);
}

double flops(const fftmux_desc& d) {
  double n = 1;
  for (uint32_t i = 0; i < d.rank && i < R; ++i)
    n *= double(d.n[i]);
  double f = 5.0 * n * std::log2(std::max(n, 2.0)) * double(d.batch);
  return d.kind == FFTMUX_C2C ? f : f / 2;
}

std::vector<int> directions(const fftmux_desc& d) {
  if (d.kind == FFTMUX_R2C)
    return {FFTMUX_FORWARD};
  if (d.kind == FFTMUX_C2R)
    return {FFTMUX_INVERSE};
  return {FFTMUX_FORWARD, FFTMUX_INVERSE};
}

} // namespace fftmux::ref
