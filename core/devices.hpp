// Plans across several devices of one backend: the plan options that name
// them, checked; what a backend must have to accept such a plan; and the
// engine's identity in the tuning cache, which names the device set.
#pragma once

#include "problem.hpp"
#include "registry.hpp"

#include <fftmux/fftmux.h>
#include <fftmux/plugin.h>

#include <string>

namespace fftmux {

// The device set of the options (older struct sizes read as one device).
// Throws Error(INVALID_ARGUMENT) naming the field and the rule it breaks.
DeviceSet read_devices(const fftmux_plan_options& options, const fftmux_desc& desc);

// The plan parameters that carry threads and the device set to a plugin.
fftmux_plan_params_v1 plan_params(const DeviceSet& devices, uint32_t threads);
// ... and the problem's product (Problem::product).
fftmux_plan_params_v1 plan_params(const Problem& problem, uint32_t threads);

// Whether a backend's table takes plans across devices: FFTMUX_CAP_DEVICES
// and every entry they need.
bool spans_devices(const fftmux_backend_v1& table);

// Why a backend's table cannot take a plan across devices; "" when it can
// (or the plan spans one device).
std::string devices_gap(const std::string& name, const fftmux_backend_v1& table,
                        const DeviceSet& devices);

// The hardware key of the engine that runs the set: the backend's own for
// one device, else that key followed by the count and each device's line
// ("; 2 devices: 0: <model line>; 1: <model line>"), so that "cuda on 2
// GPUs" is its own engine in the tuning cache.
std::string engine_key(Backend& backend, const DeviceSet& devices);

// "devices {0, 1}, natural order" for explain; "" for one device.
std::string devices_text(const DeviceSet& devices);

} // namespace fftmux
