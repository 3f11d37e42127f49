#include "registry.hpp"

#include "devices.hpp"
#include "error.hpp"
#include "log.hpp"
#include "paths.hpp"
#include "toml_util.hpp"

#include <dlfcn.h>
#include <fnmatch.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fftmux {

namespace fs = std::filesystem;

namespace {

// What the plugin last passed to set_error on this thread.
thread_local char plugin_message[1024];

void host_set_error(const char* message) {
  std::strncpy(plugin_message, message ? message : "", sizeof plugin_message - 1);
  plugin_message[sizeof plugin_message - 1] = '\0';
}

const char* host_config(void* data, const char* key) {
  auto* values = static_cast<std::map<std::string, std::string>*>(data);
  if (!key)
    return nullptr;
  auto it = values->find(key);
  return it == values->end() ? nullptr : it->second.c_str();
}

std::string plugin_error() {
  return plugin_message[0] ? plugin_message : "no reason given";
}

fftmux_status host_write_file(const char* path, const void* data, size_t size) {
  try {
    write_file_atomic(path, std::string(static_cast<const char*>(data), size));
    return FFTMUX_OK;
  } catch (const std::exception& e) {
    host_set_error(e.what());
    return FFTMUX_ERROR_IO;
  }
}

bool is_manifest(const fs::path& p) {
  return p.extension() == ".toml";
}

// The functions every plugin must provide; the buffer and synchronize entries
// may be NULL when the backend has no memory of its own.
const char* missing_function(const fftmux_backend_v1& t) {
  const std::pair<const void*, const char*> required[] = {
      {reinterpret_cast<const void*>(t.init), "init"},
      {reinterpret_cast<const void*>(t.shutdown), "shutdown"},
      {reinterpret_cast<const void*>(t.about), "about"},
      {reinterpret_cast<const void*>(t.query), "query"},
      {reinterpret_cast<const void*>(t.plan_create), "plan_create"},
      {reinterpret_cast<const void*>(t.plan_destroy), "plan_destroy"},
      {reinterpret_cast<const void*>(t.execute), "execute"},
  };
  for (auto& [fn, name] : required)
    if (!fn)
      return name;
  if (!t.buffer_alloc)
    return nullptr;
  const std::pair<const void*, const char*> with_buffers[] = {
      {reinterpret_cast<const void*>(t.buffer_free), "buffer_free"},
      {reinterpret_cast<const void*>(t.buffer_write), "buffer_write"},
      {reinterpret_cast<const void*>(t.buffer_read), "buffer_read"},
      {reinterpret_cast<const void*>(t.buffer_native), "buffer_native"},
      {reinterpret_cast<const void*>(t.execute_buffers), "execute_buffers"},
  };
  for (auto& [fn, name] : with_buffers)
    if (!fn)
      return name;
  return nullptr;
}

bool valid_status(int s) {
  return s >= FFTMUX_OK && s <= FFTMUX_ERROR_INTERNAL;
}

// init and shutdown of every backend of the process, one at a time: two
// contexts may start the same library at once, and an engine's global
// set-up (or a plugin that keeps its host table in a global) is rarely
// written for that.
std::mutex& lifecycle() {
  static std::mutex m;
  return m;
}

} // namespace

const char* last_plugin_message() {
  return plugin_message;
}
void clear_plugin_message() {
  plugin_message[0] = '\0';
}

Backend::Backend(std::string name, std::string library, std::string manifest)
    : name_(std::move(name)), library_(std::move(library)), manifest_(std::move(manifest)) {}

Backend::~Backend() {
  if (initialized_ && table_->shutdown) {
    std::lock_guard<std::mutex> lock(lifecycle());
    table_->shutdown(handle_);
  }
}

void Backend::skip(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = FFTMUX_BACKEND_SKIPPED;
  reason_ = reason;
  loaded_ = true;
}

void Backend::load() {
  std::lock_guard<std::mutex> lock(mutex_);
  load_locked();
}

