// What every harness shares: its input as text or as numbers, and the check
// that turns a broken property into a crash the fuzzer reports (and the
// replay program fails on).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace fuzz {

inline std::string text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Takes numbers off the front of the input; zeros once it runs out.
class Reader {
public:
  Reader(const uint8_t* data, size_t size) : p_(data), n_(size) {}

  template <class T> T take() {
    T v{};
    size_t k = std::min(sizeof v, n_);
    std::memcpy(&v, p_, k);
    p_ += k;
    n_ -= k;
    return v;
  }

private:
  const uint8_t* p_;
  size_t n_;
};

[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "fuzz: property broken: %s\n", what.c_str());
  std::abort();
}

inline void expect(bool ok, const char* what) {
  if (!ok)
    broken(what);
}

} // namespace fuzz
