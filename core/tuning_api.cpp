// The C entry points that move tuning between machines: show, export,
// import and clear the user's cache, and name the system one.
#include "api_util.hpp"
#include "context.hpp"
#include "paths.hpp"

#include <fftmux/fftmux.h>

#include <filesystem>

using namespace fftmux;

namespace {

namespace fs = std::filesystem;

void require_path(const char* path, const char* what) {
  require(path, what);
  if (!*path)
    invalid(std::string(what) + " is empty: name a file");
}

// Notes of a rewrite (a damaged cache moved aside) join the context's.
void keep_notes(fftmux_context ctx, const std::vector<std::string>& notes) {
  std::lock_guard<std::mutex> lock(ctx->notes_mutex);
  ctx->notes.insert(ctx->notes.end(), notes.begin(), notes.end());
}

} // namespace

extern "C" {

fftmux_status fftmux_tuning_show(fftmux_context ctx, char* text, size_t size, size_t* needed) {
  return guard("fftmux_tuning_show", [&] {
    require(ctx, "context");
    if (size && !text)
      invalid("text is NULL but size = " + std::to_string(size));
    ctx->reload_tuning(); // what the files hold now, other writers' work included
    copy_out(write_cache_text(ctx->tuning()->entries()), text, size, needed);
  });
}

fftmux_status fftmux_tuning_export(fftmux_context ctx, const char* path) {
  return guard("fftmux_tuning_export", [&] {
    require(ctx, "context");
    require_path(path, "path");
    std::error_code ec;
    if (fs::equivalent(path, ctx->tuning_path, ec))
      invalid(std::string("path = ") + path + " is the tuning cache itself: name another file");
    if (!fs::exists(ctx->tuning_path, ec))
      fail(FFTMUX_ERROR_NOT_FOUND,
           "the tuning cache " + ctx->tuning_path + " does not exist: run fftmux autotune first");
    write_file_atomic(path, write_cache_text(read_cache(ctx->tuning_path)));
  });
}

fftmux_status fftmux_tuning_import(fftmux_context ctx, const char* path, size_t* imported) {
  return guard("fftmux_tuning_import", [&] {
    require(ctx, "context");
    require_path(path, "path");
    // Read whole before the cache is touched: a foreign or damaged file changes nothing.
    std::vector<Measurement> fresh = read_cache(path);
    std::vector<std::string> notes;
    merge_cache(ctx->tuning_path, fresh, notes, Merge::keep_newer);
    keep_notes(ctx, notes);
    ctx->reload_tuning();
    if (imported)
      *imported = fresh.size();
  });
}

fftmux_status fftmux_tuning_clear(fftmux_context ctx, const char* backend, size_t* removed) {
  return guard("fftmux_tuning_clear", [&] {
    require(ctx, "context");
    if (backend && !*backend)
      invalid("backend is empty: name a backend, or pass NULL to clear every entry");
    std::vector<std::string> notes;
    size_t n = clear_cache(ctx->tuning_path, backend ? backend : "", notes);
    keep_notes(ctx, notes);
    ctx->reload_tuning();
    if (removed)
      *removed = n;
  });
}

fftmux_status fftmux_system_tuning_path(fftmux_context ctx, char* text, size_t size,
                                        size_t* needed) {
  return guard("fftmux_system_tuning_path", [&] {
    require(ctx, "context");
    copy_out(ctx->system_tuning_path, text, size, needed);
  });
}

} // extern "C"
