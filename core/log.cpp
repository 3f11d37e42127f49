#include "log.hpp"

#include "paths.hpp"

#include <cstdio>

namespace fftmux {

namespace {
int threshold() {
  static const int level = [] {
    const std::string v = env("FFTMUX_LOG");
    const char* names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; ++i)
      if (v == names[i])
        return i;
    return -1;
  }();
  return level;
}
} // namespace

void log(Level level, const std::string& message) {
  static const char* tags[] = {"error", "warning", "info", "debug"};
  if (int(level) <= threshold())
    std::fprintf(stderr, "fftmux %s: %s\n", tags[int(level)], message.c_str());
}

} // namespace fftmux
