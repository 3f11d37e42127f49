// The subcommands of `fftmux`; each returns the process exit status.
#pragma once

#include "problem_options.hpp"

#include <CLI/CLI.hpp>

#include <functional>

namespace fftmux::cli {

// Registers a subcommand; the action runs when it was the one chosen.
using Action = std::function<int()>;
Action add_backends(CLI::App& app);
Action add_run(CLI::App& app);
Action add_explain(CLI::App& app);
Action add_autotune(CLI::App& app);
Action add_tuning(CLI::App& app);

} // namespace fftmux::cli
