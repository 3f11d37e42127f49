// fftmux explain [--json]: the routing decision for a problem.
#include "commands.hpp"

#include <fftmux/fftmux.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace fftmux::cli {

namespace {

// Each backend's answer to the problem, when no plan could be made.
nlohmann::json answers(const context& ctx, const fftmux_desc& d) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : ctx.backends(false)) {
    nlohmann::json a = {{"name", b.name}, {"supported", false}};
    try {
      fftmux_support s = ctx.query(d, b.name);
      a["supported"] = bool(s.supported);
      if (s.supported)
        a["variants"] = s.variants;
      else
        a["reason"] = s.reason;
    } catch (const error& q) {
      a["reason"] = q.what();
    }
    out.push_back(a);
  }
  return out;
}

void print_answers(const nlohmann::json& all) {
  for (const auto& a : all) {
    std::string answer = a["supported"]
                             ? "accepts (variants " + a["variants"].get<std::string>() + ")"
                             : a["reason"].get<std::string>();
    std::printf("  %-10s %s\n", a["name"].get<std::string>().c_str(), answer.c_str());
  }
}

} // namespace

Action add_explain(CLI::App& app) {
  auto* sub = app.add_subcommand("explain", "show which backend would run a problem, and why");
  auto opts = std::make_shared<ProblemOptions>();
  auto json = std::make_shared<bool>(false);
  opts->add_to(*sub);
  sub->add_flag("--json", *json, "print a JSON object");
  return [opts, json] {
    fftmux_desc d = opts->desc();
    nlohmann::json report = {{"problem", describe(d)}};
    report.update(problem_json(d));
    context ctx;
    int status = 0;
    try {
      plan p = ctx.make_plan(d, opts->backend.c_str(),
                             opts->variant.empty() ? nullptr : opts->variant.c_str());
      report.update({{"planned", true},
                     {"backend", p.backend()},
                     {"variant", p.variant()},
                     {"explanation", p.explain()}});
    } catch (const error& e) {
      report.update({{"planned", false}, {"error", e.what()}, {"backends", answers(ctx, d)}});
      status = 1;
    }
    if (*json)
      std::printf("%s\n", report.dump(2).c_str());
    else if (status == 0)
      std::printf("%s", report["explanation"].get<std::string>().c_str());
    else {
      std::printf("no plan: %s\n", report["error"].get<std::string>().c_str());
      print_answers(report["backends"]);
    }
    return status;
  };
}

} // namespace fftmux::cli
