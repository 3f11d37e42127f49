// Diagnostics go to the callback of fftmux_set_log_callback, or else to
// stderr when FFTMUX_LOG asks for them (error, warn, info, debug): a library
// inside someone else's process stays quiet.
#pragma once

#include <string>

namespace fftmux {

enum class Level { error = 0, warn = 1, info = 2, debug = 3 };

void log(Level level, const std::string& message);

} // namespace fftmux
