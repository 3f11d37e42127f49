// FFTW called directly and memcpy: the CPU's peer and its bandwidth limit.
#pragma once

#include "engine.hpp"

#include <cstdint>
#include <string>

namespace bench {

struct FftwOptions {
  unsigned planner;         // FFTW_ESTIMATE, FFTW_MEASURE, ...: as fftmux's FFTW backend plans
  int threads;              // as fftmux's FFTW backend: all cores by default ...
  int64_t thread_threshold; // ... and one thread below this many points x batch
};

void add_cpu_engines(const FftwOptions& options, Engines& out);

// FFTW keeps its wisdom per process, shared by the direct engine and
// fftmux's FFTW backend: forgetting it before a cold plan makes both plan
// from nothing.
void forget_fftw_wisdom();

// The CPU's model name.
std::string cpu_description();

} // namespace bench
