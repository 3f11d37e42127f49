// Header-only C++ helpers for plugin authors: the shape of each side of a
// resolved descriptor, the scale of a direction (both desc_geometry.hpp's),
// and the exception guard every plugin entry needs. Depends on nothing but
// the ABI headers.
#pragma once

#include "desc_geometry.hpp"
#include "plugin.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace fftmux::plugin {

// The descriptor's geometry (desc_geometry.hpp), under the names plugins use.
using geometry::custom_distance;
using geometry::custom_strides;
using geometry::default_layout;
using geometry::epsilon;
using geometry::half_storage;
using geometry::held_extent;
using geometry::packed;
using geometry::padded;
using geometry::points;
using geometry::scalar_bytes;
using geometry::scale;
using geometry::shape;
using geometry::Shape;
using geometry::side_bytes;
using geometry::span;

// The host's functions (set_error, write_file), which are the host
// library's own and the same for every context: for a plugin that reports
// errors where it has no backend at hand. Copied once, by the first init,
// and never rewritten while other contexts' threads read it; config,
// host_data and cache_dir belong to one init (plugin.h) and are cleared.
inline const fftmux_host_v1* host_functions(const fftmux_host_v1& host) {
  static const fftmux_host_v1 copy = [&] {
    fftmux_host_v1 c = host;
    c.config = nullptr;
    c.host_data = nullptr;
    c.cache_dir = nullptr;
    return c;
  }();
  return &copy;
}

// Thrown inside a plugin; guarded() turns it into a status and a message.
struct Failure : std::runtime_error {
  Failure(fftmux_status s, const std::string& m) : std::runtime_error(m), status(s) {}
  fftmux_status status;
};

[[noreturn]] inline void fail(fftmux_status status, const std::string& message) {
  throw Failure(status, message);
}

// A setting of the plugin's [backends.<name>] table during init, or fallback.
inline std::string setting(const fftmux_host_v1* host, const char* key,
                           const std::string& fallback) {
  const char* v = host->config ? host->config(host->host_data, key) : nullptr;
  return v ? v : fallback;
}

// The CPU's model name, as /proc/cpuinfo gives it: for CPU backends' describe.
inline std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

// A boolean setting of [backends.<backend>] (true/1/on, false/0/off);
// throws Failure naming the key and its values.
inline bool flag(const std::string& backend, const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "on")
    return true;
  if (v == "false" || v == "0" || v == "off")
    return false;
  fail(FFTMUX_ERROR_INVALID_ARGUMENT,
       "[backends." + backend + "] " + key + " = \"" + v + "\": use true or false");
}

// Runs body, catching everything: no exception may leave a plugin.
template <class Body> fftmux_status guarded(const fftmux_host_v1* host, Body&& body) noexcept {
  auto report = [&](const char* message) {
    if (host && host->set_error)
      host->set_error(message);
  };
  try {
    body();
    return FFTMUX_OK;
  } catch (const Failure& e) {
    report(e.what());
    return e.status;
  } catch (const std::invalid_argument& e) { // an argument the plugin refuses
    report(e.what());
    return FFTMUX_ERROR_INVALID_ARGUMENT;
  } catch (const std::bad_alloc&) {
    report("out of host memory");
    return FFTMUX_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    report(e.what());
    return FFTMUX_ERROR_INTERNAL;
  } catch (...) {
    report("unknown exception");
    return FFTMUX_ERROR_INTERNAL;
  }
}

// The customary flop count of a transform: 5 N log2 N for a complex line
// of N points, half that for a real one, times the batch.
inline double fft_flops(const fftmux_desc& d) {
  double n = double(points(d));
  return (d.kind == FFTMUX_C2C ? 5.0 : 2.5) * n * std::log2(std::max(2.0, n)) * double(d.batch);
}

// The work of one execution, for the host's device model (plugin.h).
struct Work {
  double launches = 0, device_bytes = 0, host_bytes = 0, flops = 0;
  std::string fingerprint; // equal exactly for variants that run the same code
};

// Writes into the answer what the host's struct_size has room for: a Work,
// or a struct of the same fields (the kernel generator's codegen::Work).
template <class W> void report(fftmux_answer_v1* a, const W& w) {
  if (FFTMUX_ANSWER_HAS(a, launches)) {
    a->launches = w.launches;
    a->device_bytes = w.device_bytes;
    a->host_bytes = w.host_bytes;
    a->flops = w.flops;
  }
  if (FFTMUX_ANSWER_HAS(a, fingerprint))
    std::snprintf(a->fingerprint, sizeof a->fingerprint, "%s", w.fingerprint.c_str());
}

// The spectrum a plan is to multiply its forward output by (fftmux_plan_params_v1.product),
// copied; null where the host set none or wrote a shorter struct.
inline std::shared_ptr<const std::vector<std::complex<double>>>
product_of(const fftmux_plan_params_v1* p) {
  if (!p || p->struct_size < offsetof(fftmux_plan_params_v1, product_points) + sizeof(int64_t) ||
      !p->product || p->product_points <= 0)
    return nullptr;
  const auto* v = reinterpret_cast<const std::complex<double>*>(p->product);
  return std::make_shared<const std::vector<std::complex<double>>>(v, v + p->product_points);
}

} // namespace fftmux::plugin
