// Helpers the C entry points share.
#pragma once

#include "error.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace fftmux {

template <class T> void require(const T* p, const char* what) {
  if (!p)
    invalid(std::string(what) + " is NULL");
}

// Text out through a caller's buffer, truncated to size, with the full length.
inline void copy_out(const std::string& s, char* text, size_t size, size_t* needed) {
  if (needed)
    *needed = s.size() + 1;
  if (!text || !size)
    return;
  size_t n = std::min(size - 1, s.size());
  std::memcpy(text, s.data(), n);
  text[n] = '\0';
}

} // namespace fftmux
