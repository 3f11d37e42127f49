// Distributed plans (fftmux.h, "Distributed transforms"): collective
// validation, deterministic routing among the backends that have them, and
// collective execution.
#pragma once

#include "context.hpp"

#include <functional>

namespace fftmux {

// Runs a distributed plan once every rank has passed check, which throws on
// a wrong argument of this rank and returns the output pointer: a failure
// on any rank is every rank's.
void execute_distributed(fftmux_plan_s& plan, int direction, const void* in,
                         const std::function<void*()>& check);

} // namespace fftmux
