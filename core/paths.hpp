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

// Replaces path atomically: writes a temporary file beside it
// (<path>.tmp.<pid>.<n>, a name no other writer uses), then renames it.
// Readers see the old file or the new one, never a part. Throws Error(IO)
// naming the file on failure, leaving no temporary file.
void write_file_atomic(const std::string& path, const std::string& contents);

// Holds an exclusive lock on <path>.lock while alive. Separate open()s
// exclude each other, so threads of one process take turns too. Throws
// Error(IO) naming the lock file when it cannot be taken.
class FileLock {
public:
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

private:
  int fd_ = -1;
};

// Removes the temporary files of write_file_atomic that writers of path
// left when they died mid-write. Only for a caller that holds a lock every
// writer of path takes.
void remove_stale_temporaries(const std::string& path);

} // namespace fftmux
