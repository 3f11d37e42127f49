// The FFTW backend's default thread count and where it came from.
#pragma once

#include <fftmux/fftmux.h>

#include <string>

namespace fftmux::fftw {

constexpr int max_threads = int(FFTMUX_MAX_THREADS); // more is a typo, not a machine

struct Threads {
  int count = 1;
  std::string source; // "[backends.fftw] threads", "FFTMUX_NUM_THREADS", ...
  std::string notes;  // environment values that were ignored, and why
};

// The first valid of: the config's threads (validated by the caller),
// FFTMUX_NUM_THREADS, OMP_NUM_THREADS (its first level), the CPUs of the
// process's affinity. Null or empty values are unset; invalid ones are
// noted and skipped.
Threads resolve_threads(const char* config, const char* fftmux_env, const char* omp_env,
                        int affinity_cpus);

// The CPUs this process may run on (sched_getaffinity), at least 1.
int affinity_cpus();

} // namespace fftmux::fftw
