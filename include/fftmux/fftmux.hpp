// Thin header-only C++17 RAII wrapper over the C API: handles that free
// themselves and failures as fftmux::error exceptions carrying the message.
#pragma once

#include "fftmux.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fftmux {

class error : public std::runtime_error {
public:
  error(fftmux_status status, const char* message)
      : std::runtime_error(message ? message : ""), status_(status) {}
  fftmux_status status() const { return status_; }

private:
  fftmux_status status_;
};

inline void check(fftmux_status status) {
  if (status != FFTMUX_OK)
    throw error(status, fftmux_last_error());
}

namespace detail {
// A moveable owner of one C handle.
template <class H, fftmux_status (*Destroy)(H)> class handle {
public:
  handle() = default;
  explicit handle(H h) : h_(h) {}
  handle(handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  handle& operator=(handle&& o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;
  ~handle() {
    if (h_)
      Destroy(h_);
  }
  H get() const { return h_; }

private:
  H h_ = nullptr;
};

template <class F> std::string text(F&& f) {
  size_t needed = 0;
  check(f(nullptr, 0, &needed));
  std::string s(needed, '\0');
  check(f(s.data(), s.size(), &needed));
  s.resize(needed ? needed - 1 : 0);
  return s;
}
} // namespace detail

// A descriptor with fftmux_desc_init's defaults.
inline fftmux_desc make_desc(std::vector<int64_t> n, fftmux_kind kind = FFTMUX_C2C,
                             fftmux_precision precision = FFTMUX_F32, int64_t batch = 1) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = uint32_t(n.size());
  for (size_t i = 0; i < n.size() && i < FFTMUX_MAX_RANK; ++i)
    d.n[i] = n[i];
  d.kind = kind;
  d.precision = precision;
  d.batch = batch;
  return d;
}

class buffer : public detail::handle<fftmux_buffer, fftmux_buffer_destroy> {
public:
  using handle::handle;
  void write(const void* src, uint64_t bytes, uint64_t offset = 0) {
    check(fftmux_buffer_write(get(), offset, src, bytes));
  }
  void read(void* dst, uint64_t bytes, uint64_t offset = 0) const {
    check(fftmux_buffer_read(get(), offset, dst, bytes));
  }
  uint64_t native() const {
    uint64_t n = 0;
    check(fftmux_buffer_native(get(), &n));
    return n;
  }
};

class plan : public detail::handle<fftmux_plan, fftmux_plan_destroy> {
public:
  using handle::handle;
  void execute(int direction, const void* in, void* out) {
    check(fftmux_execute(get(), direction, in, out));
  }
  void forward(const void* in, void* out) { execute(FFTMUX_FORWARD, in, out); }
  void inverse(const void* in, void* out) { execute(FFTMUX_INVERSE, in, out); }
  void execute(int direction, const buffer& in, const buffer& out) {
    check(fftmux_execute_buffers(get(), direction, in.get(), out.get()));
  }
  void synchronize() { check(fftmux_plan_synchronize(get())); }
  void set_stream(uint64_t native_stream) { check(fftmux_plan_set_stream(get(), native_stream)); }
  std::string explain() const {
    return detail::text(
        [&](char* t, size_t n, size_t* need) { return fftmux_plan_explain(get(), t, n, need); });
  }
  std::string backend() const {
    const char* b = nullptr;
    check(fftmux_plan_backend(get(), &b, nullptr));
    return b;
  }
  std::string variant() const {
    const char* v = nullptr;
    check(fftmux_plan_backend(get(), nullptr, &v));
    return v;
  }
  buffer make_buffer(uint64_t bytes) const {
    fftmux_buffer b = nullptr;
    check(fftmux_buffer_create_for_plan(get(), bytes, &b));
    return buffer(b);
  }
};

// Signals convolved with filters transformed once (fftmux_convolution_*).
class convolution : public detail::handle<fftmux_convolution, fftmux_convolution_destroy> {
public:
  using handle::handle;
  void execute(const void* signal, void* out) {
    check(fftmux_convolution_execute(get(), signal, out));
  }
  std::string explain() const {
    return detail::text([&](char* t, size_t n, size_t* need) {
      return fftmux_convolution_explain(get(), t, n, need);
    });
  }
};

class context : public detail::handle<fftmux_context, fftmux_context_destroy> {
public:
  context() : handle(create(nullptr)) {}
  explicit context(const fftmux_context_options& options) : handle(create(&options)) {}

  // threads: 0 for the backend's default.
  plan make_plan(const fftmux_desc& desc, const char* backend = nullptr,
                 const char* variant = nullptr, uint32_t threads = 0) const {
    fftmux_plan_options o;
    fftmux_plan_options_init(&o);
    o.backend = backend;
    o.variant = variant;
    o.threads = threads;
    return make_plan(desc, o);
  }
  // With every option (fftmux_plan_options_init first): devices, order, ...
  plan make_plan(const fftmux_desc& desc, const fftmux_plan_options& options) const {
    fftmux_plan p = nullptr;
    check(fftmux_plan_create(get(), &desc, &options, &p));
    return plan(p);
  }
  // filter_layout: FFTMUX_FILTER_SIGNAL or FFTMUX_FILTER_SPECTRUM.
  convolution make_convolution(const fftmux_conv_desc& desc, const void* filter,
                               uint32_t filter_layout = FFTMUX_FILTER_SIGNAL,
                               const char* backend = nullptr, uint32_t threads = 0) const {
    fftmux_convolution_options o;
    fftmux_convolution_options_init(&o);
    o.backend = backend;
    o.threads = threads;
    fftmux_convolution c = nullptr;
    check(fftmux_convolution_create(get(), &desc, filter, filter_layout, &o, &c));
    return convolution(c);
  }
  fftmux_support query(const fftmux_desc& desc, const char* backend) const {
    fftmux_support s;
    fftmux_support_init(&s);
    check(fftmux_query(get(), &desc, backend, &s));
    return s;
  }
  std::vector<fftmux_backend_info> backends(bool probe = true) const {
    uint32_t count = 0;
    check(fftmux_backend_count(get(), &count));
    std::vector<fftmux_backend_info> out(count);
    for (uint32_t i = 0; i < count; ++i) {
      fftmux_backend_info_init(&out[i]);
      check(fftmux_backend_get(get(), i, probe ? FFTMUX_PROBE : 0, &out[i]));
    }
    return out;
  }
  // Every variant name of backend `index`, comma-separated (the info's field
  // holds what fits).
  std::string variants(uint32_t index) const {
    return detail::text([&](char* t, size_t n, size_t* need) {
      return fftmux_backend_variants(get(), index, t, n, need);
    });
  }
  std::string notes() const {
    return detail::text(
        [&](char* t, size_t n, size_t* need) { return fftmux_context_notes(get(), t, n, need); });
  }
  buffer make_buffer(const char* backend, uint64_t bytes) const {
    fftmux_buffer b = nullptr;
    check(fftmux_buffer_create(get(), backend, bytes, &b));
    return buffer(b);
  }

private:
  static fftmux_context create(const fftmux_context_options* o) {
    fftmux_context c = nullptr;
    check(fftmux_context_create(o, &c));
    return c;
  }
};

// Bytes of the input and output spans of a descriptor.
inline fftmux_layout layout(const fftmux_desc& desc) {
  fftmux_layout l;
  l.struct_size = sizeof l;
  check(fftmux_desc_layout(&desc, &l));
  return l;
}

} // namespace fftmux
