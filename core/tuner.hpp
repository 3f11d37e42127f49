// autotune: measures problems on every capable backend variant, the way
// gearshifft does (plan, upload, execute, download timed apart; round trip
// checked; warm-up; median of repeats; candidates interleaved in random
// order), and merges the results into the tuning cache.
#pragma once

#include "context.hpp"

#include <vector>

namespace fftmux {

void autotune(fftmux_context ctx, const std::vector<Problem>& problems,
              const fftmux_tune_options& options);

// The problem sets of fftmux_autotune_problems.
std::vector<fftmux_desc> tune_problems(uint32_t set);

} // namespace fftmux
