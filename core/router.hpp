// Which backend runs a plan: the candidates every backend accepts, ranked,
// then tried in order until one creates the plan.
#pragma once

#include "context.hpp"
#include "decision.hpp"

#include <string>
#include <vector>

namespace fftmux {

// Asks every backend (or the one forced by option or FFTMUX_BACKEND; or
// those named in only) about the problem and orders the accepted answers:
// measured or interpolated times from the tuning cache first, fastest
// first; then the rest by their device models' prices (calibrating a
// backend on first need where several compete), else the backends' own
// estimates or the configured preference; candidates that failed when
// tuned last. Throws NOT_FOUND for an unknown forced backend.
Decision route(fftmux_context context, const Problem& problem, const char* backend,
               const char* variant, const std::vector<std::string>& only = {});

// Every variant of one backend, answered.
std::vector<Candidate> ask(Backend& backend, const Problem& problem);

// The explain text of a decision after its trials.
std::string explain(const Problem& problem, const Decision& decision, const Candidate* chosen);

} // namespace fftmux
