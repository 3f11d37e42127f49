// The FFTW backend's default thread count and where it came from.
#pragma once

#include <fftmux/fftmux.h>

#include <cstdint>
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

// A batch cut into pieces of whole transforms that threads run side by
// side: FFTW_ESTIMATE's threaded plans of batched problems can run far
// slower than one thread (docs/fftw.md). Each piece starts on FFTW's SIMD
// alignment (16 bytes) when the batch does. Where there are fewer pieces
// than threads, each piece's plan has its share of them: on an H100
// machine's 16 threads, C2C 2^20 points x4 took 33 ms as four one-thread
// pieces, where a threaded plan of the whole batch had taken 5.6 ms.
struct Pieces {
  int64_t size = 0;  // transforms a piece; the last holds the rest
  int64_t count = 1; // 1: the batch runs whole
  int threads = 1;   // FFTW threads of each piece's plan
  int64_t last(int64_t batch) const { return batch - (count - 1) * size; }
};

// At most `threads` pieces of a batch whose transforms lie in_step and
// out_step bytes apart.
Pieces cut_batch(int64_t batch, int threads, int64_t in_step, int64_t out_step);

// The CPUs this process may run on (sched_getaffinity), at least 1.
int affinity_cpus();

} // namespace fftmux::fftw
