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

// The filters zero-extended to the FFT sizes, one after another, in double (real or
// interleaved complex).
std::vector<double> padded_filters(const ConvGeometry& g, const void* filters) {
  const int64_t c = g.real() ? 1 : 2;
  const auto& L = g.fft;
  std::vector<double> x(size_t(g.desc.filters * g.fft_points() * c), 0.0);
  int64_t from = 0;
  for (int64_t f = 0; f < g.desc.filters; ++f)
    for (int64_t i = 0; i < g.m[0]; ++i)
      for (int64_t j = 0; j < g.m[1]; ++j)
        for (int64_t k = 0; k < g.m[2] * c; ++k)
          x[size_t((((f * L[0] + i) * L[1] + j) * L[2]) * c + k)] = scalar(g, filters, from++);
  return x;
}

// The filters' spectra: as given (FFTMUX_FILTER_SPECTRUM), or the unnormalized forward
// transforms of the padded filters by one host plan in double.
std::vector<cd> spectra_of(fftmux_context ctx, const ConvGeometry& g, const void* filters,
                           uint32_t layout) {
  std::vector<cd> s(size_t(g.desc.filters * g.spectrum_points()));
  if (layout == FFTMUX_FILTER_SPECTRUM) {
    for (size_t i = 0; i < s.size(); ++i)
      s[i] = {scalar(g, filters, int64_t(2 * i)), scalar(g, filters, int64_t(2 * i + 1))};
    return s;
  }
  std::vector<double> x = padded_filters(g, filters);
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = g.desc.rank;
  Dims L = g.axes(g.fft);
  std::copy(L.begin(), L.end(), d.n);
  d.batch = g.desc.filters;
  d.kind = g.desc.kind;
  d.precision = FFTMUX_F64;
  d.norm = FFTMUX_NORM_NONE;
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

// Each point's factor that starts the inverse transform at the mode's window.
std::vector<cd> window_phases(const ConvGeometry& g) {
  auto windows = g.window();
  const auto& L = g.fft;
  const int64_t S2 = g.real() ? L[2] / 2 + 1 : L[2];
  Dims start;
  for (int a = 0; a < FFTMUX_MAX_RANK; ++a)
    start[a] = (windows[size_t(a)][0] % L[a] + L[a]) % L[a];
  std::vector<cd> phases;
  phases.reserve(size_t(g.spectrum_points()));
  for (int64_t k0 = 0; k0 < L[0]; ++k0)
    for (int64_t k1 = 0; k1 < L[1]; ++k1)
      for (int64_t k2 = 0; k2 < S2; ++k2)
        phases.push_back(shift(k0, start[0], L[0]) * shift(k1, start[1], L[1]) *
                         shift(k2, start[2], L[2]));
  return phases;
}

} // namespace

std::shared_ptr<const std::vector<double>> filter_spectra(fftmux_context ctx, const ConvGeometry& g,
                                                          const void* filters, uint32_t layout) {
  std::vector<cd> h = spectra_of(ctx, g, filters, layout);
  std::vector<cd> phases = window_phases(g);
  auto out = std::make_shared<std::vector<double>>();
  out->reserve(2 * h.size());
  for (size_t i = 0; i < h.size(); ++i) {
    cd v = (g.desc.correlate ? std::conj(h[i]) : h[i]) * phases[i % phases.size()];
    out->push_back(v.real());
    out->push_back(v.imag());
  }
  return out;
}

} // namespace fftmux
