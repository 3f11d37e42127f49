// Helpers the C entry points share.
#pragma once

#include "error.hpp"

#include <fftmux/fftmux.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace fftmux {

template <class T> void require(const T* p, const char* what) {
  if (!p)
    invalid(std::string(what) + " is NULL");
}

// The start of every _init: zeroes a caller's struct and sets its
// struct_size; false when it is NULL (the call then does nothing).
template <class T> bool clear_sized(T* p) {
  if (!p)
    return false;
  std::memset(p, 0, sizeof *p);
  p->struct_size = sizeof *p;
  return true;
}

// A caller's size-prefixed struct over the defaults init sets: struct_size
// must cover the first release's v1_size bytes, and the fields past it keep
// their defaults. in may be NULL (the defaults); name and hint word the error.
template <class T>
T read_sized(const T* in, const std::string& name, size_t v1_size, void (*init)(T*),
             const std::string& hint) {
  T out;
  init(&out);
  if (!in)
    return out;
  if (in->struct_size < v1_size)
    invalid(name + "->struct_size = " + std::to_string(in->struct_size) + ": must be at least " +
            std::to_string(v1_size) + "; " + hint);
  std::memcpy(&out, in, std::min<size_t>(in->struct_size, sizeof out));
  return out;
}

// Text out through a caller's buffer, truncated to size, with the full length.
// fftmux_plan_create's work, throwing Error; product: a spectrum fused into the forward plan
// (Problem::product), or null.
fftmux_plan create_plan(fftmux_context ctx, const fftmux_desc* desc,
                        const fftmux_plan_options* options,
                        std::shared_ptr<const std::vector<double>> product);

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
