#include "data.hpp"

#include "parallel.hpp"

#include <fftmux/desc_geometry.hpp>
#include <fftmux/half.hpp>
#include <fftw3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace bench {

namespace {

uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// ref::random_input is serial; at 2^27 elements a counter-based generator
// filled in parallel saves seconds per problem on the GPU machine. Values in
// [-amplitude, amplitude).
template <class R> void fill_uniform(R* p, int64_t count, uint64_t seed, double amplitude) {
  uint64_t base = splitmix(seed) << 1;
  parallel_for(count, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      p[i] = R((double(splitmix(base + uint64_t(i)) >> 11) * 0x1p-52 - 1.0) * amplitude);
  });
}

size_t real_size(const fftmux_desc& d) {
  static const size_t bytes[] = {4, 8, 2, 2}; // by fftmux_precision
  return bytes[d.precision];
}

// f(R()) with R the storage type of the precision: float, double or a 16-bit format.
template <class F> auto by_real(uint32_t precision, F f) {
  switch (precision) {
  case FFTMUX_F64: return f(double());
  case FFTMUX_F16: return f(fftmux::half::F16());
  case FFTMUX_BF16: return f(fftmux::half::BF16());
  default: return f(float());
  }
}

// Reals of one batch entry of a side (contiguous layouts only).
int64_t row_reals(const fftmux_desc& d, bool input) {
  int64_t n = points(d);
  if (d.kind == FFTMUX_C2C)
    return 2 * n;
  if (input || d.kind == FFTMUX_R2R)
    return n;
  int64_t last = d.n[d.rank - 1];
  return 2 * (n / last) * (last / 2 + 1);
}

std::vector<int64_t> sample_rows(int64_t batch, int64_t want) {
  std::vector<int64_t> rows;
  if (want >= batch) {
    for (int64_t r = 0; r < batch; ++r)
      rows.push_back(r);
    return rows;
  }
  // Evenly spread, first and last included.
  for (int64_t i = 0; i < want; ++i)
    rows.push_back(i * (batch - 1) / (want - 1));
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

// The listed rows of one side, packed one after another.
std::vector<unsigned char> pack_rows(const fftmux_desc& d, bool input, const void* data,
                                     const std::vector<int64_t>& rows) {
  size_t row = size_t(row_reals(d, input)) * real_size(d);
  std::vector<unsigned char> out(row * rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    std::memcpy(out.data() + i * row, static_cast<const unsigned char*>(data) + rows[i] * row, row);
  return out;
}

fftmux_desc rows_desc(const fftmux_desc& d, const std::vector<int64_t>& rows) {
  fftmux_desc s = d;
  s.batch = int64_t(rows.size());
  return s;
}

// Index of the first element that is not finite, or -1.
template <class R> int64_t first_bad(const R* p, int64_t count) {
  std::atomic<int64_t> first{count};
  parallel_for(count, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      if (!std::isfinite(double(p[i]))) {
        int64_t seen = first.load();
        while (i < seen && !first.compare_exchange_weak(seen, i)) {
        }
        return;
      }
  });
  return first == count ? -1 : first.load();
}

// Worst row of ||y - scale x|| / ||scale x||.
template <class R>
double worst_round_trip(const R* x, const R* y, int64_t rows, int64_t per_row, double scale) {
  std::mutex m;
  double worst = 0;
  parallel_for(rows, [&](int64_t lo, int64_t hi) {
    double mine = 0;
    for (int64_t r = lo; r < hi; ++r) {
      double diff = 0, norm = 0;
      for (int64_t j = r * per_row; j < (r + 1) * per_row; ++j) {
        double want = scale * double(x[j]);
        diff += (double(y[j]) - want) * (double(y[j]) - want);
        norm += want * want;
      }
      double e = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
      mine = std::max(mine, std::isnan(e) ? INFINITY : e);
    }
    std::lock_guard<std::mutex> lock(m);
    worst = std::max(worst, mine);
  });
  return worst;
}

template <class R> int64_t bad_element(const Data& d, Slot s) {
  int64_t reals = int64_t(d.host.bytes(s) / sizeof(R));
  return first_bad(static_cast<const R*>(d.host.at(s)), reals);
}

template <class R> double round_trip(const Data& d) {
  return worst_round_trip(static_cast<const R*>(d.host.in), static_cast<const R*>(d.host.back),
                          d.desc.batch, row_reals(d.desc, true),
                          fftmux::geometry::logical_points(d.desc));
}

std::string sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

std::string unwritten(const char* what, int64_t index, int64_t count) {
  return std::string(what) + " element " + std::to_string(index) + " of " + std::to_string(count) +
         " is not finite: unwritten (left NaN) or wrong";
}

// "" when every element of the slot is finite.
std::string unwritten_in(const Data& d, Slot s) {
  int64_t bad = by_real(d.desc.precision, [&](auto r) { return bad_element<decltype(r)>(d, s); });
  if (bad < 0)
    return "";
  return unwritten(s == Slot::mid ? "forward output" : "inverse output", bad,
                   int64_t(d.host.bytes(s) / real_size(d.desc)));
}

// The forward transform of packed contiguous rows by FFTW in double.
ref::Values fftw_reference(const fftmux_desc& d, const void* input) {
  int64_t in_reals = row_reals(d, true) * d.batch, out_reals = row_reals(d, false) * d.batch;
  std::vector<double> x(size_t(in_reals), 0.0);
  ref::Values y(size_t(out_reals / 2));
  by_real(d.precision, [&](auto r) {
    const auto* in = static_cast<const decltype(r)*>(input);
    parallel_for(in_reals, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i)
        x[i] = double(in[i]);
    });
  });
  int n[FFTMUX_MAX_RANK];
  std::copy(d.n, d.n + d.rank, n);
  int rank = int(d.rank), rows = int(d.batch);
  auto* out = reinterpret_cast<fftw_complex*>(y.data());
  fftw_plan_with_nthreads(workers().size());
  fftw_plan p =
      d.kind == FFTMUX_C2C
          ? fftw_plan_many_dft(rank, n, rows, reinterpret_cast<fftw_complex*>(x.data()), nullptr, 1,
                               int(in_reals / 2 / rows), out, nullptr, 1, int(out_reals / 2 / rows),
                               FFTW_FORWARD, FFTW_ESTIMATE)
          : fftw_plan_many_dft_r2c(rank, n, rows, x.data(), nullptr, 1, int(in_reals / rows), out,
                                   nullptr, 1, int(out_reals / 2 / rows), FFTW_ESTIMATE);
  if (!p)
    throw std::runtime_error("FFTW made no reference plan for " + std::to_string(rank) + "D");
  fftw_execute(p);
  fftw_destroy_plan(p);
  return y;
}

} // namespace

