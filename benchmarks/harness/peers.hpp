// Peers in modules of their own (cuFFT, VkFFT), loaded at run time so that
// the harness starts on machines without CUDA and says why it skipped them.
#pragma once

#include "engine.hpp"

#include <string>

namespace bench {

// The folder the build puts the modules in, relative to the harness binary.
std::string default_peer_dir();

// Loads every known module from dir; a module that is missing or does not
// load gives Skipped engines carrying the reason.
void add_peer_modules(const std::string& dir, Engines& out);

} // namespace bench
