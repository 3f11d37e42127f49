// Launching a planned kernel: its workgroups split over the API's grid
// limits, and waiting for the work to finish.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace fftmux::codegen {

// One dispatch of a kernel: an x * y grid of workgroups whose linear index
// starts at offset (the kernel's group_offset). Kernels ignore the excess
// workgroups of the last dispatch.
struct Dispatch {
  uint32_t x, y, offset;
};
std::vector<Dispatch> dispatches(uint64_t groups, uint32_t max_x, uint32_t max_y);

// Waits for a fence: on a GPU (cpu = false) polls done() for up to 5 ms,
// then calls block() (the driver's sleeping wait) if it has still not
// signalled, since sleeping waits wake up late. A CPU driver (lavapipe,
// llvmpipe) blocks at once: polling would take a core from the threads
// that do the work. (docs/codegen-rules.md: wait_fence)
template <class Done, class Block> void wait_fence(bool cpu, Done&& done, Block&& block) {
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
  while (!cpu && std::chrono::steady_clock::now() < end)
    if (done())
      return;
  block();
}

} // namespace fftmux::codegen
