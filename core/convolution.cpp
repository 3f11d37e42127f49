// Convolution objects. HOST: a forward plan that reads the signals zero-extended
// (in_extent, or a padded copy where the backend cannot pad), the filters'
// spectra computed once on the same backend, a pointwise product on the
// host, an inverse plan and the mode's window cut out of its result. DEVICE:
// two plans on the backend's buffers, the forward one padding and storing
// each spectrum once a filter, times the filter's (Problem::product), the
// inverse one writing only the windows (out_extent).
#include "convolution.hpp"
#include "api_util.hpp"
#include "error.hpp"

#include <fftmux/fftmux.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

using namespace fftmux;

struct fftmux_convolution_s {
  ConvGeometry g;
  std::vector<std::vector<int64_t>> window;
  std::vector<std::pair<int64_t, int64_t>> runs; // the last axis's window: (first, count) runs
  fftmux_plan forward = nullptr, inverse = nullptr;
  // Whether the forward plans read the signals and filters where they lie,
  // the zeros past them left to the backend (FFTMUX_CAP_PADDING).
  bool pads = false;
  // Work memory in doubles (aligned for either precision): the padded
  // signals (zeros around them) where the plan cannot pad, their spectra,
  // the filters' spectra, the products and the inverse transforms; all but
  // the first are overwritten whole, so they are never cleared (page faults
  // on pages of zeros were most of a large object's creation).
  std::vector<double> padded;
  std::unique_ptr<double[]> spectra, filters, products, results;
  // One filter: the products overwrite the spectra, a buffer less to fault in.
  double* product_memory() { return products ? products.get() : spectra.get(); }
  fftmux_buffer products_buffer = nullptr; // DEVICE: the signals' spectra times the filter's
  bool device() const { return g.desc.placement == FFTMUX_DEVICE; }
  ~fftmux_convolution_s() {
    fftmux_buffer_destroy(products_buffer);
    fftmux_plan_destroy(forward);
    fftmux_plan_destroy(inverse);
  }
};

namespace fftmux {

void check_inner(fftmux_status s) {
  if (s != FFTMUX_OK)
    fail(s, fftmux_last_error());
}

} // namespace fftmux

namespace {

size_t real_size(const ConvGeometry& g) {
  return g.desc.precision == FFTMUX_F64 ? sizeof(double) : sizeof(float);
}

// Bytes of one data element (real or complex).
size_t element_size(const ConvGeometry& g) {
  return real_size(g) * (g.real() ? 1 : 2);
}

size_t words(uint64_t bytes) {
  return (bytes + sizeof(double) - 1) / sizeof(double);
}

std::unique_ptr<double[]> uncleared(uint64_t bytes) {
  return std::unique_ptr<double[]>(new double[words(bytes)]);
}

// The transform of batch arrays of the FFT size; held: the points of each
// axis the input holds (a padded side), or none.
fftmux_desc fft_desc(const ConvGeometry& g, uint32_t kind, int64_t batch, uint32_t norm,
                     const Dims* held = nullptr) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = g.desc.rank;
  Dims L = g.axes(g.fft);
  std::copy(L.begin(), L.end(), d.n);
  if (held) {
    Dims h = g.axes(*held);
    std::copy(h.begin(), h.end(), d.in_extent);
  }
  d.batch = batch;
  d.kind = kind;
  d.precision = g.desc.precision;
  d.norm = norm;
  return d;
}

fftmux_plan_options plan_options(const char* backend, const char* variant, uint32_t threads) {
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = backend;
  o.variant = variant;
  o.threads = threads;
  return o;
}

fftmux_status try_plan(fftmux_context ctx, const fftmux_desc& d, const char* backend,
                       const char* variant, uint32_t threads, fftmux_plan* plan) {
  fftmux_plan_options o = plan_options(backend, variant, threads);
  return fftmux_plan_create(ctx, &d, &o, plan);
}

fftmux_plan make_plan(fftmux_context ctx, const fftmux_desc& d, const char* backend,
                      const char* variant, uint32_t threads) {
  fftmux_plan plan = nullptr;
  check_inner(try_plan(ctx, d, backend, variant, threads, &plan));
  return plan;
}

// The forward plan of the signals, reading them zero-extended where a
// backend can (routed among those that pad), else of padded copies (a
// backend named in the options that cannot pad).
void forward_plan(fftmux_context ctx, fftmux_convolution_s& c,
                  const fftmux_convolution_options& o) {
  const ConvGeometry& g = c.g;
  fftmux_desc padded = fft_desc(g, g.desc.kind, g.desc.batch, FFTMUX_NORM_NONE, &g.n);
  c.pads = try_plan(ctx, padded, o.backend, o.variant, o.threads, &c.forward) == FFTMUX_OK;
  if (!c.pads)
    c.forward = make_plan(ctx, fft_desc(g, g.desc.kind, g.desc.batch, FFTMUX_NORM_NONE), o.backend,
                          o.variant, o.threads);
}

