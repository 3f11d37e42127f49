// The subcommands of `fftmux`; each returns the process exit status.
#pragma once

#include "problem_options.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>

namespace fftmux::cli {

// Registers a subcommand; the action runs when it was the one chosen.
using Action = std::function<int()>;
Action add_backends(CLI::App& app);
Action add_run(CLI::App& app);
Action add_explain(CLI::App& app);
Action add_autotune(CLI::App& app);
Action add_tuning(CLI::App& app);

// `fftmux run --distributed` (distributed.cpp): its options on run, and the run.
struct DistributedOptions {
  bool on = false;
  std::string decomposition = "slabs";
};
std::shared_ptr<DistributedOptions> add_distributed(CLI::App& run);
int run_distributed(const DistributedOptions& options, const ProblemOptions& problem, int repeat,
                    int warmup, int64_t threads);

} // namespace fftmux::cli
