// The generator options a GPU backend offers its autotuner (variants), and
// what the device kind and the dialect's compiler leave of them.
#pragma once

#include <fftmux/codegen.hpp>

#include <cstdint>
#include <vector>

namespace fftmux::codegen {

constexpr uint32_t api_bit(Api a) {
  return 1u << int(a);
}
constexpr uint32_t every_api = api_bit(Api::vulkan) | api_bit(Api::opengl) | api_bit(Api::cuda);

// Generator options by name, and the APIs whose kernels they change (for
// some problem of the corpus, tests/codegen/corpus.txt, which checks it).
struct Variant {
  const char* name;
  Options options;
  uint32_t apis = every_api; // api_bit()s
};
// Every variant, the default first.
const std::vector<Variant>& variants();

// What a backend of one API offers: the variants that change its kernels,
// the default first, and their names as a C array that lives as long as the
// program.
struct Offer {
  std::vector<const Variant*> variants;
  std::vector<const char*> names;
};
const Offer& offered(Api api);
// The options of offered variant i; throws std::invalid_argument naming the
// API where i is out of range.
const Options& variant_options(Api api, uint32_t i);

const char* api_name(Api api);
Api api_of(Dialect dialect);

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
