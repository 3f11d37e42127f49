// fftmux's backends as engines: one per backend and variant the context
// lists, so backends that land later are measured without a change here.
#pragma once

#include "engine.hpp"

#include <string>

namespace bench {

// A backend's class from the devices it lists: "CPU" or a software
// rasterizer (llvmpipe, lavapipe, SwiftShader) is a CPU, anything else a GPU.
Device device_class(const std::string& devices);

// For every backend of ctx: "fftmux:<backend>", the variant the backend
// picks when none is named, and with every_variant "fftmux:<backend>/<variant>"
// for each of several variants. Backends that are not ready say why.
void add_fftmux_engines(fftmux_context ctx, bool every_variant, Engines& out);

} // namespace bench
