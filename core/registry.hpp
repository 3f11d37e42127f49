// Plugin discovery and loading, after the Khronos loader: manifests announce
// plugins without loading them; a library is loaded (RTLD_LOCAL) and
// initialized on first use; whatever is broken is skipped with its path and
// the reason, never failing the host.
#pragma once

#include "config.hpp"

#include <fftmux/plugin.h>

#include <boost/dll/shared_library.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fftmux {

// What the plugin last passed to host->set_error on this thread.
const char* last_plugin_message();
void clear_plugin_message();

// What a plugin manifest says (docs/plugins.md), the library path resolved
// against the manifest's folder.
struct Manifest {
  std::string name, library;
  int64_t abi = 0;
};

// Parses a manifest's text; throws Error(INVALID_ARGUMENT) naming the path,
// and the line for text that is not TOML.
Manifest parse_manifest(const std::string& text, const std::string& path);

class Backend {
public:
  Backend(std::string name, std::string library, std::string manifest);
  ~Backend();
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  const std::string& name() const { return name_; }
  const std::string& library() const { return library_; }
  const std::string& manifest() const { return manifest_; }

  // Marks the backend skipped without loading it.
  void skip(const std::string& reason);
  // Loads the library and reads its table (not init): for libraries named
  // directly, whose name is only known once loaded.
  void load();
  // Loads and initializes once; true when the backend is usable.
  bool ready();

  fftmux_backend_state state();
  std::string reason();
  std::string version();
  std::string devices();
  std::string hardware_key();
  // The most devices one plan spans: 1 for a backend of one device, 0 while
  // not initialized.
  uint32_t max_devices();
  std::vector<std::string> variants();

  // The table of a ready backend.
  const fftmux_backend_v1& table() const { return *table_; }
  void* handle() const { return handle_; }

  // Throws Error("<name>: <plugin message>") when status is not OK. Unknown
  // status values from a plugin become FFTMUX_ERROR_BACKEND. Plugins are C
  // and may return any int, negative ones too, which no C++ variable of the
  // enum type may hold: a plugin's status goes straight from the call into
  // an int, never through an fftmux_status variable.
  void check(int status, const char* operation) const;

  // Calls into the plugin with a clean message slot, then checks the status.
  template <class F> void call(const char* operation, F&& f) const {
    clear_plugin_message();
    check(f(), operation);
  }

  std::map<std::string, std::string> config;
  std::string cache_dir;
  std::vector<uint64_t> native; // the application's device handles, for init

private:
  void load_locked();
  void init_locked();

  std::string name_, library_, manifest_;
  std::mutex mutex_;
  bool loaded_ = false, initialized_ = false;
  fftmux_backend_state state_ = FFTMUX_BACKEND_LISTED;
  std::string reason_, version_, devices_, hardware_key_;
  uint32_t max_devices_ = 0;
  boost::dll::shared_library lib_;
  const fftmux_backend_v1* table_ = nullptr;
  void* handle_ = nullptr;
  fftmux_host_v1 host_{};
};

class Registry {
public:
  // Discovery order: plugin_path (the option, else FFTMUX_PLUGIN_PATH)
  // replacing the search, FFTMUX_ADD_PLUGIN_PATH in front, then the config's
  // plugin_dirs, then <libdir>/fftmux/plugins.
  void discover(const Config& config, const std::string& plugin_path);

  Backend* find(const std::string& name) const;
  const std::vector<std::unique_ptr<Backend>>& all() const { return backends_; }

private:
  void add_entry(const std::string& entry);
  void add_manifest(const std::string& path);
  void add_library(const std::string& path);
  void add(std::unique_ptr<Backend> backend);

  std::vector<std::string> disabled_;
  std::vector<std::unique_ptr<Backend>> backends_;
};

} // namespace fftmux
