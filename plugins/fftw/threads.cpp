#include "threads.hpp"

#include <sched.h>

#include <cerrno>
#include <cstdlib>
#include <numeric>
#include <thread>

namespace fftmux::fftw {
namespace {

// A positive count of at most max_threads, or 0 with why in *why.
int parse_count(const std::string& text, std::string* why) {
  char* end = nullptr;
  errno = 0;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || n < 1 || n > max_threads) {
    *why = "not a whole number from 1 to " + std::to_string(max_threads);
    return 0;
  }
  return int(n);
}

} // namespace

Threads resolve_threads(const char* config, const char* fftmux_env, const char* omp_env,
                        int affinity_cpus) {
  Threads t;
  const std::pair<const char*, const char*> sources[] = {{"[backends.fftw] threads", config},
                                                         {"FFTMUX_NUM_THREADS", fftmux_env},
                                                         {"OMP_NUM_THREADS", omp_env}};
  for (const auto& [name, value] : sources) {
    if (!value || !*value)
      continue;
    std::string text = value;
    if (name == sources[2].first)
      text = text.substr(0, text.find(',')); // "4,2": nested levels, the outer one is ours
    std::string why;
    if (int n = parse_count(text, &why)) {
      t.count = n;
      t.source = name;
      return t;
    }
    t.notes +=
        std::string(t.notes.empty() ? "" : "; ") + name + " = \"" + value + "\" ignored: " + why;
  }
  t.count = affinity_cpus > 0 ? affinity_cpus : 1;
  t.source = "the CPU affinity";
  return t;
}

Pieces cut_batch(int64_t batch, int threads, int64_t in_step, int64_t out_step) {
  auto aligned_every = [](int64_t step) { return 16 / std::gcd(step, int64_t(16)); };
  int64_t unit = std::lcm(aligned_every(in_step), aligned_every(out_step));
  Pieces p;
  if (threads < 2 || batch < 2)
    return p;
  int64_t per_thread = (batch + threads - 1) / threads;
  p.size = (per_thread + unit - 1) / unit * unit;
  p.count = (batch + p.size - 1) / p.size;
  p.threads = std::max(1, threads / int(p.count));
  if (p.count < 2)
    p = Pieces{};
  return p;
}

int affinity_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace fftmux::fftw
