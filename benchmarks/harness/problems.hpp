// The problem sets: tables of shapes, kinds, precisions and placements.
#pragma once

#include "engine.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct Spec {
  fftmux_kind kind;
  fftmux_precision precision;
  fftmux_placement placement;
  std::vector<int64_t> shape;
  bool fill; // batch fills the elements per call of the class; else one transform
  uint32_t r2r = FFTMUX_R2R_NONE; // R2R: every axis's fftmux_r2r_kind
};

struct Problem {
  std::string set;
  Spec spec;
};

struct SetInfo {
  std::string name;
  std::string about;
  int64_t cpu_elements; // elements per call on a CPU, unless --cpu-elements says otherwise
  int64_t gpu_elements;
};

// Every set, in the order --list prints them.
std::vector<SetInfo> sets();

// The problems of the named sets ("all" names the big ones), in set order.
// Throws std::runtime_error on an unknown name.
std::vector<Problem> problems(const std::vector<std::string>& names);

// The elements per call a set gives a class.
int64_t elements_of(const std::string& set, Device device);

// The descriptor of a problem on a class with `elements` per call:
// contiguous, out-of-place, unnormalized (as FFTW, cuFFT and VkFFT are),
// batch = elements / points when the spec fills. Empty reason when it fits;
// otherwise why it does not (one transform exceeds the elements per call).
struct Instance {
  fftmux_desc desc;
  std::string too_big;
};
Instance instantiate(const Spec& spec, int64_t elements);

// "c2c f32 1024x1024 b64 device": how reports name a problem.
std::string describe(const fftmux_desc& desc);
std::string shape_text(const fftmux_desc& desc);
std::string shape_text(const std::vector<int64_t>& shape); // "1024x1024"
std::string kind_name(const fftmux_desc& desc);            // "c2c", "dct2", "dct2,dst1"
const char* precision_name(uint32_t precision);
const char* placement_name(uint32_t placement);

} // namespace bench
