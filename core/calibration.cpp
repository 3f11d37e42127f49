#include "calibration.hpp"

#include "error.hpp"
#include "log.hpp"
#include "paths.hpp"
#include "router.hpp"
#include "toml_util.hpp"
#include "trial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fftmux {

namespace fs = std::filesystem;

const char* const term_names[term_count] = {"launch",   "device_byte", "host_byte",
                                            "flop_f32", "f64_extra",   "claimed_second"};

std::array<double, term_count> terms(const Work& w, uint32_t precision) {
  std::array<double, term_count> t{};
  if (!w.reported()) {
    t[claimed_second] = std::max(0.0, w.claimed);
    return t;
  }
  t[launch] = w.launches;
  t[device_byte] = w.device_bytes;
  t[host_byte] = w.host_bytes;
  t[flop_f32] = w.flops;
  t[f64_extra] = precision == FFTMUX_F64 ? w.flops : 0;
  return t;
}

double Model::price(const Work& w, uint32_t precision, double points, bool odd_rows) const {
  std::array<double, term_count> t = terms(w, precision);
  double s = 0;
  bool priced = false; // some term of the work has a cost
  for (size_t i = 0; i < term_count; ++i) {
    s += t[i] * seconds[i];
    priced = priced || (t[i] > 0 && seconds[i] > 0);
  }
  double f = odd_rows && precision != FFTMUX_F64 ? odd : 1;
  return priced ? s * length_factor(points) * f : -1;
}

bool odd_rows(const fftmux_desc& d) {
  int64_t n = d.n[d.rank - 1];
  if (d.kind == FFTMUX_R2R || n % 2 == 0)
    return false;
  for (int64_t p : {3, 5, 7, 11, 13})
    while (n % p == 0)
      n /= p;
  return n == 1;
}

double Model::length_factor(double points) const {
  if (lengths.empty())
    return 1;
  if (points <= lengths.front().points)
    return lengths.front().factor;
  for (size_t i = 1; i < lengths.size(); ++i)
    if (points <= lengths[i].points) {
      const LengthFactor &a = lengths[i - 1], &b = lengths[i];
      double f = std::log2(points / a.points) / std::log2(b.points / a.points);
      return a.factor + f * (b.factor - a.factor);
    }
  return lengths.back().factor;
}

std::string Model::describe() const {
  char text[256];
  auto rate = [](double per_unit) { return per_unit > 0 ? 1e-9 / per_unit : 0.0; };
  std::snprintf(text, sizeof text,
                "%.3g us a launch, %.4g GB/s in its memory, %.4g GB/s to and from the host, "
                "%.4g GFLOP/s F32, %.4g GFLOP/s F64",
                seconds[launch] * 1e6, rate(seconds[device_byte]), rate(seconds[host_byte]),
                rate(seconds[flop_f32]), rate(seconds[flop_f32] + seconds[f64_extra]));
  std::string s = text;
  if (seconds[claimed_second] > 0)
    s += "; its own estimates x " + std::to_string(seconds[claimed_second]);
  for (size_t i = 0; i < lengths.size(); ++i) {
    std::snprintf(text, sizeof text, "%s x%.3g at %g points",
                  i ? "," : "; lengths:", lengths[i].factor, lengths[i].points);
    s += text;
  }
  if (odd != 1) {
    std::snprintf(text, sizeof text, "; F32 odd rows x%.3g", odd);
    s += text;
  }
  return s + " (fitted to " + probes + "; " + timestamp + ")";
}

// Coordinate descent on the normal equations of the rows x_i / t_i against
// 1, each cost clamped at 0; the columns scaled to unit length first.
std::array<double, term_count> fit(const std::vector<std::array<double, term_count>>& probes,
                                   const std::vector<double>& seconds) {
  std::array<double, term_count> theta{};
  if (probes.size() < 2)
    return theta;
  size_t rows = probes.size();
  std::vector<std::array<double, term_count>> a(rows);
  std::array<double, term_count> norm{};
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < term_count; ++j) {
      a[i][j] = probes[i][j] / seconds[i];
      norm[j] += a[i][j] * a[i][j];
    }
  for (size_t j = 0; j < term_count; ++j) {
    norm[j] = std::sqrt(norm[j]);
    for (size_t i = 0; i < rows && norm[j] > 0; ++i)
      a[i][j] /= norm[j];
  }
  std::array<double, term_count> z{};
  std::vector<double> r(rows, -1.0); // residual a z - 1
  for (int sweep = 0; sweep < 2000; ++sweep)
    for (size_t j = 0; j < term_count; ++j) {
      if (norm[j] == 0)
        continue;
      double g = 0;
      for (size_t i = 0; i < rows; ++i)
        g += a[i][j] * r[i];
      double next = std::max(0.0, z[j] - g); // columns of unit length: the Hessian's diagonal is 1
      for (size_t i = 0; i < rows; ++i)
        r[i] += a[i][j] * (next - z[j]);
      z[j] = next;
    }
  for (size_t j = 0; j < term_count; ++j)
    theta[j] = norm[j] > 0 ? z[j] / norm[j] : 0;
  return theta;
}

