// NumPy .npy files (format 1.0-3.0), little-endian float32, float64,
// complex64 and complex128 arrays in C order: what `fftmux run` reads and
// writes. Malformed files raise std::runtime_error naming the file and flaw.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fftmux::npy {

enum class Dtype { f32, f64, c64, c128 };

struct Array {
  Dtype dtype = Dtype::c64;
  std::vector<int64_t> shape;
  std::vector<unsigned char> data; // packed, C order
};

size_t item_size(Dtype t);
const char* dtype_name(Dtype t); // numpy's name: "float32", "complex64", ...

// Parses the bytes of a .npy file; origin names it in error messages.
Array parse(const std::string& bytes, const std::string& origin);
Array read(const std::string& path);

std::string serialize(const Array& a);
void write(const std::string& path, const Array& a);

} // namespace fftmux::npy
