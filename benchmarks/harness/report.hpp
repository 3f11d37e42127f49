// The results: one row per problem x engine x phase, written as CSV (the
// machine and versions in '#' lines on top) and as JSON ({"meta", "rows"}).
#pragma once

#include "data.hpp"
#include "engine.hpp"

#include <string>
#include <utility>
#include <vector>

namespace bench {

struct Stats {
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0; // seconds per transform
  int samples = 0;
  int runs_per_sample = 0;
};

// Median, quartiles and extremes of samples (not empty).
Stats summarize(std::vector<double> samples, int runs_per_sample);

struct Row {
  std::string set;
  fftmux_desc desc{};
  const EngineInfo* engine = nullptr;
  std::string
      phase; // plan_cold plan_warm upload forward inverse download copy; "none" when not run
  std::string status; // ok, failed, declined, skipped
  std::string reason;
  Stats stats;
  std::string timer;
  std::string variant; // what an engine with variants ran (EngineInfo::name may leave it out)
  double bytes = 0;    // traffic of one operation: one read and one write of the data
  double flops = 0;    // 5 N log2 N per complex transform, 2.5 N log2 N per real one, times batch
  Verdict verdict;
};

class Report {
public:
  // meta: ordered key/value pairs for the header; engines: every engine
  // considered, with its version, devices and why it was skipped.
  Report(std::vector<std::pair<std::string, std::string>> meta,
         std::vector<const EngineInfo*> engines);
  void add(Row row) { rows_.push_back(std::move(row)); }
  void note(const std::string& key, const std::string& value) { meta_.emplace_back(key, value); }
  const std::vector<Row>& rows() const { return rows_; }
  // Rewrites both files whole (temporary file, then rename), so a run cut
  // short leaves complete files of what it measured.
  void write(const std::string& csv_path, const std::string& json_path) const;

private:
  std::vector<std::pair<std::string, std::string>> meta_;
  std::vector<const EngineInfo*> engines_;
  std::vector<Row> rows_;
};

const char* family_name(Family f);
const char* device_name(Device d);

} // namespace bench
