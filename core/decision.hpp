// What routing decided for a problem: every candidate's answer, in the
// order of trial. Plans keep it so that explain costs nothing until asked.
#pragma once

#include <fftmux/fftmux.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fftmux {

class Backend;

struct Candidate {
  Backend* backend = nullptr;
  uint32_t variant = 0;
  std::string variant_name;
  bool accepted = false;
  std::string reason;  // why it declined, or the backend's remark
  std::string failure; // why its plan creation failed, when tried and failed
  fftmux_status failure_status = FFTMUX_OK;
  double estimate = -1.0; // the backend's own estimate in seconds
  double seconds = -1.0;  // measured or interpolated from the tuning cache
  std::string basis;      // how seconds was found, or why tuning rejected it
  bool tuned_failed = false;
};

struct Decision {
  std::string how;                   // how the order was chosen, for explain
  std::vector<Candidate> candidates; // accepted ones first, in trial order
};

} // namespace fftmux
