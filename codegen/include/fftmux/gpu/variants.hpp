// The generator options a GPU backend offers its autotuner (variants).
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

} // namespace fftmux::codegen
