#include "tuning.hpp"

#include "error.hpp"
#include "log.hpp"
#include "paths.hpp"
#include "toml_util.hpp"

#include <fftmux/desc_geometry.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <type_traits>

namespace fftmux {

namespace fs = std::filesystem;

namespace {

const char* const precision_names[] = {"f32", "f64", "f16", "bf16"};
const char* const placement_names[] = {"host", "device"};

std::string join_n(const fftmux_desc& d) {
  std::string s;
  for (uint32_t i = 0; i < d.rank; ++i)
    s += (i ? "x" : "") + std::to_string(d.n[i]);
  return s;
}

// The strides of p unless they are the defaults of its descriptor.
std::string layout_key(const Problem& p) {
  fftmux_desc plain = p.desc;
  for (auto* s : {plain.in_strides, plain.out_strides})
    std::fill(s, s + FFTMUX_MAX_RANK, 0);
  plain.in_distance = plain.out_distance = 0;
  Problem def = validate(&plain);
  if (std::equal(p.in.stride, p.in.stride + 3, def.in.stride) &&
      std::equal(p.out.stride, p.out.stride + 3, def.out.stride) &&
      (p.desc.batch == 1 ||
       (p.in.distance == def.in.distance && p.out.distance == def.out.distance)))
    return "default";
  std::ostringstream s;
  for (auto [side, name] : {std::pair{&p.in, "in"}, std::pair{&p.out, "out"}}) {
    s << name << '=';
    for (uint32_t i = 0; i < p.desc.rank; ++i)
      s << (i ? "," : "") << side->stride[i];
    s << '/' << side->distance << (name[0] == 'i' ? " " : "");
  }
  return s.str();
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// The shortest text that reads back as exactly v, so that the index built
// when the file is written and the one rebuilt from the file agree.
std::string number(double v) {
  char buf[32];
  std::string s(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  if (s.find_first_of(".eEn") == std::string::npos) // TOML floats need a dot or exponent
    s += ".0";
  return s;
}

// ---- reading TOML ----

struct Reader {
  const toml::table& t;
  const std::string& where;

  // Integers exactly: toml++ 3.3 converts a float to an integer without a
  // range check, undefined for 1e30 (found by fuzz_tuning). A double may be
  // written as an integer.
  template <class T> T get(const char* key) const {
    std::optional<T> v;
    if constexpr (std::is_same_v<T, double>)
      v = t[key].value<T>();
    else
      v = t[key].value_exact<T>();
    if (!v)
      invalid(where + ": measurement lacks " + key + " of the right type");
    return *v;
  }
  double real(const char* key) const { return get<double>(key); }
};

Measurement read_one(const toml::table& t, const std::string& path) {
  std::string where = path + " line " + std::to_string(t.source().begin.line);
  Reader r{t, where};
  Measurement m;
  m.problem = r.get<std::string>("problem");
  m.family = r.get<std::string>("family");
  m.points = r.get<int64_t>("points");
  m.batch = r.get<int64_t>("batch");
  if (m.points < 1 || m.batch < 1)
    invalid(where + ": points and batch must be at least 1");
  m.log_points = std::log2(double(m.points));
  m.backend = r.get<std::string>("backend");
  m.hardware = r.get<std::string>("hardware");
  m.variant = r.get<std::string>("variant");
  m.runner_up = r.get<std::string>("runner_up");
  m.median = r.real("median");
  m.spread = r.real("spread");
  m.runner_up_median = r.real("runner_up_median");
  m.gbps = r.real("gbps");
  m.plan = r.real("plan");
  m.upload = r.real("upload");
  m.execute = r.real("execute");
  m.download = r.real("download");
  m.timestamp = r.get<std::string>("timestamp");
  m.failed = r.get<bool>("failed");
  m.reason = r.get<std::string>("reason");
  const toml::table* times = t["times"].as_table();
  if (!times)
    invalid(where + ": measurement lacks the table times");
  for (auto&& [variant, value] : *times) {
    auto v = value.value<double>();
    if (!v)
      invalid(where + ": times." + std::string(variant.str()) + " is not a number");
    m.times[std::string(variant.str())] = *v;
  }
  return m;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    fail(FFTMUX_ERROR_IO, "cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// ---- the binary index: a parsed copy beside the user's cache folder ----
// Parsing TOML costs about 0.1 ms per measurement; the index loads 10,000
// in a few milliseconds. It is keyed by the TOML file's identity and
// rebuilt whenever that changes; the TOML stays the source of truth.

std::optional<FileIdentity> identity(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return std::nullopt;
  return FileIdentity{uint64_t(st.st_size),
                      uint64_t(st.st_mtim.tv_sec) * 1000000000ull + uint64_t(st.st_mtim.tv_nsec),
                      uint64_t(st.st_ino)};
}

std::string index_path(const std::string& path) {
  std::string dir = cache_dir();
  if (dir.empty())
    return "";
  uint64_t h = 1469598103934665603ull; // FNV-1a of the absolute path
  std::error_code ec;
  for (unsigned char c : fs::absolute(path, ec).string())
    h = (h ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.idx", static_cast<unsigned long long>(h));
  return dir + "/index/" + name;
}

constexpr char index_magic[8] = {'F', 'M', 'X', 'I', 'D', 'X', '1', '\0'};

struct Out {
  std::string bytes;
  template <class T> void pod(T v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    pod(uint32_t(s.size()));
    bytes += s;
  }
};

struct In {
  const std::string& bytes;
  size_t at = 0;
  template <class T> T pod() {
    T v;
    if (at + sizeof v > bytes.size())
      throw std::out_of_range("truncated index");
    std::memcpy(&v, bytes.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string str() {
    uint32_t n = pod<uint32_t>();
    if (at + n > bytes.size())
      throw std::out_of_range("truncated index");
    at += n;
    return bytes.substr(at - n, n);
  }
};

void store_index(const std::string& path, const std::vector<Measurement>& all) {
  std::string idx = index_path(path);
  auto id = identity(path);
  if (idx.empty() || !id)
    return;
  try {
    write_file_atomic(idx, encode_index(all, *id));
  } catch (const Error& e) {
    log(Level::info, std::string("tuning index not written: ") + e.what());
  }
}

std::vector<Measurement> load_indexed(const std::string& path) {
  auto id = identity(path);
  std::string idx = index_path(path);
  if (id && !idx.empty()) {
    std::ifstream f(idx, std::ios::binary);
    if (f) {
      std::ostringstream s;
      s << f.rdbuf();
      if (auto all = decode_index(s.str(), *id))
        return *all;
    }
  }
  std::vector<Measurement> all = read_cache(path);
  store_index(path, all);
  return all;
}

std::string identity_key(const Measurement& m) {
  return m.problem + '\n' + m.backend + '\n' + hardware_class(m.hardware);
}

bool unique_to_one_device(const std::string& part) {
  for (const char* prefix : {"device-uuid ", "driver-uuid ", "uuid ", "GPU-", "MIG-"})
    if (part.rfind(prefix, 0) == 0)
      return true;
  return false;
}

// "driver 550.54.15" -> "driver 550"; Vulkan's packed "driver NVIDIA
// (2307194880)" -> "driver NVIDIA (major 550)": NVIDIA and Mesa both keep
// the major version in the bits from 22 up.
std::string driver_class(std::string part) {
  const char* digits = "0123456789";
  size_t open = part.rfind(" (");
  if (open != std::string::npos && part.back() == ')') {
    std::string packed = part.substr(open + 2, part.size() - open - 3);
    if (!packed.empty() && packed.size() <= 10 &&
        packed.find_first_not_of(digits) == std::string::npos)
      return part.substr(0, open) + " (major " + std::to_string(std::stoull(packed) >> 22) + ")";
  }
  size_t at = part.find_first_of(digits);
  size_t end = at == std::string::npos ? at : part.find_first_not_of(digits, at);
  if (end != std::string::npos && part[end] == '.')
    part.erase(end, part.find_first_not_of(std::string(digits) + ".", end) - end);
  return part;
}

bool is_schema_error(const Error& e) {
  return std::string(e.what()).find("this fftmux reads schema") != std::string::npos;
}

} // namespace

std::string hardware_class(const std::string& key) {
  std::string out;
  size_t at = 0;
  while (at <= key.size()) {
    size_t end = std::min(key.find("; ", at), key.size());
    std::string part = key.substr(at, end - at);
    if (!unique_to_one_device(part))
      out +=
          (out.empty() ? "" : "; ") + (part.rfind("driver ", 0) == 0 ? driver_class(part) : part);
    at = end + 2;
  }
  return out;
}

std::string problem_key(const Problem& p) {
  const fftmux_desc& d = p.desc;
  return geometry::kind_text(d) + ' ' + precision_names[d.precision] + ' ' + join_n(d) + " batch " +
         std::to_string(d.batch) + ' ' + placement_names[d.placement] +
         (p.in_place() ? " in-place " : " out-of-place ") + layout_key(p) + padding_text(d);
}

std::string family_key(const fftmux_desc& d) {
  return geometry::kind_text(d) + ' ' + precision_names[d.precision] + " rank " +
         std::to_string(d.rank) + ' ' + placement_names[d.placement] +
         (geometry::padded(d) ? " padded" : "");
}

std::vector<Measurement> parse_cache(const std::string& text, const std::string& path) {
  toml::table t = parse_toml(text, path);
  auto schema = t["meta"]["schema"].value_exact<int64_t>();
  if (!schema)
    invalid(path + ": no [meta] schema: not an fftmux tuning cache");
  if (*schema != tuning_schema)
    invalid(path + " has schema " + std::to_string(*schema) + ", this fftmux reads schema " +
            std::to_string(tuning_schema) + "; the file is left as it is");
  std::vector<Measurement> out;
  if (const toml::array* all = t["measurement"].as_array())
    for (const toml::node& n : *all) {
      const toml::table* m = n.as_table();
      if (!m)
        invalid(path + ": every measurement must be a table ([[measurement]])");
      out.push_back(read_one(*m, path));
    }
  return out;
}

std::vector<Measurement> read_cache(const std::string& path) {
  return parse_cache(slurp(path), path);
}

std::string encode_index(const std::vector<Measurement>& all, const FileIdentity& id) {
  Out o;
  o.bytes.append(index_magic, sizeof index_magic);
  o.pod(id);
  o.pod(uint64_t(all.size()));
  for (const Measurement& m : all) {
    for (const std::string* s : {&m.problem, &m.family, &m.backend, &m.hardware, &m.variant,
                                 &m.runner_up, &m.timestamp, &m.reason})
      o.str(*s);
    for (double v :
         {m.median, m.spread, m.runner_up_median, m.gbps, m.plan, m.upload, m.execute, m.download})
      o.pod(v);
    o.pod(m.points);
    o.pod(m.batch);
    o.pod(uint8_t(m.failed));
    o.pod(uint32_t(m.times.size()));
    for (auto& [variant, t] : m.times) {
      o.str(variant);
      o.pod(t);
    }
  }
  return o.bytes;
}

std::optional<std::vector<Measurement>> decode_index(const std::string& bytes,
                                                     const FileIdentity& id) {
  try {
    In in{bytes};
    if (bytes.compare(0, sizeof index_magic, std::string(index_magic, sizeof index_magic)) != 0)
      return std::nullopt;
    in.at = sizeof index_magic;
    if (!(in.pod<FileIdentity>() == id))
      return std::nullopt;
    // The smallest entry: empty strings, no times. A count the bytes cannot
    // hold is damage, not a reason to allocate (a 106-byte file once asked
    // for 5.6e14 entries: tests/fuzz/regressions/index/huge_count).
    constexpr size_t smallest = 8 * sizeof(uint32_t) + 8 * sizeof(double) + 2 * sizeof(int64_t) +
                                sizeof(uint8_t) + sizeof(uint32_t);
    uint64_t count = in.pod<uint64_t>();
    if (count > (bytes.size() - in.at) / smallest)
      return std::nullopt;
    std::vector<Measurement> all(count);
    for (Measurement& m : all) {
      for (std::string* s : {&m.problem, &m.family, &m.backend, &m.hardware, &m.variant,
                             &m.runner_up, &m.timestamp, &m.reason})
        *s = in.str();
      for (double* v : {&m.median, &m.spread, &m.runner_up_median, &m.gbps, &m.plan, &m.upload,
                        &m.execute, &m.download})
        *v = in.pod<double>();
      m.points = in.pod<int64_t>();
      m.batch = in.pod<int64_t>();
      if (m.points < 1 || m.batch < 1) // what read_one guarantees
        return std::nullopt;
      m.failed = in.pod<uint8_t>();
      m.log_points = std::log2(double(m.points));
      for (uint32_t n = in.pod<uint32_t>(); n > 0; --n) {
        std::string v = in.str();
        m.times[v] = in.pod<double>();
      }
    }
    return all;
  } catch (const std::exception&) {
    return std::nullopt; // a damaged index is rebuilt from the TOML
  }
}

std::string write_cache_text(const std::vector<Measurement>& all) {
  std::ostringstream s;
  s << "# fftmux tuning cache: written by `fftmux autotune`, read when plans are routed.\n"
       "# config/tuning.example.toml documents every field.\n\n"
       "[meta]\nschema = "
    << tuning_schema << "\nfftmux = " << quote(FFTMUX_VERSION_STRING) << "\n";
  for (const Measurement& m : all) {
    s << "\n[[measurement]]\nproblem = " << quote(m.problem) << "\nfamily = " << quote(m.family)
      << "\npoints = " << m.points << "\nbatch = " << m.batch << "\nbackend = " << quote(m.backend)
      << "\nhardware = " << quote(m.hardware) << "\nvariant = " << quote(m.variant)
      << "\nmedian = " << number(m.median) << "\nspread = " << number(m.spread)
      << "\nrunner_up = " << quote(m.runner_up)
      << "\nrunner_up_median = " << number(m.runner_up_median) << "\ntimes = {";
    const char* sep = " ";
    for (auto& [v, t] : m.times) {
      s << sep << quote(v) << " = " << number(t);
      sep = ", ";
    }
    s << " }\ngbps = " << number(m.gbps) << "\nplan = " << number(m.plan)
      << "\nupload = " << number(m.upload) << "\nexecute = " << number(m.execute)
      << "\ndownload = " << number(m.download) << "\ntimestamp = " << quote(m.timestamp)
      << "\nfailed = " << (m.failed ? "true" : "false") << "\nreason = " << quote(m.reason) << "\n";
  }
  return s.str();
}

namespace {

// A cache its owner made read-only (no write permission for anyone) is
// left as it is, even where the folder would let it be replaced.
void refuse_read_only(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !(st.st_mode & 0222)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    fail(FFTMUX_ERROR_IO, std::string("it is read-only (mode ") + mode +
                              "); fftmux reads such a cache but never replaces it");
  }
}

// Re-reads the file under its lock, lets change edit the entries, and
// replaces the file atomically. A file of another schema is left as it is
// (Error); an unreadable one is kept aside as <path>.corrupt.
void rewrite_locked(const std::string& path, std::vector<std::string>& notes,
                    const std::function<void(std::vector<Measurement>&)>& change) {
  refuse_read_only(path);
  FileLock lock(path);
  remove_stale_temporaries(path);
  std::vector<Measurement> all;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    try {
      all = read_cache(path);
    } catch (const Error& e) {
      if (is_schema_error(e) || e.status() == FFTMUX_ERROR_IO)
        throw;
      std::string aside = path + ".corrupt";
      fs::rename(path, aside, ec);
      notes.push_back(std::string("the tuning cache could not be read (") + e.what() +
                      "); it was moved to " + aside + " and a new one started");
    }
  }
  change(all);
  write_file_atomic(path, write_cache_text(all));
  store_index(path, all);
}

void rewrite(const std::string& path, std::vector<std::string>& notes,
             const std::function<void(std::vector<Measurement>&)>& change) {
  try {
    rewrite_locked(path, notes, change);
  } catch (const Error& e) {
    if (e.status() != FFTMUX_ERROR_IO)
      throw;
    fail(FFTMUX_ERROR_IO, "the tuning cache " + path + " was not written: " + e.what());
  }
}

// Whether fresh takes the place of old under the rule how. Timestamps are
// RFC 3339 UTC of one width, so text order is time order.
bool takes_over(const Measurement& old, const Measurement& fresh, Merge how) {
  return how == Merge::replace || fresh.timestamp > old.timestamp;
}

} // namespace

void merge_cache(const std::string& path, const std::vector<Measurement>& fresh,
                 std::vector<std::string>& notes, Merge how) {
  rewrite(path, notes, [&](std::vector<Measurement>& all) {
    std::unordered_map<std::string, size_t> at;
    for (size_t i = 0; i < all.size(); ++i)
      at[identity_key(all[i])] = i;
    for (const Measurement& m : fresh) {
      auto it = at.find(identity_key(m));
      if (it == at.end()) {
        at[identity_key(m)] = all.size();
        all.push_back(m);
      } else if (takes_over(all[it->second], m, how)) {
        all[it->second] = m;
      }
    }
  });
}

size_t clear_cache(const std::string& path, const std::string& backend,
                   std::vector<std::string>& notes) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    return 0;
  size_t removed = 0;
  rewrite(path, notes, [&](std::vector<Measurement>& all) {
    auto gone = std::remove_if(all.begin(), all.end(), [&](const Measurement& m) {
      return backend.empty() || m.backend == backend;
    });
    removed = size_t(all.end() - gone);
    all.erase(gone, all.end());
  });
  return removed;
}

void TuningCache::load(const std::vector<std::string>& paths, std::vector<std::string>& notes) {
  std::vector<Measurement> all;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path.empty() || !fs::exists(path, ec))
      continue;
    try {
      for (Measurement& m : load_indexed(path))
        all.push_back(std::move(m));
    } catch (const Error& e) {
      notes.push_back(std::string("tuning cache ignored, routing uses estimates: ") + e.what());
      log(Level::warn, notes.back());
    }
  }
  assign(std::move(all));
}

namespace {

// Sizes with a prime factor above 16 run Rader's or Bluestein's algorithm,
// whose cost a point follows another curve than smooth sizes': neither is
// interpolated from the other (R2C 8192, between 2048 and 10007, took
// 10007's route, FFTW's estimating planner, 1.56x the measured plan's time).
constexpr int64_t largest_smooth_prime = 16;

bool rough(int64_t points) {
  for (int64_t p = 2; p <= largest_smooth_prime; ++p)
    while (points % p == 0)
      points /= p;
  return points > 1;
}

std::string neighbours_key(const std::string& family, int64_t points, const std::string& backend,
                           const std::string& hardware) {
  return family + (rough(points) ? " rough" : "") + '\n' + backend + '\n' +
         hardware_class(hardware);
}

} // namespace

void TuningCache::assign(std::vector<Measurement> entries) {
  entries_ = std::move(entries);
  exact_.clear();
  neighbours_.clear();
  for (size_t i = 0; i < entries_.size(); ++i)
    exact_[identity_key(entries_[i])] = i; // later files win
  for (auto& [key, i] : exact_) {
    const Measurement& m = entries_[i];
    neighbours_[neighbours_key(m.family, m.points, m.backend, m.hardware)].push_back(i);
  }
  for (auto& [key, list] : neighbours_)
    std::sort(list.begin(), list.end(),
              [&](size_t a, size_t b) { return entries_[a].log_points < entries_[b].log_points; });
}

std::vector<Measurement> TuningCache::entries() const {
  std::vector<size_t> kept;
  for (auto& [key, i] : exact_)
    kept.push_back(i);
  std::sort(kept.begin(), kept.end());
  std::vector<Measurement> out;
  for (size_t i : kept)
    out.push_back(entries_[i]);
  return out;
}

const Measurement* TuningCache::exact(const std::string& problem, const std::string& backend,
                                      const std::string& hardware) const {
  auto it = exact_.find(problem + '\n' + backend + '\n' + hardware_class(hardware));
  return it == exact_.end() ? nullptr : &entries_[it->second];
}

std::optional<Estimate> TuningCache::interpolate(const Problem& p, const std::string& backend,
                                                 const std::string& hardware,
                                                 const std::string& variant) const {
  auto it = neighbours_.find(neighbours_key(family_key(p.desc), p.points, backend, hardware));
  if (it == neighbours_.end())
    return std::nullopt;
  // Cost per element and stage, which varies slowly with size.
  auto cost = [](const Measurement& m, double t) {
    return t / (double(m.points) * double(m.batch) * std::max(1.0, m.log_points));
  };
  double x = std::log2(double(p.points));
  const std::vector<size_t>& list = it->second;
  auto usable = [&](size_t i) { return !entries_[i].failed && entries_[i].times.count(variant); };
  // The nearest usable neighbour on each side, found from the sorted position.
  auto at = std::lower_bound(list.begin(), list.end(), x,
                             [&](size_t i, double v) { return entries_[i].log_points < v; });
  const Measurement *lo = nullptr, *hi = nullptr;
  for (auto i = at; i != list.end() && !hi; ++i)
    if (usable(*i))
      hi = &entries_[*i];
  for (auto i = at; i != list.begin() && !lo;)
    if (usable(*--i))
      lo = &entries_[*i];
  if (hi && hi->log_points == x && !lo)
    lo = hi;
  double scale = double(p.points) * double(p.desc.batch) * std::max(1.0, x);
  if (lo && hi && lo != hi) {
    double c0 = cost(*lo, lo->times.at(variant)), c1 = cost(*hi, hi->times.at(variant));
    double f = (x - lo->log_points) / (hi->log_points - lo->log_points);
    return Estimate{(c0 + (c1 - c0) * f) * scale, "interpolated between " +
                                                      std::to_string(lo->points) + " and " +
                                                      std::to_string(hi->points) + " points"};
  }
  const Measurement* one = lo ? lo : hi;
  if (one && std::abs(one->log_points - x) <= 2.0)
    return Estimate{cost(*one, one->times.at(variant)) * scale,
                    "extrapolated from " + std::to_string(one->points) + " points"};
  return std::nullopt;
}

} // namespace fftmux
