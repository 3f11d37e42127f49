#include "paths.hpp"

#include "error.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

std::string cache_dir() {
  return xdg("XDG_CACHE_HOME", ".cache");
}

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

namespace {

std::string temporary_prefix(const std::string& path) {
  return path + ".tmp.";
}

// Unique among the processes (pid) and threads (counter) writing path.
std::string temporary_name(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return temporary_prefix(path) + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

bool write_all(int fd, const std::string& contents) {
  for (size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno != EINTR)
      return false;
    done += size_t(std::max<ssize_t>(n, 0));
  }
  return true;
}

} // namespace

void write_file_atomic(const std::string& path, const std::string& contents) {
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path())
    fs::create_directories(target.parent_path(), ec);
  std::string tmp = temporary_name(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0)
    fail(FFTMUX_ERROR_IO, "cannot write " + path + ": " + std::strerror(errno));
  bool ok = write_all(fd, contents) && ::fsync(fd) == 0;
  int err = errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = ok ? errno : err;
    std::remove(tmp.c_str());
    fail(FFTMUX_ERROR_IO, "cannot write " + path + ": " + std::strerror(err));
  }
}

void remove_stale_temporaries(const std::string& path) {
  fs::path target = fs::absolute(path);
  std::string prefix = temporary_prefix(target.filename().string());
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(target.parent_path(), ec))
    if (f.path().filename().string().rfind(prefix, 0) == 0)
      fs::remove(f.path(), ec);
}

FileLock::FileLock(const std::string& path) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  fd_ = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0)
    fail(FFTMUX_ERROR_IO, "cannot lock " + path + ".lock: " + std::strerror(errno));
}

FileLock::~FileLock() {
  if (fd_ >= 0)
    ::close(fd_); // closing releases the lock
}

} // namespace fftmux
