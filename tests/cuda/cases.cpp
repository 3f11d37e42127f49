#include "cases.hpp"

#include <sstream>
#include <stdexcept>

namespace fftmux::cuda_test {

namespace {

std::vector<int64_t> numbers(const std::string& text, char sep) {
  std::vector<int64_t> v;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, sep))
    v.push_back(std::stoll(item));
  return v;
}

void fill(int64_t* dst, const std::vector<int64_t>& v) {
  for (size_t i = 0; i < v.size() && i < FFTMUX_MAX_RANK; ++i)
    dst[i] = v[i];
}

} // namespace

fftmux_desc parse_case(const std::string& text) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  std::stringstream s(text);
  std::string kind, precision, shape, word;
  s >> kind >> precision >> shape;
  d.kind = kind == "r2c" ? FFTMUX_R2C : kind == "c2r" ? FFTMUX_C2R : FFTMUX_C2C;
  d.precision = precision == "f64" ? FFTMUX_F64 : FFTMUX_F32;
  auto n = numbers(shape, 'x');
  d.rank = uint32_t(n.size());
  fill(d.n, n);
  d.placement = FFTMUX_DEVICE;
  while (s >> word) {
    auto eq = word.find('=');
    std::string key = word.substr(0, eq),
                value = eq == std::string::npos ? "" : word.substr(eq + 1);
    if (key[0] == 'b' && key != "both")
      d.batch = std::stoll(key.substr(1));
    else if (key == "in-place")
      d.flags |= FFTMUX_IN_PLACE;
    else if (key == "host")
      d.placement = FFTMUX_HOST;
    else if (key == "norm")
      d.norm = value == "none"      ? FFTMUX_NORM_NONE
               : value == "ortho"   ? FFTMUX_NORM_ORTHO
               : value == "forward" ? FFTMUX_NORM_FORWARD
                                    : FFTMUX_NORM_BACKWARD;
    else if (key == "shift")
      d.flags |= value == "in"    ? FFTMUX_SHIFT_INPUT
                 : value == "out" ? FFTMUX_SHIFT_OUTPUT
                                  : FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
    else if (key == "istride")
      fill(d.in_strides, numbers(value, ','));
    else if (key == "ostride")
      fill(d.out_strides, numbers(value, ','));
    else if (key == "idist")
      d.in_distance = std::stoll(value);
    else if (key == "odist")
      d.out_distance = std::stoll(value);
    else
      throw std::invalid_argument("unknown case word '" + word + "' in: " + text);
  }
  return d;
}

std::vector<std::string> correctness_cases() {
  std::vector<std::string> cases;
  // Sizes: powers of two (16384: streamed; 32768, and R2C and C2R of
  // 65536: a cluster of four in native on sm_90), smooth (2401: radix 49
  // in native), primes (Bluestein in cuFFT), near-primes.
  const char* sizes_1d[] = {"1",    "8",    "17",   "97",   "128",   "1000",  "1009",  "1536",
                            "2187", "2401", "4093", "4097", "10007", "16384", "32768", "65536"};
  const char* norms[] = {"norm=backward", "norm=ortho", "norm=forward", "norm=none"};
  const char* shifts[] = {"", "shift=in", "shift=out", "shift=both"};
  int turn = 0;
  for (const char* kind : {"c2c", "r2c", "c2r"})
    for (const char* precision : {"f32", "f64"})
      for (const char* n : sizes_1d) {
        if (std::string(kind) != "c2c" && std::string(n) == "1")
          continue;
        std::string base = std::string(kind) + " " + precision + " " + n + " b3 ";
        cases.push_back(base + norms[turn % 4] + " " + shifts[turn % 4]);
        cases.push_back(base + "in-place " + norms[(turn + 1) % 4] + " " + shifts[(turn + 2) % 4]);
        ++turn;
      }
  // Multi-dimensional, even and odd extents, every shift.
  const char* shapes[] = {"64x48", "33x17", "256x256", "16x12x10", "9x7x5", "64x64x64", "5x1x9"};
  for (const char* kind : {"c2c", "r2c", "c2r"})
    for (const char* shape : shapes)
      for (const char* shift : shifts) {
        std::string p = (turn++ % 3 == 0) ? "f64" : "f32";
        cases.push_back(std::string(kind) + " " + p + " " + shape + " b2 " + shift);
        cases.push_back(std::string(kind) + " " + p + " " + shape + " b2 in-place " + shift);
      }
  // Layouts cuFFT addresses directly, and ones it cannot (staged).
  const char* layouts[] = {
      "c2c f32 64 b4 istride=4 idist=1 ostride=4 odist=1",              // interleaved batches
      "c2c f32 64 b4 istride=2 idist=200 shift=both",                   // gaps
      "c2c f64 32x24 b2 istride=1,32 ostride=24,1",                     // transposed input: staged
      "c2c f32 30x20 b3 istride=25,1 idist=800 ostride=20,1 shift=out", // padded rows
      "r2c f32 40x30 b2 istride=32,1 idist=1300 shift=both",
      "c2r f64 24x18 b2 ostride=1,24 norm=ortho shift=in",
      "r2c f64 17x15 b2 ostride=1,17 shift=out",
      "c2c f32 8x6x4 b2 istride=1,8,48 ostride=1,8,48 in-place", // in place, Fortran order
      "c2c f32 1000 b5 host norm=ortho shift=both",
      "r2c f32 8x1 b3 shift=both",
      "c2r f64 6x1 b3 shift=in",
      "c2r f32 7x1 b2 in-place norm=ortho",
      "c2r f32 65536 b2 ostride=2 odist=131072", // a contiguous half line of 32768, real output
      "c2c f64 1x1 b5 in-place norm=forward",
      "r2c f32 1 b4 in-place",
      "r2c f32 4096 b2 host",
      "c2r f32 4096 b2 host in-place",
  };
  cases.insert(cases.end(), std::begin(layouts), std::end(layouts));
  return cases;
}

} // namespace fftmux::cuda_test
