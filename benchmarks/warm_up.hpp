// The benchmarks' warm-up: an idle GPU runs at a low clock for a while
// (H200: 345 MHz while the CPU checks the last problem, 1980 MHz only after
// about a second of load), and the generated kernels' time follows the
// clock (Vulkan, 4096 points: 2.86 ms a call cold, 0.70 ms warm), so every
// timing starts after untimed runs.
#pragma once

#include <chrono>
#include <functional>

namespace fftmux::bench {

// Runs run() untimed, 16 at a time, then wait(), until `seconds` have
// passed (one round at the least).
inline void warm_up(double seconds, const std::function<void()>& run,
                    const std::function<void()>& wait) {
  auto t0 = std::chrono::steady_clock::now();
  do {
    for (int i = 0; i < 16; ++i)
      run();
    wait();
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds);
}

} // namespace fftmux::bench
