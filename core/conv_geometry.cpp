// Validation of a convolution descriptor and the sizes each mode implies.
#include "api_util.hpp"
#include "convolution.hpp"
#include "error.hpp"
#include "problem.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace fftmux {
namespace {

// The first release's fields end at reserved; fields added later keep their
// defaults where an older caller's struct_size ends before them.
constexpr size_t v1_size = offsetof(fftmux_conv_desc, reserved) + sizeof(uint32_t);
// Caps every size so that products of sizes cannot overflow int64_t.
constexpr int64_t max_points = int64_t(1) << 40;
const char* const mode_names[] = {"full", "same", "valid", "circular"};

fftmux_conv_desc read_conv_desc(const fftmux_conv_desc* desc) {
  require(desc, "desc");
  fftmux_conv_desc d = read_sized(desc, "desc", v1_size, fftmux_conv_desc_init,
                                  "initialize the descriptor with fftmux_conv_desc_init");
  d.struct_size = sizeof d;
  return d;
}

void check_count(int64_t v, const std::string& name) {
  if (v < 1 || v > max_points)
    invalid("desc->" + name + " = " + std::to_string(v) + ": must be between 1 and 2^40");
}

void check_enum(uint32_t v, uint32_t count, const char* name, const char* known) {
  if (v >= count)
    invalid(std::string("desc->") + name + " = " + std::to_string(v) + ": unknown (" + known + ")");
}

void check_fields(const fftmux_conv_desc& d) {
  if (d.rank < 1 || d.rank > FFTMUX_MAX_RANK)
    invalid("desc->rank = " + std::to_string(d.rank) + ": must be 1, 2 or 3");
  for (uint32_t a = 0; a < d.rank; ++a) {
    check_count(d.n[a], "n[" + std::to_string(a) + "]");
    check_count(d.m[a], "m[" + std::to_string(a) + "]");
  }
  check_count(d.batch, "batch");
  check_count(d.filters, "filters");
  if (d.kind != FFTMUX_C2C && d.kind != FFTMUX_R2C)
    invalid("desc->kind = " + std::to_string(d.kind) +
            ": must be FFTMUX_C2C (complex data) or FFTMUX_R2C (real data)");
  check_enum(d.precision, 2, "precision", "FFTMUX_F32 0, FFTMUX_F64 1");
  check_enum(d.mode, 4, "mode", "FULL 0, SAME 1, VALID 2, CIRCULAR 3");
  check_enum(d.correlate, 2, "correlate", "0: convolution, 1: correlation");
  check_enum(d.placement, 2, "placement", "FFTMUX_HOST 0, FFTMUX_DEVICE 1");
}

// VALID and CIRCULAR read the filter only where it overlaps the signal.
void check_filter_fits(const fftmux_conv_desc& d) {
  if (d.mode != FFTMUX_CONV_VALID && d.mode != FFTMUX_CONV_CIRCULAR)
    return;
  for (uint32_t a = 0; a < d.rank; ++a)
    if (d.m[a] > d.n[a])
      invalid("desc->m[" + std::to_string(a) + "] = " + std::to_string(d.m[a]) + " exceeds n[" +
              std::to_string(a) + "] = " + std::to_string(d.n[a]) + ": mode " + mode_names[d.mode] +
              " needs a filter no larger than the signal on every axis");
}

int64_t product(const std::array<int64_t, FFTMUX_MAX_RANK>& v) {
  return v[0] * v[1] * v[2];
}

// The product of values, refused past 2^40 (so that no later product overflows).
void check_points(const int64_t* v, int64_t times, const ConvGeometry& g, const char* what) {
  int64_t p = times;
  for (uint32_t a = 0; a < g.desc.rank; ++a)
    if (__builtin_mul_overflow(p, v[a], &p) || p > max_points)
      invalid(std::string("desc: ") + what + " " + list_text(v, g.desc.rank) + " x " +
              std::to_string(times) + " exceeds 2^40 points");
}

} // namespace

