// The machine and software a run measured, for the reports' headers.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace bench {

using Meta = std::vector<std::pair<std::string, std::string>>;

// host, cpu, cores, memory, os, kernel, compiler, fftmux and FFTW versions.
Meta machine();

// Now, in UTC, as 2026-11-29T18:00:00Z.
std::string utc_now();

} // namespace bench
