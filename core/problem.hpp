// A validated transform problem: the caller's descriptor with every default
// resolved. Everything past validate() may trust it.
#pragma once

#include <fftmux/fftmux.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fftmux {

// One side (input or output) of a transform, in elements of its own type.
struct Side {
  bool complex = true;
  int64_t extent[FFTMUX_MAX_RANK] = {1, 1, 1};
  int64_t stride[FFTMUX_MAX_RANK] = {1, 1, 1};
  int64_t distance = 1;
  uint64_t element_bytes = 8;
  uint64_t span_bytes = 0; // first to one past the last element, all batches
};

// The devices of one backend a plan spans (fftmux_plan_options), as the
// application listed them (the first count when it gave a count).
struct DeviceSet {
  std::vector<uint32_t> indices; // empty: one device, the backend's own
  uint32_t order = FFTMUX_ORDER_NATURAL;
  bool spans() const { return !indices.empty(); }
};

struct Problem {
  fftmux_desc desc{}; // strides and distances resolved, never 0
  DeviceSet devices;  // set by fftmux_plan_create from its options
  Side in, out;
  int64_t points = 1; // product of the logical sizes
  // A spectrum the forward output is multiplied by (fftmux_plan_params_v1.product), interleaved;
  // set by a convolution for its forward plan, null otherwise.
  std::shared_ptr<const std::vector<double>> product;

  bool in_place() const { return desc.flags & FFTMUX_IN_PLACE; }
};

// Checks every rule of the descriptor and resolves its defaults. Throws
// Error(INVALID_ARGUMENT) with a message naming the field and the rule.
Problem validate(const fftmux_desc* desc);

// Copies min(desc->struct_size, sizeof) bytes over defaults, so that callers
// built against an older, shorter descriptor still work.
fftmux_desc read_desc(const fftmux_desc* desc);

// The scale a transform applies in the given direction under its norm.
double scale_factor(const Problem& problem, int direction);

// "c2c f32 1024 batch 8 host out-of-place norm backward", then the strides and
// distances that differ from the default layout ("in-strides 2"): for logs
// and explain texts, of a resolved descriptor.
std::string describe(const fftmux_desc& desc);

// " in-extent 100x100 out-extent 8x8": the held extents of the padded sides
// of a resolved descriptor, "" where it has none; for keys and texts.
std::string padding_text(const fftmux_desc& desc);

// "{2, 1}": the first count values, for messages.
std::string list_text(const int64_t* values, uint32_t count);

} // namespace fftmux
