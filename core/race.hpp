// How autotune times the candidates of one problem: variants of the same
// code once; those whose calibrated estimate is far above the best time
// measured skipped, and on host data a backend's variants where its
// kernels' share of the round trip cannot matter; the others raced (successive halving: every
// candidate a few runs, the faster half twice as many, and so on up to the repeats), or each fully
// with exhaustive. Plans of device backends are made on several threads while none is timed; on
// device data, those priced near the cheapest all at once before the first timing.
#pragma once

#include "trial.hpp"

#include <fftmux/fftmux.h>

#include <random>
#include <string>
#include <vector>

namespace fftmux {

struct Entry {
  Trial t;
  fftmux_tune_record record{};
  std::vector<double> runs;
  int same_as = -1;      // the entry of the same code, timed in its place
  bool prepared = false; // planned and verified (record.ok says how it went)
};

void fail_record(fftmux_tune_record& r, const std::string& why);

class Race {
public:
  explicit Race(const fftmux_tune_options& o);
  // Times the entries (accepted candidates of one problem, in routing's
  // order) and fills their records.
  void run(std::vector<Entry>& entries);
  // Plans the likely candidates of device backends of a device problem (the tuner's next).
  void plan_likely(std::vector<Entry>& entries) const;

private:
  std::vector<Entry*> prepare(std::vector<Entry*> distinct);
  std::vector<Entry*> leaders(std::vector<Entry*>& distinct);
  std::vector<Entry*> likely(const std::vector<Entry*>& distinct) const;
  bool bounded(Entry& first, Entry& variant, double best);
  void rounds(std::vector<Entry*> live);
  void time(std::vector<Entry*>& live, size_t runs);
  void finish(std::vector<Entry>& entries);

  fftmux_tune_options o_;
  double skip_factor_;
  std::mt19937_64 rng_;
};

} // namespace fftmux
