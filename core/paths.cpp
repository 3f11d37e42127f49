#include "paths.hpp"

#include "error.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace fftmux {

namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string library_dir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&library_dir), &info) || !info.dli_fname)
    return "";
  std::error_code ec;
  fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path(info.dli_fname).parent_path().string() : p.parent_path().string();
}

namespace {
std::string xdg(const char* var, const char* fallback) {
  std::string base = env(var);
  if (base.empty()) {
    std::string home = env("HOME");
    if (home.empty())
      return "";
    base = home + "/" + fallback;
  }
  return base + "/fftmux";
}
} // namespace

std::string cache_dir() { return xdg("XDG_CACHE_HOME", ".cache"); }

std::string default_config_path() {
  std::string dir = xdg("XDG_CONFIG_HOME", ".config");
  return dir.empty() ? "" : dir + "/fftmux.toml";
}

std::vector<std::string> split_path_list(const std::string& list, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(sep, start);
    if (end == std::string::npos)
      end = list.size();
    if (end > start)
      out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void write_file_atomic(const std::string& path, const std::string& contents) {
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path())
    fs::create_directories(target.parent_path(), ec);
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f)
    fail(FFTMUX_ERROR_IO, "cannot write " + tmp + ": " + std::strerror(errno));
  bool ok = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  ok = std::fflush(f) == 0 && ok;
  ok = ::fsync(::fileno(f)) == 0 && ok;
  int err = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = ok ? errno : err;
    std::remove(tmp.c_str());
    fail(FFTMUX_ERROR_IO, "cannot write " + path + ": " + std::strerror(err));
  }
}

} // namespace fftmux