// Copies count arrays of n[] elements into zeroed arrays of the padded sizes.
void pad(const ConvGeometry& g, const Dims& n, int64_t count, const void* src, void* dst) {
  size_t e = element_size(g);
  const auto& L = g.fft;
  auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  for (int64_t c = 0; c < count; ++c)
    for (int64_t i = 0; i < n[0]; ++i)
      for (int64_t j = 0; j < n[1]; ++j, in += n[2] * e)
        std::memcpy(out + ((c * L[0] + i) * L[1] + j) * L[2] * e, in, n[2] * e);
}

// The filter's values must be finite: one NaN would spread over every output.
template <class T> void check_finite(const T* v, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    if (!std::isfinite(v[i]))
      invalid("filter[" + std::to_string(i) + "] (counting real scalars) is " +
              std::to_string(v[i]) + ": every filter value must be finite");
}

// Every scalar of the filters, in the layout given, must be finite.
void check_filters(const ConvGeometry& g, const void* filter, uint32_t layout) {
  const int64_t scalars =
      g.desc.filters * (layout == FFTMUX_FILTER_SPECTRUM ? g.spectrum_points() * 2
                                                         : g.filter_points() * (g.real() ? 1 : 2));
  if (g.desc.precision == FFTMUX_F64)
    check_finite(static_cast<const double*>(filter), scalars);
  else
    check_finite(static_cast<const float*>(filter), scalars);
}

// Every signal's spectrum times every filter's (conjugated for correlation),
// interleaved complex numbers as real arithmetic, which vectorizes.
template <class T> void multiply(fftmux_convolution_s& c) {
  const int64_t S = c.g.spectrum_points(), B = c.g.desc.batch, F = c.g.desc.filters;
  const T sign = c.g.desc.correlate ? T(-1) : T(1);
  auto* x = reinterpret_cast<const T*>(c.spectra.get());
  auto* h = reinterpret_cast<const T*>(c.filters.get());
  auto* p = reinterpret_cast<T*>(c.product_memory());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t f = 0; f < F; ++f) {
      const T* xs = x + 2 * b * S;
      const T* hs = h + 2 * f * S;
      T* ps = p + 2 * (b * F + f) * S;
      for (int64_t k = 0; k < S; ++k) {
        T xr = xs[2 * k], xi = xs[2 * k + 1], hr = hs[2 * k], hi = sign * hs[2 * k + 1];
        ps[2 * k] = xr * hr - xi * hi;
        ps[2 * k + 1] = xr * hi + xi * hr;
      }
    }
}

// The last axis's window as runs of consecutive indices: one, or two where
// a correlation's window wraps around the end.
std::vector<std::pair<int64_t, int64_t>> runs_of(const std::vector<int64_t>& w) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (size_t i = 0; i < w.size(); ++i)
    if (i && w[i] == w[i - 1] + 1)
      ++runs.back().second;
    else
      runs.emplace_back(w[i], 1);
  return runs;
}

// The mode's window of every inverse transform, into out.
void gather(const fftmux_convolution_s& c, void* out) {
  const ConvGeometry& g = c.g;
  size_t e = element_size(g);
  const auto& L = g.fft;
  auto* src = reinterpret_cast<const unsigned char*>(c.results.get());
  auto* dst = static_cast<unsigned char*>(out);
  const int64_t count = g.desc.batch * g.desc.filters;
  for (int64_t t = 0; t < count; ++t, src += g.fft_points() * e)
    for (int64_t i : c.window[0])
      for (int64_t j : c.window[1])
        for (auto [first, n] : c.runs) {
          std::memcpy(dst, src + ((i * L[1] + j) * L[2] + first) * e, n * e);
          dst += n * e;
        }
}

// The filters' spectra: copied, or transformed by a plan like the forward
// one (reading them zero-extended, or padded in the results' memory, not yet
// needed).
void transform_filters(fftmux_context ctx, fftmux_convolution_s& c, const void* filter,
                       uint32_t layout, uint32_t threads) {
  const ConvGeometry& g = c.g;
  const int64_t F = g.desc.filters;
  const uint64_t bytes = uint64_t(F * g.spectrum_points()) * 2 * real_size(g);
  c.filters = uncleared(bytes);
  check_filters(g, filter, layout);
  if (layout == FFTMUX_FILTER_SPECTRUM) {
    std::memcpy(c.filters.get(), filter, bytes);
    return;
  }
  if (!c.pads) {
    std::memset(c.results.get(), 0, F * g.fft_points() * element_size(g));
    pad(g, g.m, F, filter, c.results.get());
  }
  const char *backend = nullptr, *variant = nullptr;
  check_inner(fftmux_plan_backend(c.forward, &backend, &variant));
  fftmux_plan plan =
      make_plan(ctx, fft_desc(g, g.desc.kind, F, FFTMUX_NORM_NONE, c.pads ? &g.m : nullptr),
                backend, variant, threads);
  const void* from = c.pads ? filter : c.results.get();
  fftmux_status s = fftmux_execute(plan, FFTMUX_FORWARD, from, c.filters.get());
  fftmux_plan_destroy(plan);
  check_inner(s);
}

