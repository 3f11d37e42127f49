#include "trial.hpp"

#include "error.hpp"

#include <fftmux/half.hpp>
#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>

namespace fftmux {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return -1;
  std::sort(v.begin(), v.end());
  return v[size_t(q * double(v.size() - 1) + 0.5)];
}

size_t span(const Problem& p) {
  return std::max(p.in.span_bytes, p.out.span_bytes);
}

namespace {

// ---- data in a side's layout ----

using plugin::Shape;

// Calls f(element offset, logical index) for every logical element.
template <class F> void each_element(const fftmux_desc& d, const Shape& s, F&& f) {
  int64_t logical = 0;
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t i = 0; i < s.extent[0]; ++i)
      for (int64_t j = 0; j < s.extent[1]; ++j)
        for (int64_t k = 0; k < s.extent[2]; ++k)
          f(b * s.distance + i * s.stride[0] + j * s.stride[1] + k * s.stride[2], logical++);
}

int width(const Shape& s) {
  return s.complex ? 2 : 1;
}

// Reads or writes the logical elements of one side as doubles.
template <class T>
void transfer(const fftmux_desc& d, const Shape& s, void* data, std::vector<double>& v,
              bool store) {
  T* p = static_cast<T*>(data);
  int w = width(s);
  each_element(d, s, [&](int64_t at, int64_t i) {
    for (int c = 0; c < w; ++c)
      if (store)
        p[at * w + c] = T(v[size_t(i * w + c)]);
      else
        v[size_t(i * w + c)] = double(p[at * w + c]);
  });
}

size_t count(const fftmux_desc& d, const Shape& s) {
  return size_t(s.extent[0] * s.extent[1] * s.extent[2] * d.batch * width(s));
}

// f(T{}) with T the element scalar of the precision.
template <class F> auto by_precision(uint32_t precision, F&& f) {
  switch (precision) {
  case FFTMUX_F64: return f(double{});
  case FFTMUX_F16: return f(half::F16{});
  case FFTMUX_BF16: return f(half::BF16{});
  default: return f(float{});
  }
}

// transfer in d's precision.
void transfer_as(const fftmux_desc& d, const Shape& s, void* data, std::vector<double>& v,
                 bool store) {
  by_precision(d.precision, [&](auto t) { transfer<decltype(t)>(d, s, data, v, store); });
}

void store(const fftmux_desc& d, bool input, const std::vector<double>& v, void* data) {
  // transfer's store direction only reads v
  transfer_as(d, plugin::shape(d, input), data, const_cast<std::vector<double>&>(v), true);
}

std::vector<double> load(const fftmux_desc& d, bool input, const void* data) {
  Shape s = plugin::shape(d, input);
  std::vector<double> v(count(d, s));
  transfer_as(d, s, const_cast<void*>(data), v, false);
  return v;
}

// The squared distance of input side `data` from c x, and the squared norm of c x, element by
// element (no copy of the side as doubles).
template <class T>
std::pair<long double, long double> distance(const fftmux_desc& d, const void* data,
                                             const std::vector<double>& x, double c) {
  Shape s = plugin::shape(d, true);
  const T* p = static_cast<const T*>(data);
  int w = width(s);
  long double diff = 0, norm = 0;
  each_element(d, s, [&](int64_t at, int64_t i) {
    for (int k = 0; k < w; ++k) {
      double want = c * x[size_t(i * w + k)], got = double(p[at * w + k]);
      diff += (got - want) * (got - want);
      norm += want * want;
    }
  });
  return {diff, norm};
}

std::pair<long double, long double> distance_as(const fftmux_desc& d, const void* data,
                                                const std::vector<double>& x, double c) {
  return by_precision(d.precision, [&](auto t) { return distance<decltype(t)>(d, data, x, c); });
}

// The plan that undoes d: kinds, layouts and shift flags swapped (R2R's
// kinds stay: its plan runs the inverse pairing the other way).
fftmux_desc inverse_of(const fftmux_desc& d) {
  fftmux_desc r = d;
  r.kind = d.kind == FFTMUX_R2C   ? uint32_t(FFTMUX_C2R)
           : d.kind == FFTMUX_C2R ? uint32_t(FFTMUX_R2C)
                                  : d.kind;
  std::swap(r.in_strides, r.out_strides);
  std::swap(r.in_distance, r.out_distance);
  r.flags = (d.flags & FFTMUX_IN_PLACE) | ((d.flags & FFTMUX_SHIFT_INPUT) << 1) |
            ((d.flags & FFTMUX_SHIFT_OUTPUT) >> 1);
  return r;
}

int own_direction(const fftmux_desc& d) {
  return d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD;
}

// n values uniform in [-1, 1) from a splitmix64 stream: a check's input,
// 2^23 values a candidate at the GPU set's sizes, which mt19937_64 and
// uniform_real_distribution drew in 92 ms on the development machine and
// this in 9.
std::vector<double> random_values(size_t n, uint64_t seed) {
  std::vector<double> v;
  v.reserve(n); // not cleared first: every value is written once
  for (size_t i = 0; i < n; ++i) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    v.push_back(double((z ^ (z >> 31)) >> 11) * 0x1p-52 - 1);
  }
  return v;
}

