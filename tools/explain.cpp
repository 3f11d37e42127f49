// fftmux explain: the routing decision for a problem.
#include "commands.hpp"

#include <fftmux/fftmux.hpp>

#include <cstdio>

namespace fftmux::cli {

Action add_explain(CLI::App& app) {
  auto* sub = app.add_subcommand("explain", "show which backend would run a problem, and why");
  auto opts = std::make_shared<ProblemOptions>();
  opts->add_to(*sub);
  return [opts] {
    fftmux_desc d = opts->desc();
    context ctx;
    try {
      plan p = ctx.make_plan(d, opts->backend.c_str(),
                             opts->variant.empty() ? nullptr : opts->variant.c_str());
      std::printf("%s", p.explain().c_str());
      return 0;
    } catch (const error& e) {
      std::printf("no plan: %s\n", e.what());
      for (const auto& b : ctx.backends(false)) {
        std::string answer;
        try {
          fftmux_support s = ctx.query(d, b.name);
          answer = s.supported ? "accepts (variants " + std::string(s.variants) + ")" : s.reason;
        } catch (const error& q) {
          answer = q.what();
        }
        std::printf("  %-10s %s\n", b.name, answer.c_str());
      }
      return 1;
    }
  };
}

} // namespace fftmux::cli
