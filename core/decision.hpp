// What routing decided for a problem: every candidate's answer, in the
// order of trial. Plans keep it so that explain costs nothing until asked.
#pragma once

#include <fftmux/fftmux.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fftmux {

class Backend;

// The work of one execution a backend reports for a plan it would make
// (fftmux_answer_v1); claimed is its own estimate in seconds, < 0 for none.
struct Work {
  double launches = 0, device_bytes = 0, host_bytes = 0, flops = 0;
  double claimed = -1;
  bool reported() const { return launches > 0 || device_bytes > 0 || host_bytes > 0 || flops > 0; }
};

struct Candidate {
  Backend* backend = nullptr;
  uint32_t variant = 0;
  std::string variant_name;
  bool accepted = false;
  std::string reason;  // why it declined, or the backend's remark
  std::string failure; // why its plan creation failed, when tried and failed
  fftmux_status failure_status = FFTMUX_OK;
  Work work;
  std::string fingerprint;    // equal for variants that run the same code; "" unknown
  int same_as = -1;           // index (in the decision) of the first candidate of the same code
  double estimate = -1.0;     // seconds: the calibrated model's price, else the backend's own
  std::string estimate_basis; // "calibrated", or why the backend's own estimate is used
  double seconds = -1.0;      // measured or interpolated from the tuning cache
  std::string basis;          // how seconds was found, or why tuning rejected it
  bool tuned_failed = false;
};

struct Decision {
  std::string how;                   // how the order was chosen, for explain
  std::vector<Candidate> candidates; // accepted ones first, in trial order
  std::vector<std::string> models;   // the device models that priced them, for explain
};

} // namespace fftmux
