// A DEVICE convolution's filters as the spectra its forward plan multiplies by
// (Problem::product): each transformed once in double on the host, conjugated for
// a correlation, and shifted so that the mode's window starts each axis of the
// inverse transform, which then writes just the window (out_extent).
#include "api_util.hpp"
#include "convolution.hpp"
#include "error.hpp"

#include <cmath>
#include <complex>
#include <cstring>

namespace fftmux {

namespace {

using cd = std::complex<double>;

// Scalar i of a filter array of the convolution's precision, as a double.
double scalar(const ConvGeometry& g, const void* v, int64_t i) {
  return g.desc.precision == FFTMUX_F64 ? static_cast<const double*>(v)[i]
                                        : double(static_cast<const float*>(v)[i]);
}

// The filter zero-extended to the FFT sizes, in double (real or interleaved complex).
std::vector<double> padded_filter(const ConvGeometry& g, const void* filter) {
  const int64_t c = g.real() ? 1 : 2;
  const auto& L = g.fft;
  std::vector<double> x(size_t(g.fft_points() * c), 0.0);
  int64_t from = 0;
  for (int64_t i = 0; i < g.m[0]; ++i)
    for (int64_t j = 0; j < g.m[1]; ++j)
      for (int64_t k = 0; k < g.m[2] * c; ++k)
        x[size_t(((i * L[1] + j) * L[2]) * c + k)] = scalar(g, filter, from++);
  return x;
}

// The unnormalized forward transform of the padded filter, by a host plan in double.
std::vector<cd> transformed(fftmux_context ctx, const ConvGeometry& g, const void* filter) {
  std::vector<double> x = padded_filter(g, filter);
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = g.desc.rank;
  Dims L = g.axes(g.fft);
  std::copy(L.begin(), L.end(), d.n);
  d.kind = g.desc.kind;
  d.precision = FFTMUX_F64;
  d.norm = FFTMUX_NORM_NONE;
  std::vector<cd> s(size_t(g.spectrum_points()));
  fftmux_plan plan = create_plan(ctx, &d, nullptr, nullptr);
  fftmux_status st = fftmux_execute(plan, FFTMUX_FORWARD, x.data(), s.data());
  fftmux_plan_destroy(plan);
  check_inner(st);
  return s;
}

// exp(2 pi i k s / L): a spectrum's factor that moves its inverse transform back by s.
cd shift(int64_t k, int64_t s, int64_t L) {
  double a = 2 * std::acos(-1.0) * double((k * s) % L) / double(L);
  return {std::cos(a), std::sin(a)};
}

// One filter's spectrum, shifted, appended to out as interleaved doubles.
void append_spectrum(fftmux_context ctx, const ConvGeometry& g, const void* filter, uint32_t layout,
                     std::vector<double>& out) {
  std::vector<cd> h;
  if (layout == FFTMUX_FILTER_SPECTRUM) {
    h.resize(size_t(g.spectrum_points()));
    for (size_t i = 0; i < h.size(); ++i)
      h[i] = {scalar(g, filter, int64_t(2 * i)), scalar(g, filter, int64_t(2 * i + 1))};
  } else {
    h = transformed(ctx, g, filter);
  }
  auto windows = g.window();
  const auto& L = g.fft;
  const int64_t S2 = g.real() ? L[2] / 2 + 1 : L[2];
  Dims start;
  for (int a = 0; a < FFTMUX_MAX_RANK; ++a)
    start[a] = (windows[size_t(a)][0] % L[a] + L[a]) % L[a];
  size_t i = 0;
  for (int64_t k0 = 0; k0 < L[0]; ++k0)
    for (int64_t k1 = 0; k1 < L[1]; ++k1)
      for (int64_t k2 = 0; k2 < S2; ++k2, ++i) {
        cd v = g.desc.correlate ? std::conj(h[i]) : h[i];
        v *= shift(k0, start[0], L[0]) * shift(k1, start[1], L[1]) * shift(k2, start[2], L[2]);
        out.push_back(v.real());
        out.push_back(v.imag());
      }
}

} // namespace

std::shared_ptr<const std::vector<double>> filter_spectra(fftmux_context ctx, const ConvGeometry& g,
                                                          const void* filters, uint32_t layout) {
  const int64_t scalars = layout == FFTMUX_FILTER_SPECTRUM ? 2 * g.spectrum_points()
                                                           : g.filter_points() * (g.real() ? 1 : 2);
  const size_t bytes = g.desc.precision == FFTMUX_F64 ? sizeof(double) : sizeof(float);
  auto out = std::make_shared<std::vector<double>>();
  out->reserve(size_t(2 * g.desc.filters * g.spectrum_points()));
  for (int64_t f = 0; f < g.desc.filters; ++f)
    append_spectrum(ctx, g,
                    static_cast<const unsigned char*>(filters) + size_t(f * scalars) * bytes,
                    layout, *out);
  return out;
}

} // namespace fftmux