int64_t next_smooth(int64_t n) {
  for (int64_t k = std::max<int64_t>(n, 1);; ++k) {
    int64_t r = k;
    for (int64_t p : {2, 3, 5, 7})
      while (r % p == 0)
        r /= p;
    if (r == 1)
      return k;
  }
}

Dims ConvGeometry::axes(const Dims& v) const {
  Dims a{1, 1, 1};
  std::copy(v.end() - desc.rank, v.end(), a.begin());
  return a;
}

int64_t ConvGeometry::signal_points() const {
  return product(n);
}

int64_t ConvGeometry::filter_points() const {
  return product(m);
}

int64_t ConvGeometry::out_points() const {
  return product(out);
}

int64_t ConvGeometry::fft_points() const {
  return product(fft);
}

int64_t ConvGeometry::spectrum_points() const {
  int64_t last = fft[FFTMUX_MAX_RANK - 1];
  return fft_points() / last * (real() ? last / 2 + 1 : last);
}

std::vector<std::vector<int64_t>> ConvGeometry::window() const {
  std::vector<std::vector<int64_t>> w(FFTMUX_MAX_RANK);
  for (uint32_t a = 0; a < FFTMUX_MAX_RANK; ++a) {
    int64_t m = this->m[a], L = fft[a];
    int64_t start = desc.mode == FFTMUX_CONV_SAME    ? (m - 1) / 2
                    : desc.mode == FFTMUX_CONV_VALID ? m - 1
                                                     : 0;
    // A linear correlation's lag 0 sits at m - 1 of the full result, at 0 of the product's.
    if (desc.correlate && desc.mode != FFTMUX_CONV_CIRCULAR)
      start -= m - 1;
    for (int64_t i = 0; i < out[a]; ++i)
      w[a].push_back(((start + i) % L + L) % L);
  }
  return w;
}

ConvGeometry conv_geometry(const fftmux_conv_desc* desc) {
  ConvGeometry g;
  g.desc = read_conv_desc(desc);
  fftmux_conv_desc& d = g.desc;
  check_fields(d);
  check_filter_fits(d);
  const uint32_t skip = FFTMUX_MAX_RANK - d.rank;
  for (uint32_t a = d.rank; a < FFTMUX_MAX_RANK; ++a)
    d.n[a] = d.m[a] = 1;
  check_points(d.m, d.filters, g, "the filters");
  for (uint32_t a = 0; a < d.rank; ++a) {
    int64_t n = g.n[skip + a] = d.n[a], m = g.m[skip + a] = d.m[a];
    bool circular = d.mode == FFTMUX_CONV_CIRCULAR;
    g.fft[skip + a] = circular ? n : next_smooth(n + m - 1);
    g.out[skip + a] = d.mode == FFTMUX_CONV_FULL    ? n + m - 1
                      : d.mode == FFTMUX_CONV_VALID ? n - m + 1
                                                    : n;
  }
  check_points(d.n, d.batch, g, "the signals");
  int64_t pairs = 0;
  if (__builtin_mul_overflow(d.batch, d.filters, &pairs) || pairs > max_points)
    invalid("desc: batch x filters exceeds 2^40");
  check_points(g.axes(g.fft).data(), pairs, g, "the padded transforms");
  return g;
}

std::string describe(const ConvGeometry& g) {
  const fftmux_conv_desc& d = g.desc;
  return std::string(d.correlate ? "correlation " : "convolution ") + mode_names[d.mode] + ", " +
         (g.real() ? "real " : "complex ") + (d.precision ? "f64" : "f32") + ", signal " +
         list_text(d.n, d.rank) + " x batch " + std::to_string(d.batch) + ", filter " +
         list_text(d.m, d.rank) + " x " + std::to_string(d.filters) + ", output " +
         list_text(g.axes(g.out).data(), d.rank) + ", FFT size " +
         list_text(g.axes(g.fft).data(), d.rank) +
         (d.mode == FFTMUX_CONV_CIRCULAR ? " (the signal's)"
                                         : " (the next 2,3,5,7-smooth sizes >= n + m - 1)");
}

} // namespace fftmux
