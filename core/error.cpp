#include "error.hpp"

#include <cstring>

namespace fftmux {

namespace {
// A plain array: no destructor runs at thread exit, and the pointer handed out
// stays valid until the next call on the thread.
thread_local char message[2048];
} // namespace

void set_last_error(const std::string& text) {
  size_t n = std::min(text.size(), sizeof message - 1);
  std::memcpy(message, text.data(), n);
  message[n] = '\0';
}

void clear_last_error() {
  message[0] = '\0';
}

const char* last_error() {
  return message;
}

} // namespace fftmux
