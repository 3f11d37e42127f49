// fftmux's backends as engines: one per backend and variant the context
// lists, so backends that land later are measured without a change here.
#pragma once

#include "engine.hpp"

#include <string>

namespace bench {

// A backend's class from the devices it lists: "CPU" or a software
// rasterizer (llvmpipe, lavapipe, SwiftShader) is a CPU, anything else a GPU.
Device device_class(const std::string& devices);

// Engines for every backend of ctx and every variant of each; backends that
// are not ready come as Skipped engines with their reason.
void add_fftmux_engines(fftmux_context ctx, Engines& out);

} // namespace bench