Aligned aligned_bytes(size_t bytes) {
  void* p = std::aligned_alloc(64, std::max<size_t>(64, (bytes + 63) / 64 * 64));
  if (!p)
    throw std::bad_alloc();
  return Aligned(static_cast<unsigned char*>(p));
}

std::unique_ptr<Data> make_data(const fftmux_desc& desc, uint64_t seed, int64_t check_elements) {
  auto d = std::make_unique<Data>();
  d->desc = desc;
  fftmux_layout l;
  l.struct_size = sizeof l;
  if (fftmux_desc_layout(&desc, &l) != FFTMUX_OK)
    throw std::runtime_error(fftmux_last_error());
  d->in = aligned_bytes(l.in_bytes);
  d->mid = aligned_bytes(l.out_bytes);
  d->back = aligned_bytes(l.in_bytes);
  d->host = {d->in.get(), d->mid.get(), d->back.get(), size_t(l.in_bytes), size_t(l.out_bytes)};
  int64_t reals = int64_t(l.in_bytes / real_size(desc));
  // The unnormalized round trip multiplies by N: in a 16-bit format (F16's
  // largest is 65504) the input is scaled by 1/sqrt(N) so that it stays finite.
  double amplitude = real_size(desc) == 2 ? 1 / std::sqrt(double(points(desc))) : 1.0;
  by_real(desc.precision, [&](auto r) {
    fill_uniform(reinterpret_cast<decltype(r)*>(d->in.get()), reals, seed, amplitude);
  });
  int64_t want = std::clamp<int64_t>(check_elements / points(desc), 2, 4096);
  Reference& r = d->reference;
  r.rows = sample_rows(desc.batch, want);
  std::vector<unsigned char> x = pack_rows(desc, true, d->in.get(), r.rows);
  fftmux_desc sub = rows_desc(desc, r.rows);
  // The oracle's naive DFT in long double is exact and cheap for short
  // rows; longer ones go through FFTW in double on all cores, as the
  // oracle's one-row-at-a-time FFTW path takes tens of seconds at 2^27.
  // R2R's rows go through the oracle's FFTW r2r path, one row at a time.
  bool naive = points(desc) <= 64;
  r.expected = naive || desc.kind == FFTMUX_R2R
                   ? ref::expected(sub, FFTMUX_FORWARD, x.data(),
                                   naive ? ref::Method::naive : ref::Method::fftw)
                   : fftw_reference(sub, x.data());
  return d;
}

void poison_host(Data& data) {
  for (Slot s : {Slot::mid, Slot::back}) {
    auto* p = static_cast<unsigned char*>(data.host.at(s));
    parallel_for(int64_t(data.host.bytes(s)),
                 [&](int64_t lo, int64_t hi) { std::memset(p + lo, 0xFF, size_t(hi - lo)); });
  }
}

Verdict verify_forward(const Data& d, Family family) {
  Verdict v;
  v.rows_total = d.desc.batch;
  if (family == Family::copy) {
    v.ok = std::memcmp(d.host.mid, d.host.in, d.host.in_bytes) == 0;
    v.reason = v.ok ? "" : "the copy differs from the input";
    v.rows_checked = v.ok ? v.rows_total : 0;
    v.forward_error = v.bound = 0;
    return v;
  }
  v.reason = unwritten_in(d, Slot::mid);
  if (!v.reason.empty())
    return v;
  const Reference& ref = d.reference;
  std::vector<unsigned char> y = pack_rows(d.desc, false, d.host.mid, ref.rows);
  fftmux_desc sub = rows_desc(d.desc, ref.rows);
  v.forward_error = ref::relative_error(ref::read_side(sub, false, y.data()), ref.expected);
  v.bound = ref::error_bound(d.desc);
  v.rows_checked = int64_t(ref.rows.size());
  if (!(v.forward_error <= v.bound))
    v.reason = "forward error " + sci(v.forward_error) + " exceeds the bound " + sci(v.bound);
  v.ok = v.reason.empty();
  return v;
}

void verify_inverse(const Data& d, Family family, Verdict& v) {
  if (family == Family::copy) {
    v.ok = std::memcmp(d.host.back, d.host.in, d.host.in_bytes) == 0;
    v.reason = v.ok ? "" : "the second copy differs from the input";
    v.round_trip_error = 0;
    return;
  }
  v.reason = unwritten_in(d, Slot::back);
  if (v.reason.empty()) {
    v.round_trip_error =
        by_real(d.desc.precision, [&](auto r) { return round_trip<decltype(r)>(d); });
    if (!(v.round_trip_error <= 2 * v.bound))
      v.reason = "round trip error " + sci(v.round_trip_error) + " exceeds twice the bound " +
                 sci(v.bound);
  }
  v.ok = v.reason.empty();
}

} // namespace bench
