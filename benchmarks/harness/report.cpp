#include "report.hpp"

#include "problems.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace bench {

namespace {

using Cell = nlohmann::json;

bool ok(const Row& r) {
  return r.status == "ok";
}

// A number of a measured row; null elsewhere.
Cell measured(const Row& r, double v) {
  return ok(r) && std::isfinite(v) ? Cell(v) : Cell();
}

Cell rate(const Row& r, double amount) {
  return amount > 0 && r.stats.median > 0 ? measured(r, amount / r.stats.median / 1e9) : Cell();
}

// A verification figure, present once the verification ran.
Cell checked(double v) {
  return v >= 0 ? Cell(v) : Cell();
}

struct Column {
  const char* name;
  Cell (*get)(const Row&);
};

const Column columns[] = {
    {"set", [](const Row& r) { return Cell(r.set); }},
    {"problem", [](const Row& r) { return Cell(describe(r.desc)); }},
    {"kind", [](const Row& r) { return Cell(kind_name(r.desc)); }},
    {"precision", [](const Row& r) { return Cell(precision_name(r.desc.precision)); }},
    {"placement", [](const Row& r) { return Cell(placement_name(r.desc.placement)); }},
    {"rank", [](const Row& r) { return Cell(r.desc.rank); }},
    {"shape", [](const Row& r) { return Cell(shape_text(r.desc)); }},
    {"batch", [](const Row& r) { return Cell(r.desc.batch); }},
    {"points", [](const Row& r) { return Cell(points(r.desc)); }},
    {"elements", [](const Row& r) { return Cell(points(r.desc) * r.desc.batch); }},
    {"class", [](const Row& r) { return Cell(device_name(r.engine->device)); }},
    {"engine", [](const Row& r) { return Cell(r.engine->name); }},
    {"variant", [](const Row& r) { return Cell(r.variant); }},
    {"family", [](const Row& r) { return Cell(family_name(r.engine->family)); }},
    {"phase", [](const Row& r) { return Cell(r.phase); }},
    {"status", [](const Row& r) { return Cell(r.status); }},
    {"reason", [](const Row& r) { return Cell(r.reason); }},
    {"median_s", [](const Row& r) { return measured(r, r.stats.median); }},
    {"q1_s", [](const Row& r) { return measured(r, r.stats.q1); }},
    {"q3_s", [](const Row& r) { return measured(r, r.stats.q3); }},
    {"min_s", [](const Row& r) { return measured(r, r.stats.min); }},
    {"max_s", [](const Row& r) { return measured(r, r.stats.max); }},
    {"samples", [](const Row& r) { return ok(r) ? Cell(r.stats.samples) : Cell(); }},
    {"runs_per_sample",
     [](const Row& r) { return ok(r) ? Cell(r.stats.runs_per_sample) : Cell(); }},
    {"timer", [](const Row& r) { return Cell(r.timer); }},
    {"bytes", [](const Row& r) { return r.bytes > 0 ? Cell(r.bytes) : Cell(); }},
    {"gbps", [](const Row& r) { return rate(r, r.bytes); }},
    {"gflops", [](const Row& r) { return rate(r, r.flops); }},
    {"verified", [](const Row& r) { return Cell(r.verdict.ok); }},
    {"forward_error", [](const Row& r) { return checked(r.verdict.forward_error); }},
    {"round_trip_error", [](const Row& r) { return checked(r.verdict.round_trip_error); }},
    {"error_bound", [](const Row& r) { return checked(r.verdict.bound); }},
    {"rows_checked", [](const Row& r) { return Cell(r.verdict.rows_checked); }},
    {"rows_total", [](const Row& r) { return Cell(r.verdict.rows_total); }},
};

std::string csv_field(const Cell& c) {
  std::string s;
  if (c.is_null())
    return s;
  if (c.is_string())
    s = c.get<std::string>();
  else if (c.is_number_float()) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", c.get<double>());
    s = b;
  } else
    s = c.dump();
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char ch : s)
    q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

Cell engine_json(const EngineInfo& e) {
  return {{"name", e.name},
          {"family", family_name(e.family)},
          {"class", device_name(e.device)},
          {"version", e.version},
          {"devices", e.devices},
          {"skipped", e.skipped}};
}

// Writes through a temporary file and a rename.
template <class F> void replace_file(const std::string& path, F&& fill) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f)
      throw std::runtime_error("cannot write " + tmp);
    fill(f);
    if (!f)
      throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

} // namespace

const char* family_name(Family f) {
  return f == Family::fftmux ? "fftmux" : f == Family::peer ? "peer" : "copy";
}
const char* device_name(Device d) {
  return d == Device::gpu ? "gpu" : "cpu";
}

Stats summarize(std::vector<double> v, int runs_per_sample) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { // linear interpolation between order statistics
    double x = q * double(v.size() - 1);
    size_t i = size_t(x);
    return i + 1 < v.size() ? v[i] + (x - double(i)) * (v[i + 1] - v[i]) : v[i];
  };
  return {at(0.5), at(0.25), at(0.75), v.front(), v.back(), int(v.size()), runs_per_sample};
}

Report::Report(std::vector<std::pair<std::string, std::string>> meta,
               std::vector<const EngineInfo*> engines)
    : meta_(std::move(meta)), engines_(std::move(engines)) {}

void Report::write(const std::string& csv_path, const std::string& json_path) const {
  if (!csv_path.empty())
    replace_file(csv_path, [&](std::ostream& f) {
      for (const auto& [k, v] : meta_)
        f << "# " << k << ": " << v << "\n";
      for (const EngineInfo* e : engines_)
        f << "# engine " << e->name << ": " << family_name(e->family) << ", "
          << device_name(e->device) << ", " << e->version
          << (e->skipped.empty() ? ", " + e->devices : ", skipped: " + e->skipped) << "\n";
      for (const Column& c : columns)
        f << c.name << (&c == &columns[std::size(columns) - 1] ? "\n" : ",");
      for (const Row& r : rows_)
        for (const Column& c : columns)
          f << csv_field(c.get(r)) << (&c == &columns[std::size(columns) - 1] ? "\n" : ",");
    });
  if (json_path.empty())
    return;
  Cell j;
  j["meta"] = Cell::object();
  for (const auto& [k, v] : meta_)
    j["meta"][k] = v;
  j["engines"] = Cell::array();
  for (const EngineInfo* e : engines_)
    j["engines"].push_back(engine_json(*e));
  j["columns"] = Cell::array();
  for (const Column& c : columns)
    j["columns"].push_back(c.name);
  j["rows"] = Cell::array();
  for (const Row& r : rows_) {
    Cell row = Cell::object();
    for (const Column& c : columns)
      row[c.name] = c.get(r);
    j["rows"].push_back(std::move(row));
  }
  replace_file(json_path, [&](std::ostream& f) { f << j.dump(1) << "\n"; });
}

} // namespace bench
