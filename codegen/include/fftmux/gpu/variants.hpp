// The generator options a GPU backend offers its autotuner (variants), and
// what the device kind and the dialect's compiler leave of them.
#pragma once

#include <fftmux/codegen.hpp>
#include <fftmux/plugin_table.hpp>

#include <cstdint>
#include <vector>

namespace fftmux::codegen {

// Generator options by name: a backend's variants, the preferred first.
struct Variant {
  const char* name;
  Options options;
};
const std::vector<Variant>& variants();
// The options of variant index i; throws plugin::Failure (invalid argument)
// naming the backend when i is out of range.
const Options& variant_options(uint32_t i, const char* backend);
// The variant names as a C array that lives as long as the program.
const char* const* variant_names();
// What a plugin whose variants are these lists (plugin_table.hpp).
inline plugin::Identity identity(const char* name, uint32_t domain) {
  return {name,   FFTMUX_VERSION_STRING,       plugin::whole_api, FFTMUX_MAX_RANK,
          domain, uint32_t(variants().size()), variant_names()};
}
// What a variant leaves open, filled in for the kind of device: a CPU
// (lavapipe, llvmpipe) holds 4 values a thread in 256-invocation groups, a
// GPU ~64-invocation groups. (docs/codegen-rules.md: device_defaults)
Options device_defaults(Options o, bool cpu);
// What a dialect's compiler runs well, on top of the limits its API
// reports (OpenGL: no radix 27, composites above 16 from 2048 points, 64 KiB
// of shared memory an SM; Vulkan: a quarter of the register file for a
// group's values). (docs/codegen-rules.md: dialect_limits)
Device dialect_limits(Device d, Dialect dialect);

} // namespace fftmux::codegen
