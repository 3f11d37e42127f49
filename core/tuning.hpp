// The tuning cache (config/tuning.example.toml documents the schema): what
// autotune measured, keyed by problem and by the backend's hardware key, so
// that routing can look up or interpolate the time of every candidate.
#pragma once

#include "problem.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace fftmux {

constexpr int64_t tuning_schema = 1;

// One problem on one backend (one hardware key): the time of every variant.
struct Measurement {
  std::string problem;   // problem_key()
  std::string family;    // family_key(): what interpolation may mix
  double log_points = 0; // log2 of the transform size (batch excluded)
  int64_t points = 1, batch = 1;
  std::string backend, hardware;
  std::map<std::string, double> times; // variant -> median seconds
  std::string variant, runner_up;      // fastest and second fastest variant
  double median = 0, spread = 0, runner_up_median = 0, gbps = 0;
  double plan = 0, upload = -1, execute = 0, download = -1;
  std::string timestamp; // RFC 3339, UTC
  bool failed = false;   // no variant ran correctly: a negative entry
  std::string reason;
};

// "c2c f32 1024x64 batch 8 host out-of-place default": the exact problem.
std::string problem_key(const Problem& p);
// "c2c f32 rank 2 host": kind, precision, rank and placement.
std::string family_key(const fftmux_desc& d);

// What makes identical machines' keys equal: the key without the parts
// unique to one device (device-uuid, driver-uuid, GPU-/MIG- UUIDs) and with
// only the major version of its driver part. Keys of older caches, which
// carried them, compare equal to the class of the same machine.
std::string hardware_class(const std::string& key);

// Reads a cache file. Throws Error(INVALID_ARGUMENT) naming file and line
// for text that is not TOML or lacks fields, and for another schema.
std::vector<Measurement> read_cache(const std::string& path);
std::vector<Measurement> parse_cache(const std::string& text, const std::string& path);
std::string write_cache_text(const std::vector<Measurement>& all);

// The binary index: a parsed copy of a cache file, valid for the file of
// one identity (size, modification time, inode), rebuilt when that changes.
struct FileIdentity {
  uint64_t size = 0, mtime_ns = 0, inode = 0;
  bool operator==(const FileIdentity& o) const {
    return size == o.size && mtime_ns == o.mtime_ns && inode == o.inode;
  }
};
std::string encode_index(const std::vector<Measurement>& all, const FileIdentity& id);
// Nothing for bytes of another identity, and for damaged ones.
std::optional<std::vector<Measurement>> decode_index(const std::string& bytes,
                                                     const FileIdentity& id);

// Merges fresh measurements into the file under an exclusive lock: entries
// of the same problem, backend and hardware are replaced, others kept. A
// file of another schema is left untouched (Error); an unreadable one is
// kept aside as <path>.corrupt and replaced; a read-only one (no write
// permission) is never replaced (Error(IO)); temporary files of writers
// that died are removed.
// How an entry already in the file meets a fresh one of the same key:
// autotune's fresh measurement replaces it; an imported one replaces it only
// when measured later (a tie keeps what the user had).
enum class Merge { replace, keep_newer };
void merge_cache(const std::string& path, const std::vector<Measurement>& fresh,
                 std::vector<std::string>& notes, Merge how = Merge::replace);
// Removes the entries of backend ("" = every entry) the same way, under the
// same lock; returns how many went. A missing file is left missing.
size_t clear_cache(const std::string& path, const std::string& backend,
                   std::vector<std::string>& notes);

struct Estimate {
  double seconds = -1;
  std::string how; // "measured", "interpolated between 512 and 2048", ...
};

class TuningCache {
public:
  // Loads the files in order, later ones overriding earlier ones (the
  // system cache, then the user's). Files that cannot be used are noted.
  void load(const std::vector<std::string>& paths, std::vector<std::string>& notes);
  // Takes these entries, later ones overriding earlier ones of the same key.
  void assign(std::vector<Measurement> entries);

  const Measurement* exact(const std::string& problem, const std::string& backend,
                           const std::string& hardware) const;
  // The time of variant from measured neighbours of the same family.
  std::optional<Estimate> interpolate(const Problem& p, const std::string& backend,
                                      const std::string& hardware,
                                      const std::string& variant) const;
  size_t size() const { return entries_.size(); }
  // Every entry, one a key, the later file's where two share one.
  std::vector<Measurement> entries() const;

private:
  std::vector<Measurement> entries_;
  std::unordered_map<std::string, size_t> exact_;                   // key -> index
  std::unordered_map<std::string, std::vector<size_t>> neighbours_; // family key -> sorted indexes
};

} // namespace fftmux