// The problem whose input side a round trip starts from: C2R's starts from
// the real side, through the R2C plan.
fftmux_desc first_of(const Problem& p) {
  return p.desc.kind == FFTMUX_C2R ? inverse_of(p.desc) : p.desc;
}

// The plans of a round trip: the candidate's and the one that undoes it,
// in the order they run (C2R's starts from the real side, through the
// R2C plan), and the factor that the two directions' norms leave over.
// Where the undoing problem is the candidate's own (C2C and R2R of one
// layout), the candidate's plan runs both directions, as callers run it.
struct RoundTrip {
  PluginPlan other;
  const PluginPlan* forward;
  const PluginPlan* inverse;
  fftmux_desc first;
  double c;
};

void plan_round_trip(Trial& t, RoundTrip& r) {
  const Problem& p = t.problem;
  fftmux_desc undo = inverse_of(p.desc);
  r.first = p.desc;
  r.forward = r.inverse = &t.plan;
  if (std::memcmp(&undo, &p.desc, sizeof undo) != 0) { // else the plan runs both ways
    Problem q = validate(&undo);
    t.create(q, r.other);
    bool c2r = p.desc.kind == FFTMUX_C2R;
    r.first = c2r ? q.desc : p.desc;
    r.forward = c2r ? &r.other : &t.plan;
    r.inverse = c2r ? &t.plan : &r.other;
  }
  r.c = scale_factor(p, FFTMUX_FORWARD) * scale_factor(p, FFTMUX_INVERSE) *
        geometry::logical_points(p.desc);
}

// The relative L2 distance of input side `data` from c x; infinite where it is not finite.
double error_of(const RoundTrip& r, const void* data, const CheckInput& x) {
  auto [diff, norm] = distance_as(r.first, data, x.x, r.c);
  return std::isfinite(double(diff)) ? double(std::sqrt(diff / norm)) : INFINITY;
}

// inverse(forward(x)) against x through host memory. The check's arrays
// then serve as the trial's own (their values are finite), so that a
// candidate allocates its sides once and clears them never.
double round_trip(Trial& t, const CheckInput& x) {
  const Problem& p = t.problem;
  RoundTrip r;
  plan_round_trip(t, r);
  Bytes buf(span(p)), mid(p.in_place() ? 0 : span(p));
  std::memcpy(buf.data(), x.stored.data(), x.stored.size());
  void* y = p.in_place() ? buf.data() : mid.data();
  t.run_host(*r.forward, FFTMUX_FORWARD, buf.data(), y);
  t.run_host(*r.inverse, FFTMUX_INVERSE, y, buf.data());
  double error = error_of(r, buf.data(), x);
  t.in = std::move(buf);
  t.out = std::move(mid);
  return error;
}

// The same round trip on the backend's buffers, which keep its result as
// the timed runs' input: one upload and one download, no host sides.
double device_round_trip(Trial& t, const CheckInput& x) {
  RoundTrip r;
  plan_round_trip(t, r);
  const fftmux_backend_v1& tab = t.b().table();
  t.b().call("buffer_write",
             [&] { return tab.buffer_write(t.bin.handle, 0, x.stored.data(), x.stored.size()); });
  void* y = t.problem.in_place() ? t.bin.handle : t.bout.handle;
  t.run_buffers(*r.forward, FFTMUX_FORWARD, t.bin.handle, y);
  t.run_buffers(*r.inverse, FFTMUX_INVERSE, y, t.bin.handle);
  Bytes back(x.stored.size());
  t.b().call("buffer_read",
             [&] { return tab.buffer_read(t.bin.handle, 0, back.data(), back.size()); });
  return error_of(r, back.data(), x);
}

// The values of a side of shape from (batch-major, packed as load gives
// them) in the leading corner of shape to: zero-extended or cut.
std::vector<double> reshaped(const std::vector<double>& v, const Shape& from, const Shape& to,
                             int64_t batch) {
  int w = width(from);
  std::vector<double> r(size_t(to.extent[0] * to.extent[1] * to.extent[2] * batch * w));
  Shape common = to; // the corner both hold
  for (int a = 0; a < FFTMUX_MAX_RANK; ++a)
    common.extent[a] = std::min(from.extent[a], to.extent[a]);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < common.extent[0]; ++i)
      for (int64_t j = 0; j < common.extent[1]; ++j)
        for (int64_t k = 0; k < common.extent[2]; ++k) {
          auto at = [&](const Shape& s) {
            return ((b * s.extent[0] + i) * s.extent[1] + j) * s.extent[2] + k;
          };
          for (int c = 0; c < w; ++c)
            r[size_t(at(to) * w + c)] = v[size_t(at(from) * w + c)];
        }
  return r;
}

