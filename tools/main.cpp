// fftmux: list backends, run a transform, explain a routing decision, autotune,
// carry tuning between machines.
#include "commands.hpp"

#include <fftmux/fftmux.hpp>

#include <cstdio>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
  using namespace fftmux::cli;
  CLI::App app{"fftmux: one FFT API over every engine on this machine"};
  app.require_subcommand(1);
  app.set_version_flag("--version", fftmux_version(nullptr, nullptr, nullptr));
  std::vector<std::pair<CLI::App*, Action>> commands;
  auto add = [&](Action (*f)(CLI::App&)) {
    size_t before = app.get_subcommands({}).size();
    Action a = f(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(a));
  };
  add(add_backends);
  add(add_run);
  add(add_explain);
  add(add_autotune);
  add(add_tuning);
  std::string names;
  bool known = argc < 2 || argv[1][0] == '-';
  for (auto& [sub, action] : commands) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known = known || sub->get_name() == argv[1];
  }
  if (!known) {
    std::fprintf(stderr, "fftmux: unknown command '%s' (commands: %s)\n", argv[1], names.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "fftmux: %s (see fftmux --help)\n", e.what());
    return 2;
  }
  for (auto& [sub, action] : commands) {
    if (!sub->parsed())
      continue;
    try {
      return action();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "fftmux %s: %s\n", sub->get_name().c_str(), e.what());
      return 1;
    }
  }
  return 2;
}
