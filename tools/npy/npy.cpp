#include "npy.hpp"

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fftmux::npy {

namespace {

struct Type {
  Dtype dtype;
  const char* descr;
  const char* name;
  size_t size;
};
const Type types[] = {{Dtype::f32, "<f4", "float32", 4},
                      {Dtype::f64, "<f8", "float64", 8},
                      {Dtype::c64, "<c8", "complex64", 8},
                      {Dtype::c128, "<c16", "complex128", 16}};

const Type& type(Dtype t) {
  for (const Type& x : types)
    if (x.dtype == t)
      return x;
  throw std::logic_error("unknown dtype");
}

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
  throw std::runtime_error(origin + ": not a usable .npy file: " + what);
}

// The text after 'key': in the header dictionary.
std::string value_of(const std::string& header, const std::string& key, const std::string& origin) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    bad(origin, "the header has no '" + key + "'");
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    bad(origin, "the header entry '" + key + "' has no value");
  size_t start = header.find_first_not_of(' ', colon + 1);
  return start == std::string::npos ? "" : header.substr(start);
}

std::vector<int64_t> parse_shape(const std::string& v, const std::string& origin) {
  if (v.empty() || v[0] != '(')
    bad(origin, "shape is not a tuple");
  size_t close = v.find(')');
  if (close == std::string::npos)
    bad(origin, "shape tuple is not closed");
  std::vector<int64_t> shape;
  std::stringstream s(v.substr(1, close - 1));
  std::string item;
  while (std::getline(s, item, ',')) {
    if (item.find_first_not_of(' ') == std::string::npos)
      continue;
    size_t used = 0;
    long long n = -1;
    try {
      n = std::stoll(item, &used);
    } catch (const std::exception&) {
    }
    if (n < 0 ||
        item.find_first_not_of(' ', item.find_first_not_of(' ') + used) != std::string::npos)
      bad(origin, "shape entry '" + item + "' is not a non-negative integer");
    shape.push_back(n);
  }
  return shape;
}

} // namespace

size_t item_size(Dtype t) {
  return type(t).size;
}
const char* dtype_name(Dtype t) {
  return type(t).name;
}

Array parse(const std::string& bytes, const std::string& origin) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    bad(origin, "missing the \\x93NUMPY magic");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t len_bytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3)
    bad(origin, "format version " + std::to_string(major) + " is not 1, 2 or 3");
  if (bytes.size() < 8 + len_bytes)
    bad(origin, "truncated header length");
  size_t header_len = 0;
  for (size_t i = 0; i < len_bytes; ++i)
    header_len |= size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
  size_t data_start = 8 + len_bytes + header_len;
  if (data_start > bytes.size())
    bad(origin, "the header runs past the end of the file");
  std::string header = bytes.substr(8 + len_bytes, header_len);

  std::string descr = value_of(header, "descr", origin);
  Array a;
  bool known = false;
  for (const Type& t : types)
    if (descr.rfind(std::string("'") + t.descr + "'", 0) == 0) {
      a.dtype = t.dtype;
      known = true;
    }
  if (!known)
    bad(origin, "dtype " + descr.substr(0, descr.find(',')) +
                    " is not little-endian float32, float64, complex64 or complex128");
  if (value_of(header, "fortran_order", origin).rfind("False", 0) != 0)
    bad(origin, "Fortran order is not supported; save with np.ascontiguousarray");
  a.shape = parse_shape(value_of(header, "shape", origin), origin);
  uint64_t count = 1;
  for (int64_t n : a.shape)
    if (__builtin_mul_overflow(count, uint64_t(n), &count))
      bad(origin, "the shape's element count overflows");
  uint64_t need;
  if (__builtin_mul_overflow(count, uint64_t(item_size(a.dtype)), &need) ||
      need != bytes.size() - data_start)
    bad(origin, "the data holds " + std::to_string(bytes.size() - data_start) +
                    " bytes, the shape needs " + std::to_string(count * item_size(a.dtype)));
  a.data.assign(bytes.begin() + long(data_start), bytes.end());
  return a;
}

Array read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return parse(s.str(), path);
}

std::string serialize(const Array& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i)
    shape += std::to_string(a.shape[i]) + (a.shape.size() == 1      ? ","
                                           : i + 1 < a.shape.size() ? ", "
                                                                    : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + type(a.dtype).descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  out += header;
  out.append(a.data.begin(), a.data.end());
  return out;
}

void write(const std::string& path, const Array& a) {
  std::ofstream f(path, std::ios::binary);
  std::string bytes = serialize(a);
  if (!f || !f.write(bytes.data(), long(bytes.size())))
    throw std::runtime_error("cannot write " + path);
}

} // namespace fftmux::npy