// DEVICE: the forward plan pads the signals and stores each spectrum once a filter, times the
// filter's (the products of signal b and filter f at b F + f), which the inverse plan turns into
// the mode's windows alone; both on the backend the forward plan is routed to, the products in
// a buffer of their own.
void device_plans(fftmux_context ctx, fftmux_convolution_s& c, const void* filter, uint32_t layout,
                  const fftmux_convolution_options& o) {
  const ConvGeometry& g = c.g;
  const int64_t B = g.desc.batch, F = g.desc.filters, S = g.spectrum_points();
  check_filters(g, filter, layout);
  fftmux_plan_options po = plan_options(o.backend, o.variant, o.threads);
  fftmux_desc f = fft_desc(g, g.desc.kind, B, FFTMUX_NORM_NONE, &g.n);
  f.placement = FFTMUX_DEVICE;
  if (B > 1)
    f.out_distance = F * S; // room for a product a filter
  c.forward = create_plan(ctx, &f, &po, filter_spectra(ctx, g, filter, layout));
  c.pads = true;
  check_inner(fftmux_plan_backend(c.forward, &po.backend, nullptr));
  fftmux_desc i = fft_desc(g, g.real() ? FFTMUX_C2R : FFTMUX_C2C, B * F, FFTMUX_NORM_BACKWARD);
  i.placement = FFTMUX_DEVICE;
  Dims w = g.axes(g.out);
  std::copy(w.begin(), w.end(), i.out_extent);
  c.inverse = create_plan(ctx, &i, &po, nullptr);
  uint64_t bytes = uint64_t(B * F * S) * 2 * real_size(g);
  check_inner(fftmux_buffer_create_for_plan(c.forward, bytes, &c.products_buffer));
}

// The first release's fields end at variant: a later struct_size covers more,
// and the fields an older caller's struct lacks keep their defaults.
constexpr size_t options_v1_size =
    offsetof(fftmux_convolution_options, variant) + sizeof(const char*);

fftmux_convolution_options read_options(const fftmux_convolution_options* options) {
  return read_sized(options, "options", options_v1_size, fftmux_convolution_options_init,
                    "initialize it with fftmux_convolution_options_init");
}

std::string plan_text(fftmux_plan plan) {
  size_t needed = 0;
  check_inner(fftmux_plan_explain(plan, nullptr, 0, &needed));
  std::string text(needed, '\0');
  check_inner(fftmux_plan_explain(plan, text.data(), needed, nullptr));
  text.resize(needed - 1);
  return text;
}

} // namespace

