// fftmux tuning show | export FILE | import FILE | clear [--backend B]:
// the tuning cache carried between machines.
#include "commands.hpp"

#include <fftmux/fftmux.hpp>

#include <cstdio>

namespace fftmux::cli {

namespace {

struct TuningOptions {
  std::string file, backend;
};

std::string user_cache(context& ctx) {
  return detail::text([&](char* s, size_t n, size_t* need) {
    return fftmux_tuning_cache_path(ctx.get(), s, n, need);
  });
}

std::string system_cache(context& ctx) {
  return detail::text([&](char* s, size_t n, size_t* need) {
    return fftmux_system_tuning_path(ctx.get(), s, n, need);
  });
}

int show(context& ctx) {
  std::string text = detail::text(
      [&](char* s, size_t n, size_t* need) { return fftmux_tuning_show(ctx.get(), s, n, need); });
  std::printf("# user cache: %s\n# system cache, beneath it: %s\n%s", user_cache(ctx).c_str(),
              system_cache(ctx).c_str(), text.c_str());
  return 0;
}

std::string measurements(size_t n) {
  return std::to_string(n) + (n == 1 ? " measurement" : " measurements");
}

int run(CLI::App* sub, const TuningOptions& o) {
  context ctx;
  if (sub->get_name() == "show")
    return show(ctx);
  std::string cache = user_cache(ctx);
  if (sub->get_name() == "export") {
    check(fftmux_tuning_export(ctx.get(), o.file.c_str()));
    std::printf("wrote %s from %s\n", o.file.c_str(), cache.c_str());
  } else if (sub->get_name() == "import") {
    size_t n = 0;
    check(fftmux_tuning_import(ctx.get(), o.file.c_str(), &n));
    std::printf("merged %s from %s into %s\n", measurements(n).c_str(), o.file.c_str(),
                cache.c_str());
  } else {
    size_t n = 0;
    check(fftmux_tuning_clear(ctx.get(), o.backend.empty() ? nullptr : o.backend.c_str(), &n));
    std::printf("removed %s from %s\n", measurements(n).c_str(), cache.c_str());
  }
  return 0;
}

} // namespace

Action add_tuning(CLI::App& app) {
  auto* tuning = app.add_subcommand("tuning", "show, export, import or clear the tuning cache");
  tuning->require_subcommand(1);
  auto o = std::make_shared<TuningOptions>();
  tuning->add_subcommand("show", "print the measurements routing uses (system's beneath user's)");
  tuning->add_subcommand("export", "copy the user's tuning cache to FILE")
      ->add_option("FILE", o->file, "file to write")
      ->required();
  tuning->add_subcommand("import", "merge FILE into the user's cache; later measurements win")
      ->add_option("FILE", o->file, "tuning file to read")
      ->required();
  tuning->add_subcommand("clear", "remove the user's measurements")
      ->add_option("--backend", o->backend, "only this backend's (default: all)");
  return [o, tuning] { return run(tuning->get_subcommands().at(0), *o); };
}

} // namespace fftmux::cli