void Backend::load_locked() {
  if (loaded_)
    return;
  loaded_ = true;
  auto skip_with = [&](const std::string& why) {
    if (name_.empty())
      name_ = fs::path(library_).filename().string();
    state_ = FFTMUX_BACKEND_SKIPPED;
    reason_ = why;
    log(Level::warn, "skipping plugin " + library_ + ": " + why);
  };
  try {
    // Never unloaded (RTLD_NODELETE): an engine's process-wide state (FFTW's
    // planner and wisdom, a driver's caches) would leak with every context
    // otherwise, and its worker threads would outlive their code.
    lib_.load(library_, boost::dll::load_mode::type(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE));
  } catch (const std::exception& e) {
    return skip_with("cannot load " + library_ + ": " + e.what());
  }
  if (!lib_.has(FFTMUX_PLUGIN_ENTRY))
    return skip_with(library_ + " does not export " FFTMUX_PLUGIN_ENTRY
                                ": it is not an fftmux plugin");
  auto entry = lib_.get<const fftmux_backend_v1*(uint32_t)>(FFTMUX_PLUGIN_ENTRY);
  const fftmux_backend_v1* t = entry(FFTMUX_PLUGIN_ABI_VERSION);
  if (!t)
    return skip_with(library_ + " declined plugin ABI " +
                     std::to_string(FFTMUX_PLUGIN_ABI_VERSION));
  if (t->abi_version > FFTMUX_PLUGIN_ABI_VERSION)
    return skip_with(library_ + " needs plugin ABI " + std::to_string(t->abi_version) +
                     ", this fftmux provides ABI " + std::to_string(FFTMUX_PLUGIN_ABI_VERSION));
  if (t->abi_version < 1 || t->struct_size < FFTMUX_BACKEND_V1_MIN_SIZE)
    return skip_with(library_ + " returned a table of ABI " + std::to_string(t->abi_version) +
                     " and " + std::to_string(t->struct_size) + " bytes, expected ABI 1 and " +
                     std::to_string(FFTMUX_BACKEND_V1_MIN_SIZE) + " bytes or more");
  if (!t->name || !t->version)
    return skip_with(library_ + " has no name or version in its table");
  if (const char* fn = missing_function(*t))
    return skip_with(library_ + " lacks the required function " + fn);
  if (!name_.empty() && name_ != t->name)
    return skip_with("the manifest " + manifest_ + " names the backend '" + name_ + "' but " +
                     library_ + " calls itself '" + t->name + "'");
  // Named by its manifest, the backend keeps that name: find() reads it
  // unlocked from other threads, so only a library named directly, loaded
  // while the context is created, learns its name here.
  if (name_.empty())
    name_ = t->name;
  version_ = t->version;
  table_ = t;
}

void Backend::init_locked() {
  if (initialized_ || state_ != FFTMUX_BACKEND_LISTED)
    return;
  host_.struct_size = sizeof host_;
  host_.abi_version = FFTMUX_PLUGIN_ABI_VERSION;
  host_.set_error = host_set_error;
  host_.config = host_config;
  host_.host_data = &config;
  host_.cache_dir = cache_dir.c_str();
  host_.write_file = host_write_file;
  host_.native = native.empty() ? nullptr : native.data();
  host_.native_count = uint32_t(native.size());
  plugin_message[0] = '\0';
  std::unique_lock<std::mutex> lock(lifecycle());
  bool ok = table_->init(&host_, &handle_) == FFTMUX_OK; // never held in a variable: see check()
  lock.unlock();
  if (!ok) {
    state_ = FFTMUX_BACKEND_UNAVAILABLE;
    reason_ = plugin_error();
    log(Level::info, "backend " + name_ + " is unavailable: " + reason_);
    return;
  }
  initialized_ = true;
  state_ = FFTMUX_BACKEND_READY;
  fftmux_about_v1 about{};
  about.struct_size = sizeof about;
  if (table_->about(handle_, &about) == FFTMUX_OK) {
    about.devices[sizeof about.devices - 1] = '\0';
    about.hardware_key[sizeof about.hardware_key - 1] = '\0';
    devices_ = about.devices;
    hardware_key_ = about.hardware_key;
  }
  max_devices_ = spans_devices(*table_) ? std::max<uint32_t>(about.max_devices, 1) : 1;
}

bool Backend::ready() {
  std::lock_guard<std::mutex> lock(mutex_);
  load_locked();
  init_locked();
  return state_ == FFTMUX_BACKEND_READY;
}

fftmux_backend_state Backend::state() {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

std::string Backend::reason() {
  std::lock_guard<std::mutex> lock(mutex_);
  return reason_;
}

std::string Backend::version() {
  std::lock_guard<std::mutex> lock(mutex_);
  return version_;
}

std::string Backend::devices() {
  std::lock_guard<std::mutex> lock(mutex_);
  return devices_;
}

uint32_t Backend::max_devices() {
  std::lock_guard<std::mutex> lock(mutex_);
  return max_devices_;
}

std::string Backend::hardware_key() {
  std::lock_guard<std::mutex> lock(mutex_);
  return hardware_key_;
}

std::vector<std::string> Backend::variants() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  if (table_)
    for (uint32_t i = 0; i < table_->variant_count && table_->variants; ++i)
      out.push_back(table_->variants[i] ? table_->variants[i] : "?");
  if (table_ && out.empty())
    out.push_back("default");
  return out;
}

