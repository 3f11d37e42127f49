// One candidate (a backend's variant) of one problem under measurement: its
// plan, its data and buffers, a timed execution in the problem's placement,
// and the round trip that proves its results. Autotune and the calibration
// of device models measure through it.
#pragma once

#include "decision.hpp"
#include "problem.hpp"
#include "registry.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fftmux {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

template <class F> double timed(F&& f) {
  auto t = Clock::now();
  f();
  return since(t);
}

// Now as RFC 3339 UTC: "2026-12-06T01:05:22Z".
std::string utc_now();

// The q-quantile of v (nearest rank); -1 for none.
double quantile(std::vector<double> v, double q);

// A plugin object released by Release; moves pass ownership on.
template <class Release> struct Owned {
  Backend* backend = nullptr;
  void* handle = nullptr;
  Owned() = default;
  Owned(Owned&& o) noexcept : backend(o.backend), handle(std::exchange(o.handle, nullptr)) {}
  Owned& operator=(Owned&&) = delete;
  ~Owned() {
    if (handle)
      Release()(backend->table(), handle);
  }
};

struct DestroyPlan {
  void operator()(const fftmux_backend_v1& t, void* h) const { t.plan_destroy(h); }
};
struct FreeBuffer {
  void operator()(const fftmux_backend_v1& t, void* h) const { t.buffer_free(h); }
};
using PluginPlan = Owned<DestroyPlan>;
using PluginBuffer = Owned<FreeBuffer>;

// Host bytes left as they are until written: a vector clears its elements
// first, touching the memory twice.
struct Bytes {
  std::unique_ptr<unsigned char[]> p;
  size_t n = 0;
  Bytes() = default;
  explicit Bytes(size_t bytes) : p(new unsigned char[bytes]), n(bytes) {}
  unsigned char* data() const { return p.get(); }
  size_t size() const { return n; }
};

// The input of a problem's checks, drawn once for all its candidates: its
// values, and (but for padded problems) those values stored in the layout
// and precision of the side a round trip starts from, which every
// candidate copies or uploads as they are.
struct CheckInput {
  std::vector<double> x;
  Bytes stored;
};

struct Trial {
  Candidate c;
  Problem problem;
  PluginPlan plan;
  Bytes in, out;
  const CheckInput* input = nullptr; // check_input(problem, ...) when shared; else drawn
  PluginBuffer bin, bout;
  double plan_seconds = -1, check_seconds = -1, round_trip_error = -1;

  Backend& b() const { return *c.backend; }
  bool buffers() const { return b().table().buffer_alloc != nullptr; }
  bool on_device() const { return problem.desc.placement == FFTMUX_DEVICE && buffers(); }

  // Creates the plan, checks inverse(forward(x)) against x when verify is
  // set (Error(BACKEND) over the bound; on the backend's buffers for the
  // DEVICE placement, with no host copy of the data) and allocates the
  // data: host sides for HOST plans, the backend's buffers where it has them.
  void prepare(uint64_t seed, bool verify);
  // The host sides, allocated (zeros) where prepare left them out.
  void host_sides();
  // Creates the plan alone, timed (prepare then keeps it).
  void make_plan();
  // One execution of the problem's own direction: host memory end to end
  // for HOST plans, the backend's buffers (synchronized) for DEVICE ones.
  void run();
  void run_device();
  void create(const Problem& p, PluginPlan& into);
  void run_host(const PluginPlan& p, int direction, const void* x, void* y);
  void run_buffers(const PluginPlan& p, int direction, void* x, void* y);
};

// Bytes of the larger side.
size_t span(const Problem& p);

// What Trial::prepare's check reads as input for problem p with this seed.
CheckInput check_input(const Problem& p, uint64_t seed);

} // namespace fftmux