// A padded problem's check, where a round trip would lose what the output
// extents cut: its result against the whole problem's (same backend and
// variant) on the zero-extended input, cut to the output extents.
double padded_check(Trial& t, const std::vector<double>& x) {
  const Problem& p = t.problem;
  fftmux_desc w = p.desc;
  for (auto* v : {w.in_extent, w.out_extent, w.in_strides, w.out_strides})
    std::fill(v, v + FFTMUX_MAX_RANK, 0);
  w.in_distance = w.out_distance = 0;
  Problem whole = validate(&w);
  PluginPlan other;
  t.create(whole, other);
  Shape held_in = plugin::shape(p.desc, true), whole_in = plugin::shape(whole.desc, true);
  std::vector<unsigned char> in(p.in.span_bytes), out(p.out.span_bytes);
  std::vector<unsigned char> win(whole.in.span_bytes), wout(whole.out.span_bytes);
  store(p.desc, true, x, in.data());
  std::vector<double> wx = reshaped(x, held_in, whole_in, p.desc.batch);
  store(whole.desc, true, wx, win.data());
  int dir = own_direction(p.desc);
  t.run_host(t.plan, dir, in.data(), out.data());
  t.run_host(other, dir, win.data(), wout.data());
  std::vector<double> y = load(p.desc, false, out.data());
  std::vector<double> want =
      reshaped(load(whole.desc, false, wout.data()), plugin::shape(whole.desc, false),
               plugin::shape(p.desc, false), p.desc.batch);
  long double diff = 0, norm = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    diff += (y[i] - want[i]) * (y[i] - want[i]);
    norm += want[i] * want[i];
  }
  return std::isfinite(double(diff)) ? double(std::sqrt(diff / std::max(norm, 1e-300L))) : INFINITY;
}

} // namespace

CheckInput check_input(const Problem& p, uint64_t seed) {
  bool padded = plugin::padded(p.desc);
  fftmux_desc first = padded ? p.desc : first_of(p);
  CheckInput in;
  in.x = random_values(count(first, plugin::shape(first, true)), seed);
  if (!padded) {
    Problem f = validate(&first);
    in.stored = Bytes(f.in.span_bytes);
    std::memset(in.stored.data(), 0, in.stored.size()); // a strided layout's gaps
    store(first, true, in.x, in.stored.data());
  }
  return in;
}

namespace {

double bound(const Problem& p) {
  double eps = plugin::epsilon(p.desc.precision);
  return 2 * eps * (5 * std::max(1.0, std::log2(double(p.points))) + 4);
}

} // namespace

void Trial::create(const Problem& p, PluginPlan& into) {
  into.backend = c.backend;
  b().call("plan_create",
           [&] { return b().table().plan_create(b().handle(), &p.desc, c.variant, &into.handle); });
}

void Trial::run_host(const PluginPlan& p, int dir, const void* x, void* y) {
  b().call("execute", [&] { return b().table().execute(p.handle, dir, x, y); });
}

void Trial::run_buffers(const PluginPlan& p, int dir, void* x, void* y) {
  const fftmux_backend_v1& t = b().table();
  b().call("execute_buffers", [&] { return t.execute_buffers(p.handle, dir, x, y); });
  if (t.synchronize) // plans may run on streams of their own
    b().call("synchronize", [&] { return t.synchronize(p.handle); });
}

void Trial::run_device() {
  run_buffers(plan, own_direction(problem.desc), bin.handle,
              problem.in_place() ? bin.handle : bout.handle);
}

void Trial::run() {
  if (on_device())
    return run_device();
  void* y = problem.in_place() ? in.data() : out.data();
  run_host(plan, own_direction(problem.desc), in.data(), y);
}

void Trial::make_plan() {
  auto start = Clock::now();
  create(problem, plan);
  plan_seconds = since(start);
}

void Trial::prepare(uint64_t seed, bool verify) {
  if (!plan.handle)
    make_plan();
  auto start = Clock::now();
  if (buffers())
    for (PluginBuffer* buf : {&bin, &bout}) {
      buf->backend = &b();
      b().call("buffer_alloc",
               [&] { return b().table().buffer_alloc(b().handle(), span(problem), &buf->handle); });
    }
  CheckInput drawn;
  const CheckInput* x = input;
  if (verify && !x)
    x = &(drawn = check_input(problem, seed));
  bool padded = plugin::padded(problem.desc);
  if (verify && on_device() && !padded) {
    round_trip_error = device_round_trip(*this, *x);
  } else {
    if (verify)
      round_trip_error = padded ? padded_check(*this, x->x) : round_trip(*this, *x);
    host_sides();
    if (buffers())
      b().call("buffer_write", [&] {
        return b().table().buffer_write(bin.handle, 0, in.data(), problem.in.span_bytes);
      });
  }
  check_seconds = since(start);
  if (verify && !(round_trip_error <= bound(problem)))
    fail(FFTMUX_ERROR_BACKEND, "wrong results: the round trip error " +
                                   std::to_string(round_trip_error) + " exceeds " +
                                   std::to_string(bound(problem)));
}

void Trial::host_sides() {
  for (Bytes* side : {&in, &out})
    if (side->size() != span(problem)) {
      *side = Bytes(span(problem));
      std::memset(side->data(), 0, side->size()); // timed runs read finite values
    }
}

} // namespace fftmux
