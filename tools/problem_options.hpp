// The problem options shared by `fftmux run`, `explain` and `autotune`.
#pragma once

#include <fftmux/desc_geometry.hpp>
#include <fftmux/fftmux.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fftmux::cli {

struct ProblemOptions {
  std::string shape = "1024";
  int64_t batch = 1;
  std::string kind = "c2c";
  std::string precision = "f32";
  std::string norm = "backward";
  std::string shift = "none";
  std::string placement = "host";
  bool in_place = false;
  std::string in_strides, out_strides; // "8" or "4100x2"; empty: the default layout
  int64_t in_distance = 0, out_distance = 0;
  std::string in_extent, out_extent; // "100x100"; empty: the whole axes
  std::string backend = "auto";
  std::string variant;

  void add_to(CLI::App& app);
  // Throws std::runtime_error naming the option that is wrong.
  fftmux_desc desc() const;
};

// "1024x512" -> {1024, 512}; throws std::runtime_error on anything else.
std::vector<int64_t> parse_shape(const std::string& text);

// Index of value in names, or a runtime_error listing the choices.
uint32_t choice(const std::string& option, const std::string& value,
                const std::vector<const char*>& names);

// The descriptor's values as the options spell them, indexed by the C enums
// (--kind also takes R2R's per-axis kinds: geometry::r2r_name).
inline const std::vector<const char*> kind_names = {"c2c", "r2c", "c2r"};
inline const std::vector<const char*> precision_names = {"f32", "f64", "f16", "bf16"};
inline const std::vector<const char*> norm_names = {"none", "backward", "ortho", "forward"};
inline const std::vector<const char*> placement_names = {"host", "device"};
inline const std::vector<const char*> shift_names = {"none", "input", "output", "both"};

// "c2c f32 64x64 batch 8 host": a problem in one line.
std::string describe(const fftmux_desc& d);

// The problem as fields of every --json output: rank, shape, batch, kind,
// precision, norm, placement, shift, in_place, the strides and distances
// that were given, and the held extents of padded sides.
nlohmann::json problem_json(const fftmux_desc& d);

// --devices: a count ("2") or a comma-separated list of device indices
// ("0,1"; "3," lists one); neither when empty.
struct DeviceChoice {
  uint32_t count = 0;
  std::vector<uint32_t> list;
};

// Throws std::runtime_error naming the flag and the rule ("--devices 0: ...").
DeviceChoice parse_devices(const std::string& text);

} // namespace fftmux::cli