namespace {

constexpr int64_t model_schema = 4; // 3: a transform past the caches; 4: odd rows

struct Probe {
  int64_t n, batch; // batch 0: grown
  uint32_t precision, placement;
  double floor;     // seconds a grown probe's run takes at least
  bool odd = false; // not fitted: its time over its price is Model::odd
};

constexpr int64_t odd_probe = 16875; // 3^3 5^4: odd rows, beside the 16384-point probe

// Latency, throughput at five lengths, F64, the bus, and odd rows. But for the
// first, batches grow from 2^14 points until a run takes 3 ms (at 1 ms
// lavapipe's varied 2x between runs), so that a fast GPU is timed on
// enough data and a slow device on little; 2^20 points and the bus's until
// 10 ms, past the CPU's caches, where FFTW's passes stream through memory
// (3.8x its flops' time on the development machine) and host copies run
// slower (Vulkan's staged path on an H100 machine: 1.4-1.8x CUDA's at 32
// MiB a side, while a few MiB priced it cheaper).
const Probe probes[] = {{64, 1, FFTMUX_F32, FFTMUX_DEVICE, 0},
                        {256, 0, FFTMUX_F32, FFTMUX_DEVICE, 3e-3},
                        {16384, 0, FFTMUX_F32, FFTMUX_DEVICE, 3e-3},
                        {1 << 16, 0, FFTMUX_F32, FFTMUX_DEVICE, 3e-3},
                        {1 << 18, 0, FFTMUX_F32, FFTMUX_DEVICE, 3e-3},
                        {1 << 20, 0, FFTMUX_F32, FFTMUX_DEVICE, 1e-2},
                        {256, 0, FFTMUX_F64, FFTMUX_DEVICE, 3e-3},
                        {256, 0, FFTMUX_F32, FFTMUX_HOST, 1e-2},
                        {odd_probe, 0, FFTMUX_F32, FFTMUX_DEVICE, 3e-3, true}};
constexpr int64_t probe_start = 1 << 14; // points a grown probe starts with
constexpr int64_t probe_limit = 1 << 24; // elements a side at most

Problem probe_problem(const Probe& p, int64_t batch, bool buffers) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.n[0] = p.n;
  d.batch = batch;
  d.precision = p.precision;
  d.placement = buffers ? p.placement : uint32_t(FFTMUX_HOST);
  return validate(&d);
}

// The median of runs (after the warm-up the caller ran): 3 and 20 ms at
// least, 50 or a tenth of a second at most.
double time_runs(Trial& t) {
  std::vector<double> runs;
  double total = 0;
  while (runs.size() < 50 && total < 0.1 && (runs.size() < 3 || total < 0.02)) {
    runs.push_back(timed([&] { t.run(); }));
    total += runs.back();
  }
  return quantile(runs, 0.5);
}

// One probe: its work as the backend answers it and its time; false when
// the backend declines it.
bool run_probe(Backend& b, const Probe& probe, std::array<double, term_count>& x, double& seconds,
               std::string& line) {
  int64_t batch = probe.batch ? probe.batch : std::max<int64_t>(1, probe_start / probe.n);
  bool buffers = b.table().buffer_alloc != nullptr;
  if (probe.placement == FFTMUX_HOST && !buffers)
    return false; // the same as its DEVICE probe
  for (;;) {
    Problem p = probe_problem(probe, batch, buffers);
    std::vector<Candidate> answers = ask(b, p);
    if (answers.empty() || !answers.front().accepted)
      return false;
    Trial t;
    t.c = answers.front();
    t.problem = p;
    t.prepare(1, false);
    t.run(); // warm-up
    // The faster of two runs: one stall of a loaded machine (a 129 us run
    // timed over 3 ms) would stop the batch's growth.
    double once = std::min(timed([&] { t.run(); }), timed([&] { t.run(); }));
    if (probe.batch == 0 && once < probe.floor && batch * probe.n * 2 <= probe_limit) {
      double factor = std::ceil(2 * probe.floor / std::max(once, 1e-7)); // past the floor at once
      batch = std::min<int64_t>(batch * int64_t(std::min(factor, 256.0)), probe_limit / probe.n);
      continue;
    }
    seconds = time_runs(t);
    x = terms(t.c.work, probe.precision);
    char text[128];
    std::snprintf(text, sizeof text, "c2c %s %lld x%lld %s %.4g us",
                  probe.precision == FFTMUX_F64 ? "f64" : "f32", (long long)probe.n,
                  (long long)batch, p.desc.placement == FFTMUX_DEVICE ? "device" : "host",
                  seconds * 1e6);
    line += (line.empty() ? "" : ", ") + std::string(text);
    return true;
  }
}