void Backend::check(int status, const char* operation) const {
  if (status == FFTMUX_OK)
    return;
  if (!valid_status(status))
    fail(FFTMUX_ERROR_BACKEND, name_ + ": " + operation + " returned the unknown status " +
                                   std::to_string(status) + " (" + plugin_error() + ")");
  fail(static_cast<fftmux_status>(status), name_ + ": " + plugin_error());
}

// ---- discovery ----

void Registry::discover(const Config& config, const std::string& plugin_path) {
  disabled_ = split_path_list(env("FFTMUX_PLUGINS_DISABLE"), ',');
  std::vector<std::string> entries = split_path_list(env("FFTMUX_ADD_PLUGIN_PATH"));
  std::string replace = plugin_path.empty() ? env("FFTMUX_PLUGIN_PATH") : plugin_path;
  if (!replace.empty()) {
    for (auto& e : split_path_list(replace))
      entries.push_back(e);
  } else {
    for (auto& d : config.plugin_dirs)
      entries.push_back(d);
    std::string lib = library_dir();
    if (!lib.empty())
      entries.push_back(lib + "/fftmux/plugins");
  }
  for (auto& e : entries)
    add_entry(e);
}

void Registry::add_entry(const std::string& entry) {
  std::error_code ec;
  if (fs::is_directory(entry, ec)) {
    std::vector<fs::path> manifests;
    for (auto& f : fs::directory_iterator(entry, ec))
      if (is_manifest(f.path()))
        manifests.push_back(f.path());
    std::sort(manifests.begin(), manifests.end());
    for (auto& m : manifests)
      add_manifest(m.string());
  } else if (!fs::exists(entry, ec)) {
    log(Level::debug, "plugin search entry " + entry + " does not exist");
  } else if (is_manifest(entry)) {
    add_manifest(entry);
  } else {
    add_library(entry);
  }
}

Manifest parse_manifest(const std::string& text, const std::string& path) {
  toml::table t = parse_toml(text, path);
  auto version = t["file_format_version"].value_exact<int64_t>();
  if (version.value_or(0) != 1)
    invalid(path + ": file_format_version must be 1");
  auto name = t["backend"]["name"].value<std::string>();
  auto lib = t["backend"]["library"].value<std::string>();
  auto abi = t["backend"]["abi_version"].value_exact<int64_t>();
  if (!name || name->empty() || !lib || lib->empty() || !abi)
    invalid(path + ": [backend] needs name, library and abi_version");
  fs::path library =
      fs::path(*lib).is_absolute() ? fs::path(*lib) : fs::path(path).parent_path() / *lib;
  return {*name, library.string(), *abi};
}

void Registry::add_manifest(const std::string& path) {
  std::string stem = fs::path(path).stem().string();
  try {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream text;
    text << f.rdbuf();
    Manifest m = parse_manifest(text.str(), path);
    auto b = std::make_unique<Backend>(m.name, m.library, path);
    std::error_code ec;
    if (m.abi > FFTMUX_PLUGIN_ABI_VERSION || m.abi < 1)
      b->skip("the manifest " + path + " asks for plugin ABI " + std::to_string(m.abi) +
              ", this fftmux provides ABI " + std::to_string(FFTMUX_PLUGIN_ABI_VERSION));
    else if (!fs::exists(m.library, ec))
      b->skip("the manifest " + path + " points to " + m.library + ", which does not exist");
    add(std::move(b));
  } catch (const Error& e) {
    auto b = std::make_unique<Backend>(stem, "", path);
    b->skip(std::string("malformed manifest: ") + e.what());
    add(std::move(b));
  }
}

void Registry::add_library(const std::string& path) {
  auto b = std::make_unique<Backend>("", path, "");
  b->load();
  add(std::move(b));
}

void Registry::add(std::unique_ptr<Backend> b) {
  for (auto& glob : disabled_)
    if (fnmatch(glob.c_str(), b->name().c_str(), 0) == 0 && b->state() != FFTMUX_BACKEND_SKIPPED)
      b->skip("disabled by FFTMUX_PLUGINS_DISABLE=" + glob);
  if (b->state() != FFTMUX_BACKEND_SKIPPED)
    if (Backend* first = find(b->name()))
      b->skip("the name '" + b->name() + "' is already taken by " + first->library() + "; " +
              (b->manifest().empty() ? b->library() : b->manifest()) + " is ignored");
  if (b->state() == FFTMUX_BACKEND_SKIPPED)
    log(Level::warn, "plugin " + b->name() + " skipped: " + b->reason());
  backends_.push_back(std::move(b));
}

Backend* Registry::find(const std::string& name) const {
  for (auto& b : backends_)
    if (b->name() == name && b->state() != FFTMUX_BACKEND_SKIPPED)
      return b.get();
  return nullptr;
}

} // namespace fftmux
