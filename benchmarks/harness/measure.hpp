// Measuring one problem on every engine of a class: plans cold and warm,
// verification, then the phases timed with engines interleaved in random
// order, warm-up first, median and spread of repeats.
#pragma once

#include "engine.hpp"
#include "problems.hpp"
#include "report.hpp"

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace bench {

struct Settings {
  int repeats = 21;    // timed samples per phase at most
  int min_repeats = 3; // and at least
  int warmup = 2;      // untimed rounds first
  // and on GPUs for at least this many seconds: a GPU idle since the last
  // problem (its data made and checked on the CPU) runs at a low clock for a
  // while (H200: 345 MHz idle, 1980 MHz under load).
  double gpu_warmup = 0.3;
  // Seconds a sample lasts at least (runs per sample grow to it): many short
  // samples keep the median clear of preemptions on a busy machine.
  double min_sample = 2e-4;
  double phase_budget = 0.25;       // seconds of samples per phase after which min_repeats suffice
  int64_t check_elements = 1 << 18; // elements of rows checked against the reference
  uint64_t seed = 1;
  // Upload and download depend on the bytes alone: timed on the first
  // problem of each size per engine unless every problem asks for them.
  bool transfers_every_problem = false;
  // Memory the engines of one problem may hold at once, per class; more
  // engines than fit are timed in successive groups.
  double gpu_memory_gib = 64;
  double cpu_memory_gib = 8;
};

// What a campaign of problems carries from one to the next.
struct Campaign {
  std::mt19937_64 rng;
  std::set<std::tuple<std::string, size_t, size_t>> transfers_timed; // engine, in, out bytes
};

// Measures problem p on the given engines (all of one class, with `elements`
// per call) and adds their rows to report. Returns a one-line summary.
std::string measure(const Problem& p, Device device, int64_t elements,
                    const std::vector<Engine*>& engines, const Settings& s, Campaign& campaign,
                    Report& report);

} // namespace bench
