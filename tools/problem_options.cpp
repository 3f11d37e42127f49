#include "problem_options.hpp"

#include <algorithm>
#include <stdexcept>

namespace fftmux::cli {

namespace {

// "8x6" -> {8, 6}: numbers of at least `least` joined by 'x'; what is wrong
// names the option.
std::vector<int64_t> parse_list(const std::string& option, const std::string& text, int64_t least,
                                const char* example) {
  std::vector<int64_t> values;
  size_t start = 0;
  while (true) {
    size_t end = text.find('x', start);
    std::string part =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size() || v < least)
      throw std::runtime_error(option + " " + text + ": expected " +
                               (least ? "sizes of at least 1" : "numbers of at least 0") +
                               " joined by 'x', e.g. " + example);
    values.push_back(v);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  if (values.size() > FFTMUX_MAX_RANK)
    throw std::runtime_error(option + " " + text + ": at most 3 dimensions");
  return values;
}

// One value per axis of --shape (--X-strides, --X-extent; 0 or none: the
// default) into values.
void parse_axes(const std::string& option, const std::string& text, uint32_t rank, int64_t* values,
                const char* noun = "strides", const char* example = "8 or 4100x2") {
  if (text.empty())
    return;
  std::vector<int64_t> v = parse_list(option, text, 0, example);
  if (v.size() != rank)
    throw std::runtime_error(option + " " + text + ": expected " + std::to_string(rank) + " " +
                             noun + ", one per axis of --shape");
  std::copy(v.begin(), v.end(), values);
}

// A side's strides and distance, where they were given.
void add_layout(nlohmann::json& j, const std::string& side, const int64_t* strides, uint32_t rank,
                int64_t distance) {
  std::vector<int64_t> given(strides, strides + rank);
  if (std::any_of(given.begin(), given.end(), [](int64_t s) { return s != 0; }))
    j[side + "_strides"] = given;
  if (distance)
    j[side + "_distance"] = distance;
}

// --kind: a DFT kind, or R2R with one DCT/DST name for every axis or one
// per axis joined by ',' ("dct2,dst1").
void parse_kind(const std::string& text, fftmux_desc& d) {
  for (uint32_t k = 0; k < kind_names.size(); ++k)
    if (text == kind_names[k]) {
      d.kind = k;
      return;
    }
  std::vector<uint32_t> axes;
  for (size_t start = 0; start <= text.size();) {
    size_t end = std::min(text.find(',', start), text.size());
    uint32_t k = FFTMUX_DCT1;
    while (k <= FFTMUX_DST4 && text.substr(start, end - start) != geometry::r2r_name(k))
      ++k;
    if (k > FFTMUX_DST4)
      throw std::runtime_error("--kind " + text +
                               ": expected c2c, r2c, c2r, or dct1..dct4, dst1..dst4 (one for "
                               "every axis, or one per axis joined by ',', e.g. dct2,dst1)");
    axes.push_back(k);
    start = end + 1;
  }
  if (axes.size() != 1 && axes.size() != d.rank)
    throw std::runtime_error("--kind " + text + ": " + std::to_string(axes.size()) + " kinds for " +
                             std::to_string(d.rank) +
                             " axes; give one for every axis or one per axis of --shape");
  d.kind = FFTMUX_R2R; // one kind fills every axis, also those an .npy input adds
  for (uint32_t i = 0; i < FFTMUX_MAX_RANK; ++i)
    d.r2r[i] = axes.size() == 1 ? axes[0] : i < axes.size() ? axes[i] : uint32_t(FFTMUX_R2R_NONE);
}

// The name of value in names, "?" for a value from newer code.
const char* name(const std::vector<const char*>& names, uint32_t value) {
  return value < names.size() ? names[value] : "?";
}

} // namespace

std::vector<int64_t> parse_shape(const std::string& text) {
  return parse_list("--shape", text, 1, "1024x1024");
}

uint32_t choice(const std::string& option, const std::string& value,
                const std::vector<const char*>& names) {
  uint32_t i = 0;
  std::string list;
  for (const char* n : names) {
    if (value == n)
      return i;
    list += (i++ ? ", " : "") + std::string(n);
  }
  throw std::runtime_error(option + " " + value + ": expected one of " + list);
}

void ProblemOptions::add_to(CLI::App& app) {
  app.add_option("--shape", shape, "transform sizes, e.g. 1024 or 512x512 or 64x64x64")
      ->capture_default_str();
  app.add_option("--batch", batch, "number of transforms")->capture_default_str();
  app.add_option("--kind", kind,
                 "c2c, r2c, c2r, or a DCT/DST (dct1..dct4, dst1..dst4), one per axis joined "
                 "by ',' where they differ (dct2,dst1)")
      ->capture_default_str();
  app.add_option("--precision", precision,
                 "f32, f64, or the 16-bit storage f16 or bf16 (GPU backends)")
      ->capture_default_str();
  app.add_option("--norm", norm, "none, backward, ortho or forward")->capture_default_str();
  app.add_option("--shift", shift, "none, input, output or both (numpy ifftshift/fftshift)")
      ->capture_default_str();
  app.add_option("--placement", placement, "host or device")->capture_default_str();
  app.add_flag("--in-place", in_place, "transform in place");
  app.add_option("--in-strides", in_strides,
                 "input strides in elements, one per axis, e.g. 4100x2 (default: contiguous)");
  app.add_option("--in-distance", in_distance,
                 "elements between the input's transforms (default: contiguous)");
  app.add_option("--out-strides", out_strides, "output strides, as --in-strides");
  app.add_option("--out-distance", out_distance, "as --in-distance, for the output");
  app.add_option("--in-extent", in_extent,
                 "points of each axis the input holds, the rest of --shape read as zero, e.g. "
                 "100x100 (default: all)");
  app.add_option("--out-extent", out_extent,
                 "points of each axis of the output wanted, as --in-extent (complex elements on "
                 "the halved axis of r2c)");
  app.add_option("--backend", backend, "auto or a backend name")->capture_default_str();
  app.add_option("--variant", variant, "a variant of the backend");
}

fftmux_desc ProblemOptions::desc() const {
  fftmux_desc d;
  fftmux_desc_init(&d);
  std::vector<int64_t> dims = parse_shape(shape);
  d.rank = uint32_t(dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    d.n[i] = dims[i];
  if (batch < 1)
    throw std::runtime_error("--batch " + std::to_string(batch) + ": must be at least 1");
  d.batch = batch;
  parse_kind(kind, d);
  d.precision = choice("--precision", precision, precision_names);
  d.norm = choice("--norm", norm, norm_names);
  d.placement = choice("--placement", placement, placement_names);
  d.flags = choice("--shift", shift, shift_names);
  if (in_place)
    d.flags |= FFTMUX_IN_PLACE;
  parse_axes("--in-strides", in_strides, d.rank, d.in_strides);
  parse_axes("--out-strides", out_strides, d.rank, d.out_strides);
  parse_axes("--in-extent", in_extent, d.rank, d.in_extent, "extents", "100 or 100x100");
  parse_axes("--out-extent", out_extent, d.rank, d.out_extent, "extents", "100 or 100x100");
  d.in_distance = in_distance;
  d.out_distance = out_distance;
  return d;
}

std::string describe(const fftmux_desc& d) {
  std::string s = geometry::kind_text(d) + " " + name(precision_names, d.precision);
  for (uint32_t i = 0; i < d.rank; ++i)
    s += (i ? "x" : " ") + std::to_string(d.n[i]);
  return s + " batch " + std::to_string(d.batch) + " " + name(placement_names, d.placement);
}

nlohmann::json problem_json(const fftmux_desc& d) {
  uint32_t shifts = d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT);
  nlohmann::json j = {{"rank", d.rank},
                      {"shape", std::vector<int64_t>(d.n, d.n + d.rank)},
                      {"batch", d.batch},
                      {"kind", geometry::kind_text(d)},
                      {"precision", name(precision_names, d.precision)},
                      {"norm", name(norm_names, d.norm)},
                      {"placement", name(placement_names, d.placement)},
                      {"shift", name(shift_names, shifts)},
                      {"in_place", bool(d.flags & FFTMUX_IN_PLACE)}};
  add_layout(j, "in", d.in_strides, d.rank, d.in_distance);
  add_layout(j, "out", d.out_strides, d.rank, d.out_distance);
  for (bool input : {true, false})
    if (geometry::padded(d, input)) {
      std::vector<int64_t> held;
      for (uint32_t i = 0; i < d.rank; ++i)
        held.push_back(geometry::held_extent(d, input, i));
      j[input ? "in_extent" : "out_extent"] = held;
    }
  return j;
}

DeviceChoice parse_devices(const std::string& text) {
  DeviceChoice out;
  if (text.empty())
    return out;
  auto bad = [&](const std::string& why) {
    return std::runtime_error("--devices " + text + ": " + why);
  };
  auto number = [&](const std::string& item) {
    if (item.empty() || item.size() > 9 ||
        item.find_first_not_of("0123456789") != std::string::npos)
      throw bad("'" + item +
                "' is not a device count or index; give a count (2) or a list of "
                "indices (0,1)");
    return uint32_t(std::stoul(item));
  };
  if (text.find(',') == std::string::npos) {
    out.count = number(text);
    if (out.count < 1 || out.count > FFTMUX_MAX_DEVICES)
      throw bad("a count must be from 1 to " + std::to_string(FFTMUX_MAX_DEVICES));
    return out;
  }
  std::string rest = text.back() == ',' ? text.substr(0, text.size() - 1) : text;
  for (size_t at = 0; at <= rest.size();) {
    size_t end = std::min(rest.find(',', at), rest.size());
    out.list.push_back(number(rest.substr(at, end - at)));
    at = end + 1;
  }
  if (out.list.size() > FFTMUX_MAX_DEVICES)
    throw bad("lists " + std::to_string(out.list.size()) + " devices; at most " +
              std::to_string(FFTMUX_MAX_DEVICES));
  return out;
}

} // namespace fftmux::cli
