// fftmux backends [--json]
#include "commands.hpp"

#include <fftmux/fftmux.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace fftmux::cli {

namespace {

std::vector<std::string> lines(const std::string& text, char sep = '\n') {
  std::vector<std::string> out;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line, sep))
    if (!line.empty())
      out.push_back(line);
  return out;
}

// One row a backend, the name column as wide as the longest name; its
// devices (or the reason it cannot run) and its variants on the lines below,
// under the DEVICES column.
void print_table(const std::vector<fftmux_backend_info>& all,
                 const std::vector<std::string>& variants, const std::string& notes) {
  int name = 10;
  for (const fftmux_backend_info& b : all)
    name = std::max(name, int(std::strlen(b.name)));
  int devices = name + 23; // where the DEVICES column starts
  std::printf("%-*s %-12s %-8s %s\n", name, "NAME", "STATUS", "VERSION", "DEVICES / REASON");
  for (size_t i = 0; i < all.size(); ++i) {
    const fftmux_backend_info& b = all[i];
    bool ok = b.state == FFTMUX_BACKEND_READY;
    std::vector<std::string> detail = lines(ok ? b.devices : b.reason);
    if (ok)
      detail.push_back("spans: " + std::to_string(b.max_devices) +
                       (b.max_devices == 1 ? " device a plan" : " devices a plan"));
    if (!variants[i].empty())
      detail.push_back("variants: " + variants[i]);
    std::printf("%-*s %-12s %-8s %s\n", name, b.name, fftmux_backend_state_name(b.state), b.version,
                detail.empty() ? "" : detail[0].c_str());
    for (size_t i = 1; i < detail.size(); ++i)
      std::printf("%*s%s\n", devices, "", detail[i].c_str());
  }
  if (all.empty())
    std::printf("(no plugins found; FFTMUX_LOG=debug shows where fftmux looked)\n");
  for (const auto& n : lines(notes))
    std::printf("note: %s\n", n.c_str());
}

nlohmann::json to_json(const std::vector<fftmux_backend_info>& all,
                       const std::vector<std::string>& variants) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < all.size(); ++i) {
    const fftmux_backend_info& b = all[i];
    out.push_back({{"name", b.name},
                   {"version", b.version},
                   {"status", fftmux_backend_state_name(b.state)},
                   {"reason", b.reason},
                   {"library", b.library},
                   {"devices", lines(b.devices)},
                   {"max_devices", b.max_devices},
                   {"variants", lines(variants[i], ',')},
                   {"hardware_key", b.hardware_key}});
  }
  return out;
}

} // namespace

Action add_backends(CLI::App& app) {
  auto* sub = app.add_subcommand("backends", "list the backends, their devices and variants");
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "print a JSON array");
  return [json] {
    context ctx;
    auto all = ctx.backends(true);
    std::vector<std::string> variants;
    for (uint32_t i = 0; i < all.size(); ++i)
      variants.push_back(ctx.variants(i));
    if (*json)
      std::printf("%s\n", to_json(all, variants).dump(2).c_str());
    else
      print_table(all, variants, ctx.notes());
    return 0;
  };
}

} // namespace fftmux::cli
