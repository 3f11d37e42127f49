// Device models for routing without measurements. A backend reports the
// work of the plan it would make (launches, bytes of its memory, bytes over
// the bus, flops: fftmux_answer_v1); the model says what each costs on the
// device it runs on, fitted once per hardware key to a few probe plans of
// the backend itself and kept in <cache dir>/calibration.toml. A software
// rasterizer is one more device with its measured costs (docs/routing.md).
#pragma once

#include "decision.hpp"

#include <fftmux/fftmux.h>

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace fftmux {

class Backend;

// The terms of a model, in the order of Model::seconds. An F64 flop costs
// an F32 flop's and f64_extra's: never less, which a fit to one F64 probe
// would otherwise allow (lavapipe's F64 flops came out free, and 1024x1024
// F64 priced at half its time).
enum Term { launch, device_byte, host_byte, flop_f32, f64_extra, claimed_second, term_count };
extern const char* const term_names[term_count];

// A candidate's work as the model's terms: a plugin that reports no work
// is priced by its own estimate (claimed_second) times a fitted factor.
std::array<double, term_count> terms(const Work& work, uint32_t precision);

// What one length of transform took over its fitted price, at a probe.
struct LengthFactor {
  double points, factor;
};

struct Model {
  std::string backend, hardware;
  std::array<double, term_count> seconds{}; // the cost of one unit of each term
  // The terms' sum misses costs that grow with a transform's length
  // (lavapipe ran 2^20 points at 1.4-2x the flops' price of 256): at the
  // throughput probes' lengths, ascending, their time over the fitted price.
  std::vector<LengthFactor> lengths;
  // F32 transforms whose rows are odd and smooth (no prime factor above 13) took this times
  // their price at the odd probe: vectors that lose their alignment, radices of 3 and 5, which
  // the backends' reported work prices by their own rules (FFTW's F32 odd rows ran 5x its F64's
  // time on an H100 machine's host, 1.6x on the development machine).
  double odd = 1;
  std::string probes; // what it was fitted to: "c2c f32 64 device 12 us; ..."
  std::string timestamp;
  // The work's price for transforms of points points: the terms' sum times
  // the length factor, interpolated in log2(points), and odd for F32 odd rows; < 0: no price.
  double price(const Work& work, uint32_t precision, double points, bool odd_rows = false) const;
  double length_factor(double points) const; // 1 where no probe measured it
  std::string describe() const;              // "12 us a launch, 21 GB/s, ... (probes: ...)"
};

// Whether a problem's rows (its last axis) are odd and smooth: what the odd probe measures.
bool odd_rows(const fftmux_desc& d);

// Least squares of the relative error with every cost >= 0: the model of
// probes (their terms) that took seconds. Fewer than two probes fit nothing.
std::array<double, term_count> fit(const std::vector<std::array<double, term_count>>& probes,
                                   const std::vector<double>& seconds);

// The models a context uses, by backend: read from the file, else measured
// on first need and merged into it.
class Calibrations {
public:
  std::string path; // the models' file: <cache dir>/calibration.toml

  // The backend's model from memory or the file; else, when measure is
  // set, measured now and saved. Null where there is none (why in note).
  std::shared_ptr<const Model> get(Backend& backend, bool measure, std::string& note);

private:
  std::shared_ptr<const Model> measure(Backend& backend, std::string& note);

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Model>> models_; // by backend and hardware key
  std::map<std::string, std::string> failed_;                  // by the same key: why
  bool loaded_ = false;
};

// The file's models; a missing file has none; a damaged one is reported
// (Error) and left as it is.
std::vector<Model> read_models(const std::string& path);
// Replaces the model of the same backend and hardware key, under the file's
// lock, keeping the others.
void merge_model(const std::string& path, const Model& model);

} // namespace fftmux