// The terms' price under the model's costs, before any length or odd factor.
double terms_price(const Model& m, const std::array<double, term_count>& x) {
  double priced = 0;
  for (size_t j = 0; j < term_count; ++j)
    priced += x[j] * m.seconds[j];
  return priced;
}

// Each grown F32 probe of the backend's own memory: its time over the
// fitted price, by its length (what the terms cannot say of a length).
std::vector<LengthFactor> lengths_of(const Model& m, const std::vector<const Probe*>& ran,
                                     const std::vector<std::array<double, term_count>>& x,
                                     const std::vector<double>& t) {
  std::vector<LengthFactor> out;
  for (size_t i = 0; i < ran.size(); ++i) {
    const Probe& p = *ran[i];
    if (p.batch || p.precision != FFTMUX_F32 || p.placement != FFTMUX_DEVICE)
      continue;
    double priced = terms_price(m, x[i]);
    if (priced > 0)
      out.push_back({double(p.n), t[i] / priced});
  }
  if (out.size() < 2) // one length says nothing of lengths: the fit's level stands
    out.clear();
  return out; // the probes' table is in ascending length
}

std::string key_of(const std::string& backend, const std::string& hardware) {
  return backend + '\n' + hardware;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s)
    out += c == '"' || c == '\\' ? std::string("\\") + c : c == '\n' ? "\\n" : std::string(1, c);
  return out + '"';
}

std::string text_of(const std::vector<Model>& all) {
  std::ostringstream s;
  s << "# fftmux device models (docs/routing.md), measured on first need; delete to remeasure.\n"
    << "[meta]\nschema = " << model_schema << "\nfftmux = " << quote(FFTMUX_VERSION_STRING) << '\n';
  for (const Model& m : all) {
    s << "\n[[model]]\nbackend = " << quote(m.backend) << "\nhardware = " << quote(m.hardware)
      << '\n';
    char v[64];
    for (int i = 0; i < term_count; ++i) {
      std::snprintf(v, sizeof v, "%.6e", m.seconds[size_t(i)]);
      s << term_names[i] << " = " << v << '\n';
    }
    s << "lengths = [";
    for (size_t i = 0; i < m.lengths.size(); ++i) {
      std::snprintf(v, sizeof v, "%s[%.0f, %.6e]", i ? ", " : "", m.lengths[i].points,
                    m.lengths[i].factor);
      s << v;
    }
    std::snprintf(v, sizeof v, "%.6e", m.odd);
    s << "]\nodd = " << v << "\nprobes = " << quote(m.probes)
      << "\ntimestamp = " << quote(m.timestamp) << '\n';
  }
  return s.str();
}

std::string string_at(const toml::table& t, const char* key, const std::string& where) {
  auto v = t[key].value<std::string>();
  if (!v)
    invalid(where + ": " + key + " must be a string");
  return *v;
}

// [[points, factor], ...]: points ascending, both positive and finite.
std::vector<LengthFactor> lengths_at(const toml::table& t, const std::string& where) {
  const toml::array* a = t["lengths"].as_array();
  if (!a)
    invalid(where + ": lengths must be an array of [points, factor] pairs");
  std::vector<LengthFactor> out;
  for (const toml::node& n : *a) {
    const toml::array* pair = n.as_array();
    auto points = pair && pair->size() == 2 ? (*pair)[0].value<double>() : std::nullopt;
    auto factor = pair && pair->size() == 2 ? (*pair)[1].value<double>() : std::nullopt;
    if (!points || !factor || !(*points > 0) || !(*factor > 0) || !std::isfinite(*points) ||
        !std::isfinite(*factor) || (!out.empty() && *points <= out.back().points))
      invalid(where + ": lengths must hold [points, factor] pairs of positive numbers, "
                      "points ascending");
    out.push_back({*points, *factor});
  }
  return out;
}

} // namespace

