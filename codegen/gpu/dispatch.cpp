// A kernel's workgroups over the API's grid limits.
#include <fftmux/gpu/dispatch.hpp>

#include <algorithm>

namespace fftmux::codegen {

std::vector<Dispatch> dispatches(uint64_t groups, uint32_t max_x, uint32_t max_y) {
  std::vector<Dispatch> out;
  uint64_t x = std::min<uint64_t>(groups, max_x);
  for (uint64_t done = 0; done < groups;) {
    uint64_t y = std::min<uint64_t>((groups - done + x - 1) / x, max_y);
    out.push_back({uint32_t(x), uint32_t(y), uint32_t(done)});
    done += x * y;
  }
  return out;
}

} // namespace fftmux::codegen
