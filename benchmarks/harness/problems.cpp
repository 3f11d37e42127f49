#include "problems.hpp"

#include <fftmux/desc_geometry.hpp>

#include <algorithm>
#include <stdexcept>

namespace bench {

namespace {

using Shapes = std::vector<std::vector<int64_t>>;

constexpr int64_t pow2(int e) {
  return int64_t(1) << e;
}

Shapes lines(std::initializer_list<int64_t> ns) {
  Shapes s;
  for (int64_t n : ns)
    s.push_back({n});
  return s;
}

Shapes pow2_lines(int lo, int hi, int step = 1) {
  Shapes s;
  for (int e = lo; e <= hi; e += step)
    s.push_back({pow2(e)});
  return s;
}

Shapes squares(std::initializer_list<int64_t> ns) {
  Shapes s;
  for (int64_t n : ns)
    s.push_back({n, n});
  return s;
}

Shapes cubes(std::initializer_list<int64_t> ns) {
  Shapes s;
  for (int64_t n : ns)
    s.push_back({n, n, n});
  return s;
}

Shapes operator+(Shapes a, const Shapes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// One kind over every precision x placement x shape listed.
struct Group {
  fftmux_kind kind;
  std::vector<fftmux_precision> precisions;
  std::vector<fftmux_placement> placements;
  Shapes shapes;
  bool fill = true;
  uint32_t r2r = FFTMUX_R2R_NONE; // R2R's kind on every axis
};

struct SetDef {
  SetInfo info;
  std::vector<Group> groups;
};

const std::vector<SetDef>& defs() {
  // Non-powers of two: 2^3*5^3, 2^9*3, 3^7, 7^4, 5^5, a prime, 17*241, 2^4*3*5^3, a prime.
  static const Shapes odd = lines({1000, 1536, 2187, 2401, 3125, 4093, 4097, 6000, 10007});
  static const Shapes dct_shapes = lines({256, 1000, 1024, 4096, 65536}) + squares({512, 2048});
  const std::vector<fftmux_precision> both = {FFTMUX_F32, FFTMUX_F64};
  const std::vector<fftmux_precision> f32 = {FFTMUX_F32};
  const std::vector<fftmux_placement> device = {FFTMUX_DEVICE}, host = {FFTMUX_HOST};
  constexpr int64_t cpu = pow2(22), gpu = pow2(27);
  static const std::vector<SetDef> d = {
      {{"1d", "batched 1D C2C, N = 2^3..2^24 and non-powers of two", cpu, gpu},
       {{FFTMUX_C2C, both, device, pow2_lines(3, 24) + odd}}},
      {{"r2c", "R2C: 1D even and odd N, 2D and 3D, batched; 2D single", cpu, gpu},
       {{FFTMUX_R2C, both, device,
         pow2_lines(4, 24, 2) + lines({1000, 4093, 10007}) + squares({256, 1024, 4096, 8192}) +
             cubes({64, 128, 256, 512})},
        {FFTMUX_R2C, f32, device, squares({256, 1024, 4096, 8192}), false}}},
      {{"shapes", "2D and 3D C2C, batched; 2D single", cpu, gpu},
       {{FFTMUX_C2C, both, device,
         squares({64, 256, 1000, 1024, 4096, 8192}) + cubes({16, 64, 128, 256, 512})},
        {FFTMUX_C2C, f32, device, squares({2048, 4096, 8192}), false}}},
      // F16 beside F32 on the same problems: half the bytes; cuFFT runs half on powers of two.
      {{"half", "batched 1D and 2D C2C and R2C in F16 beside F32, device data", cpu, gpu},
       {{FFTMUX_C2C,
         {FFTMUX_F16, FFTMUX_F32},
         device,
         pow2_lines(6, 24, 2) + lines({1000, 4093, 10007}) + squares({256, 1024, 4096})},
        {FFTMUX_R2C,
         {FFTMUX_F16, FFTMUX_F32},
         device,
         pow2_lines(8, 22, 2) + lines({1000}) + squares({1024})}}},
      // DCT-II, its inverse DCT-III and DCT-IV beside C2C of the same shapes: the DCT's goal is
      // C2C's time or less.
      {{"dct", "batched 1D and 2D DCT-II, DCT-III and DCT-IV beside C2C of the same shapes", cpu,
        gpu},
       {{FFTMUX_R2R, both, device, dct_shapes, true, FFTMUX_DCT2},
        {FFTMUX_R2R, both, device, dct_shapes, true, FFTMUX_DCT3},
        {FFTMUX_R2R, both, device, dct_shapes, true, FFTMUX_DCT4},
        {FFTMUX_C2C, both, device, dct_shapes}}},
      {{"host", "batched 1D C2C from host memory to host memory (transfers included)", cpu, gpu},
       {{FFTMUX_C2C, f32, host, pow2_lines(8, 20, 4)}}},
      {{"thesis", "single 2D C2C 128^2..1024^2", cpu, gpu},
       {{FFTMUX_C2C, f32, {FFTMUX_DEVICE, FFTMUX_HOST}, squares({128, 256, 512, 1024}), false}}},
      // 2^15 elements per call on a CPU: in L2, and one FFTW thread (its rule starts
      // threads at 2^16), so a busy small machine still times it steadily.
      {{"quick", "a short mix for a small machine: 1D, F64, R2C, 2D, 3D, device buffers, thesis",
        pow2(15), pow2(24)},
       {{FFTMUX_C2C, f32, host, pow2_lines(3, 15, 3) + lines({1000, 4093, 10007})},
        {FFTMUX_C2C, {FFTMUX_F64}, host, lines({256, 4096})},
        {FFTMUX_R2C, f32, host, lines({256, 4096})},
        {FFTMUX_C2C, f32, device, lines({1024})},
        {FFTMUX_C2C, f32, host, squares({64}) + cubes({16})},
        {FFTMUX_C2C, f32, host, squares({128, 256, 512, 1024}), false}}},
      {{"tiny", "a few small problems for the test suite", pow2(12), pow2(12)},
       {{FFTMUX_C2C, f32, host, lines({16, 1000})},
        {FFTMUX_C2C, f32, device, lines({64})},
        {FFTMUX_R2C, {FFTMUX_F64}, host, lines({64})},
        {FFTMUX_C2C, {FFTMUX_F64}, host, {{8, 12}}},
        {FFTMUX_C2C, f32, device, cubes({4}), false}}},
  };
  return d;
}

const std::vector<std::string> all_sets = {"1d", "r2c", "shapes", "half", "host", "thesis"};

const SetDef& def(const std::string& name) {
  for (const SetDef& s : defs())
    if (s.info.name == name)
      return s;
  std::string names = "all";
  for (const SetDef& s : defs())
    names += ", " + s.info.name;
  throw std::runtime_error("unknown problem set '" + name + "' (sets: " + names + ")");
}

} // namespace

std::vector<SetInfo> sets() {
  std::vector<SetInfo> out;
  for (const SetDef& s : defs())
    out.push_back(s.info);
  return out;
}

std::vector<Problem> problems(const std::vector<std::string>& names) {
  std::vector<std::string> expanded;
  for (const std::string& n : names)
    if (n == "all")
      expanded.insert(expanded.end(), all_sets.begin(), all_sets.end());
    else
      expanded.push_back(n);
  std::vector<Problem> out;
  for (const std::string& name : expanded)
    for (const Group& g : def(name).groups)
      for (fftmux_precision p : g.precisions)
        for (fftmux_placement where : g.placements)
          for (const auto& shape : g.shapes)
            out.push_back({name, {g.kind, p, where, shape, g.fill, g.r2r}});
  return out;
}

int64_t elements_of(const std::string& set, Device device) {
  const SetInfo& i = def(set).info;
  return device == Device::gpu ? i.gpu_elements : i.cpu_elements;
}

Instance instantiate(const Spec& spec, int64_t elements) {
  Instance r;
  fftmux_desc& d = r.desc;
  fftmux_desc_init(&d);
  d.rank = uint32_t(spec.shape.size());
  std::copy(spec.shape.begin(), spec.shape.end(), d.n);
  d.kind = spec.kind;
  for (uint32_t i = 0; spec.kind == FFTMUX_R2R && i < d.rank; ++i)
    d.r2r[i] = spec.r2r;
  d.precision = spec.precision;
  d.placement = spec.placement;
  d.norm = FFTMUX_NORM_NONE;
  int64_t n = points(d);
  d.batch = spec.fill ? std::max<int64_t>(1, elements / n) : 1;
  if (spec.fill && n > elements)
    r.too_big = "one transform of " + std::to_string(n) + " points exceeds the " +
                std::to_string(elements) + " elements per call of this class";
  return r;
}

std::string kind_name(const fftmux_desc& d) {
  return fftmux::geometry::kind_text(d);
}
const char* precision_name(uint32_t p) {
  static const char* const names[] = {"f32", "f64", "f16", "bf16"}; // by fftmux_precision
  return p < 4 ? names[p] : "?";
}
const char* placement_name(uint32_t p) {
  return p == FFTMUX_DEVICE ? "device" : "host";
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s;
  for (int64_t n : shape)
    s += (s.empty() ? "" : "x") + std::to_string(n);
  return s;
}

std::string shape_text(const fftmux_desc& d) {
  return shape_text(std::vector<int64_t>(d.n, d.n + d.rank));
}

std::string describe(const fftmux_desc& d) {
  return kind_name(d) + " " + precision_name(d.precision) + " " + shape_text(d) + " b" +
         std::to_string(d.batch) + " " + placement_name(d.placement);
}

} // namespace bench
