// Where fftmux finds and keeps its files.
#pragma once

#include <string>
#include <vector>

namespace fftmux {

// Folder holding libfftmux.so itself, found through dladdr, so that a build
// tree and an installed tree both find their plugins without variables.
std::string library_dir();

// $XDG_CACHE_HOME/fftmux, else ~/.cache/fftmux ("" when neither is known).
std::string cache_dir();

// $XDG_CONFIG_HOME/fftmux/fftmux.toml, else ~/.config/fftmux/fftmux.toml.
std::string default_config_path();

// Value of an environment variable, "" when unset.
std::string env(const char* name);

// "a:b::c" -> {"a", "b", "c"}.
std::vector<std::string> split_path_list(const std::string& list, char sep = ':');

// Replaces path atomically: writes a temporary file beside it, then renames.
// Throws Error(IO) naming the file on failure.
void write_file_atomic(const std::string& path, const std::string& contents);

} // namespace fftmux
