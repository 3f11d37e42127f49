// The data of one problem on one class of engines: host arrays, the input,
// the reference for sampled rows, and the checks every engine's output
// passes before any of its times is reported.
#pragma once

#include "engine.hpp"

#include <reference.hpp>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace bench {

namespace ref = fftmux::ref;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
// 64-byte aligned, as FFTW plans on its own arrays and runs on these.
using Aligned = std::unique_ptr<unsigned char, FreeDeleter>;
Aligned aligned_bytes(size_t bytes);

// The forward result of some rows (batch entries), from the reference oracle.
struct Reference {
  std::vector<int64_t> rows; // sorted; all of them when the batch is small
  ref::Values expected;
};

struct Data {
  fftmux_desc desc;
  Aligned in, mid, back;
  Host host;
  Reference reference;
  // A verified forward result, kept to restore a C2R input between timed
  // runs that overwrite it.
  Aligned spectrum;
};

// Random input in [-1, 1) (deterministic in seed), filled in parallel;
// the reference for up to check_elements elements of rows, first and last
// row always among them.
std::unique_ptr<Data> make_data(const fftmux_desc& desc, uint64_t seed, int64_t check_elements);

// Fills host mid and back with NaN (every byte 0xFF is a NaN in f32 and f64).
void poison_host(Data& data);

struct Verdict {
  bool ok = false;
  std::string reason;           // why not ok
  double forward_error = -1;    // relative L2 error of the checked rows
  double round_trip_error = -1; // worst row of inverse(forward(x)) against N x
  double bound = -1;            // of the forward error; the round trip gets twice it
  int64_t rows_checked = 0;
  int64_t rows_total = 0;
};

// Judges the forward result an engine left in host mid: every element
// written and finite, the checked rows within the error bound of the
// reference. A copy must reproduce the input bit for bit instead. Checked
// before the inverse runs: FFTW and cuFFT overwrite a C2R input.
Verdict verify_forward(const Data& data, Family family);

// Judges host back after the inverse: every element written and finite, the
// round trip of every row within twice the bound. Adds to v.
void verify_inverse(const Data& data, Family family, Verdict& v);

} // namespace bench