extern "C" {

void fftmux_conv_desc_init(fftmux_conv_desc* d) {
  if (!clear_sized(d))
    return;
  d->rank = 1;
  for (int a = 0; a < FFTMUX_MAX_RANK; ++a)
    d->n[a] = d->m[a] = 1;
  d->batch = d->filters = 1;
  d->kind = FFTMUX_C2C;
  d->precision = FFTMUX_F32;
  d->mode = FFTMUX_CONV_FULL;
  d->placement = FFTMUX_HOST;
}

void fftmux_convolution_options_init(fftmux_convolution_options* o) {
  clear_sized(o);
}

fftmux_status fftmux_convolution_sizes(const fftmux_conv_desc* desc, int64_t* out_n,
                                       int64_t* fft_n) {
  return guard("fftmux_convolution_sizes", [&] {
    ConvGeometry g = conv_geometry(desc);
    for (auto [from, to] : {std::pair{g.axes(g.out), out_n}, std::pair{g.axes(g.fft), fft_n}})
      if (to)
        std::copy(from.begin(), from.end(), to);
  });
}

fftmux_status fftmux_convolution_create(fftmux_context ctx, const fftmux_conv_desc* desc,
                                        const void* filter, uint32_t filter_layout,
                                        const fftmux_convolution_options* options,
                                        fftmux_convolution* conv) {
  return guard("fftmux_convolution_create", [&] {
    require(ctx, "context");
    require(conv, "convolution");
    *conv = nullptr;
    auto c = std::make_unique<fftmux_convolution_s>();
    c->g = conv_geometry(desc);
    require(filter, "filter");
    if (filter_layout > FFTMUX_FILTER_SPECTRUM)
      invalid("filter_layout = " + std::to_string(filter_layout) +
              ": must be FFTMUX_FILTER_SIGNAL (0) or FFTMUX_FILTER_SPECTRUM (1)");
    fftmux_convolution_options o = read_options(options);
    const ConvGeometry& g = c->g;
    if (c->device()) {
      device_plans(ctx, *c, filter, filter_layout, o);
      *conv = c.release();
      return;
    }
    const int64_t B = g.desc.batch, F = g.desc.filters;
    forward_plan(ctx, *c, o);
    const char* backend = nullptr;
    check_inner(fftmux_plan_backend(c->forward, &backend, nullptr));
    uint32_t back = g.real() ? FFTMUX_C2R : FFTMUX_C2C;
    c->inverse = make_plan(ctx, fft_desc(g, back, B * F, FFTMUX_NORM_BACKWARD), backend, o.variant,
                           o.threads);
    const uint64_t spectrum = uint64_t(g.spectrum_points()) * 2 * real_size(g);
    c->results = uncleared(uint64_t(B * F * g.fft_points()) * element_size(g));
    transform_filters(ctx, *c, filter, filter_layout, o.threads);
    if (!c->pads)
      c->padded.resize(words(uint64_t(B * g.fft_points()) * element_size(g)));
    c->spectra = uncleared(B * spectrum);
    if (F > 1)
      c->products = uncleared(B * F * spectrum);
    c->window = g.window();
    c->runs = runs_of(c->window[2]);
    *conv = c.release();
  });
}

fftmux_status fftmux_convolution_destroy(fftmux_convolution conv) {
  return guard("fftmux_convolution_destroy", [&] { delete conv; });
}

fftmux_status fftmux_convolution_execute(fftmux_convolution conv, const void* signal, void* out) {
  return guard("fftmux_convolution_execute", [&] {
    require(conv, "convolution");
    require(signal, "signal");
    require(out, "out");
    fftmux_convolution_s& c = *conv;
    if (c.device())
      invalid("convolution: its placement is FFTMUX_DEVICE; run it with "
              "fftmux_convolution_execute_buffers");
    if (!c.pads)
      pad(c.g, c.g.n, c.g.desc.batch, signal, c.padded.data());
    const void* from = c.pads ? signal : c.padded.data();
    check_inner(fftmux_execute(c.forward, FFTMUX_FORWARD, from, c.spectra.get()));
    if (c.g.desc.precision == FFTMUX_F64)
      multiply<double>(c);
    else
      multiply<float>(c);
    check_inner(fftmux_execute(c.inverse, FFTMUX_INVERSE, c.product_memory(), c.results.get()));
    gather(c, out);
  });
}

fftmux_status fftmux_convolution_execute_buffers(fftmux_convolution conv, fftmux_buffer signal,
                                                 fftmux_buffer out) {
  return guard("fftmux_convolution_execute_buffers", [&] {
    require(conv, "convolution");
    require(signal, "signal");
    require(out, "out");
    if (!conv->device())
      invalid("convolution: its placement is FFTMUX_HOST; run it with fftmux_convolution_execute");
    check_inner(
        fftmux_execute_buffers(conv->forward, FFTMUX_FORWARD, signal, conv->products_buffer));
    // Two plans need not share a queue (cuda gives each a stream of its own): the inverse reads
    // the products only once the forward plan has written them.
    check_inner(fftmux_plan_synchronize(conv->forward));
    check_inner(fftmux_execute_buffers(conv->inverse, FFTMUX_INVERSE, conv->products_buffer, out));
  });
}

fftmux_status fftmux_convolution_backend(fftmux_convolution conv, const char** backend,
                                         const char** variant) {
  return guard("fftmux_convolution_backend", [&] {
    require(conv, "convolution");
    check_inner(fftmux_plan_backend(conv->forward, backend, variant));
  });
}

fftmux_status fftmux_convolution_explain(fftmux_convolution conv, char* text, size_t size,
                                         size_t* needed) {
  return guard("fftmux_convolution_explain", [&] {
    require(conv, "convolution");
    std::string product = conv->g.desc.correlate ? "conj(filter spectrum)" : "filter spectrum";
    std::string padding = conv->pads ? "zeros read by the plan (in_extent)"
                                     : "zeros by copy (the backend cannot pad)";
    std::string forward = conv->device()
                              ? "forward plan (signals; " + padding + "; times the " + product +
                                    " as it stores, the mode's window moved to the start):\n"
                              : "forward plan (signals and filters; " + padding + "):\n";
    std::string middle =
        conv->device() ? "inverse plan (the window alone, out_extent):\n"
                       : "product: on the host, signal spectrum x " + product + "\ninverse plan:\n";
    copy_out(describe(conv->g) + "\n" + forward + plan_text(conv->forward) + middle +
                 plan_text(conv->inverse),
             text, size, needed);
  });
}

} // extern "C"