std::vector<Model> read_models(const std::string& path) {
  std::ifstream f(path);
  if (!f)
    return {};
  std::stringstream text;
  text << f.rdbuf();
  toml::table t = parse_toml(text.str(), path);
  if (t["meta"]["schema"].value<int64_t>() != model_schema ||
      t["meta"]["fftmux"].value<std::string>() != std::string(FFTMUX_VERSION_STRING))
    return {}; // another version's models: measured again
  std::vector<Model> out;
  const toml::array* models = t["model"].as_array();
  for (size_t i = 0; models && i < models->size(); ++i) {
    const toml::table* m = (*models)[i].as_table();
    std::string where = path + ": model " + std::to_string(i + 1);
    if (!m)
      invalid(where + " is not a table");
    Model one;
    one.backend = string_at(*m, "backend", where);
    one.hardware = string_at(*m, "hardware", where);
    one.probes = string_at(*m, "probes", where);
    one.timestamp = string_at(*m, "timestamp", where);
    for (int j = 0; j < term_count; ++j) {
      auto v = (*m)[term_names[j]].value<double>();
      if (!v || !(*v >= 0) || !std::isfinite(*v))
        invalid(where + ": " + term_names[j] + " must be a number, 0 or more");
      one.seconds[size_t(j)] = *v;
    }
    one.lengths = lengths_at(*m, where);
    auto odd = (*m)["odd"].value<double>();
    if (!odd || !(*odd > 0) || !std::isfinite(*odd))
      invalid(where + ": odd must be a positive number");
    one.odd = *odd;
    out.push_back(one);
  }
  return out;
}

void merge_model(const std::string& path, const Model& model) {
  FileLock lock(path);
  std::vector<Model> all;
  try {
    all = read_models(path);
  } catch (const Error& e) {
    std::error_code ec;
    fs::rename(path, path + ".corrupt", ec);
    log(Level::warn, std::string(e.what()) + "; the file was moved to " + path +
                         ".corrupt and a new one started");
  }
  auto same = [&](const Model& m) {
    return key_of(m.backend, m.hardware) == key_of(model.backend, model.hardware);
  };
  all.erase(std::remove_if(all.begin(), all.end(), same), all.end());
  all.push_back(model);
  write_file_atomic(path, text_of(all));
}

std::shared_ptr<const Model> Calibrations::get(Backend& b, bool measure_now, std::string& note) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!loaded_) {
    loaded_ = true;
    try {
      for (Model& m : read_models(path))
        models_[key_of(m.backend, m.hardware)] = std::make_shared<Model>(m);
    } catch (const Error& e) {
      log(Level::warn, std::string(e.what()) + "; the backends are measured again");
    }
  }
  std::string key = key_of(b.name(), b.hardware_key());
  if (auto it = models_.find(key); it != models_.end())
    return it->second;
  if (auto it = failed_.find(key); it != failed_.end()) {
    note = it->second;
    return nullptr;
  }
  if (!measure_now) {
    note = "not calibrated yet: it is the only backend that accepts the problem";
    return nullptr;
  }
  return measure(b, note);
}

std::shared_ptr<const Model> Calibrations::measure(Backend& b, std::string& note) {
  std::string key = key_of(b.name(), b.hardware_key());
  auto m = std::make_shared<Model>();
  m->backend = b.name();
  m->hardware = b.hardware_key();
  std::vector<std::array<double, term_count>> x;
  std::vector<double> t;
  std::vector<const Probe*> ran;
  bool f64 = false;
  std::array<double, term_count> odd_row{};
  double odd_seconds = 0;
  for (const Probe& p : probes) {
    std::array<double, term_count> row{};
    double seconds = 0;
    try {
      if (!run_probe(b, p, row, seconds, m->probes))
        continue;
    } catch (const Error& e) {
      log(Level::info, b.name() + ": a calibration probe failed: " + e.what());
      continue;
    }
    if (p.odd) {
      odd_row = row;
      odd_seconds = seconds;
      continue;
    }
    x.push_back(row);
    t.push_back(seconds);
    ran.push_back(&p);
    f64 = f64 || p.precision == FFTMUX_F64;
  }
  if (x.size() < 2) {
    note = "not calibrated: fewer than two probe plans ran";
    failed_[key] = note;
    return nullptr;
  }
  m->seconds = fit(x, t);
  if (!f64) // no F64 probe ran: a double-precision flop as two single ones
    m->seconds[f64_extra] = m->seconds[flop_f32];
  m->lengths = lengths_of(*m, ran, x, t);
  double odd_priced = terms_price(*m, odd_row);
  if (odd_priced > 0 && odd_seconds > 0)
    m->odd = odd_seconds / (odd_priced * m->length_factor(double(odd_probe)));
  if (std::all_of(m->seconds.begin(), m->seconds.end(), [](double v) { return v == 0; })) {
    note = "not calibrated: it reports neither its work nor an estimate";
    failed_[key] = note;
    return nullptr;
  }
  m->timestamp = utc_now();
  try {
    merge_model(path, *m);
  } catch (const Error& e) {
    log(Level::warn, "the device model of " + b.name() + " was not saved: " + e.what());
  }
  models_[key] = m;
  return m;
}

} // namespace fftmux
