#include "machine.hpp"

#include "cpu_engines.hpp"

#include <fftmux/fftmux.h>

#include <fftw3.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

namespace bench {

namespace {

// The value of the first line of a file starting with key, quotes removed.
std::string line_value(const char* path, const std::string& key) {
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);)
    if (line.compare(0, key.size(), key) == 0) {
      std::string v = line.substr(key.size());
      v.erase(0, v.find_first_not_of(" :=\t\""));
      v.erase(v.find_last_not_of(" \"") + 1);
      return v;
    }
  return "unknown";
}

std::string memory_text() {
  std::string kb = line_value("/proc/meminfo", "MemTotal"); // "24684092 kB"
  char b[32];
  std::snprintf(b, sizeof b, "%.1f GiB", std::atof(kb.c_str()) / (1 << 20));
  return b;
}

} // namespace

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

Meta machine() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  utsname u{};
  uname(&u);
  return {
      {"host", host},
      {"cpu", cpu_description()},
      {"cores", std::to_string(std::thread::hardware_concurrency())},
      {"memory", memory_text()},
      {"os", line_value("/etc/os-release", "PRETTY_NAME")},
      {"kernel", std::string(u.sysname) + " " + u.release + " " + u.machine},
      {"compiler", __VERSION__},
      {"fftmux", fftmux_version(nullptr, nullptr, nullptr)},
      {"fftw", fftw_version},
  };
}

} // namespace bench
