// The optional fftmux.toml (config/fftmux.toml documents every key).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace fftmux {

struct Config {
  std::string path; // the file read, "" when none
  std::vector<std::string> plugin_dirs;
  std::vector<std::string> preference = {"cuda", "vulkan", "opengl", "fftw"};
  std::string tuning_cache; // "" = default location
  // What an administrator measured for every user (`fftmux autotune --system`);
  // /var/lib holds state a program writes, by the FHS and Debian policy.
  std::string system_tuning_cache = "/var/lib/fftmux/tuning.toml";
  bool calibrate = true; // measure device models for routing without measurements
  // [backends.<name>] tables, flattened to text values.
  std::map<std::string, std::map<std::string, std::string>> backends;
};

// Parses TOML text; throws Error(INVALID_ARGUMENT) naming origin, line and
// column, or the key and the type it needs.
Config parse_config(const std::string& text, const std::string& origin);

// Reads a config file; throws Error(IO) when it cannot be read.
Config load_config(const std::string& path);

} // namespace fftmux
