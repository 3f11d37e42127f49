// What the harness asks of every engine it measures: fftmux backends through
// the public C API, FFTW, cuFFT and VkFFT called directly, and the copies
// that give the bandwidth limit. The peer modules (cuFFT, VkFFT) implement
// this header too, so it holds no state of the harness.
#pragma once

#include <fftmux/fftmux.h>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

// Problems are sized per class: a GPU gets 2^27 elements per call, a CPU less.
enum class Device { cpu, gpu };

enum class Family {
  fftmux, // an fftmux backend and variant, forced through the C API
  peer,   // another library called directly
  copy    // a plain copy of the same bytes: the bandwidth limit
};

// The three arrays of a problem: the input, the forward result (mid) and the
// inverse result (back). Forward runs in -> mid, inverse mid -> back.
enum class Slot { in, mid, back };

// Host memory of one problem, owned by the harness and shared by every
// engine of a class, so all of them read the same data.
struct Host {
  const void* in = nullptr;
  void* mid = nullptr;
  void* back = nullptr;
  size_t in_bytes = 0;  // the input side (real for R2C)
  size_t out_bytes = 0; // the spectrum side
  size_t bytes(Slot s) const { return s == Slot::mid ? out_bytes : in_bytes; }
  void* at(Slot s) const {
    return s == Slot::in ? const_cast<void*>(in) : s == Slot::mid ? mid : back;
  }
};

// One problem opened on one engine: its memory, then its plans.
// Contract: write and read are synchronous and ordered after launched work.
class Run {
public:
  virtual ~Run() = default;
  // (Re)creates the plans of both directions; the harness times it.
  virtual void plan() = 0;
  virtual void write(Slot slot, const void* host) = 0;
  virtual void read(Slot slot, void* host) = 0;
  // Fills a slot with NaN, so that elements an engine leaves unwritten show.
  virtual void poison(Slot slot) = 0;
  // Starts one transform on engine memory: forward in -> mid, inverse mid -> back.
  virtual void launch(int direction) = 0;
  virtual void finish() = 0;
  // Seconds per transform of `runs` back-to-back launches, by the engine's
  // own timer: wall clock around the launches and one finish unless the
  // engine has device timers.
  virtual double time_launches(int direction, int runs);
  virtual const char* timer() const { return "wall"; }
  // The variant the plans run, where the engine has variants (fftmux's
  // backends, whose own pick it names); "" otherwise.
  virtual std::string variant() const { return ""; }
  // Engines with their own path from host memory to host memory (fftmux's
  // fftmux_execute, FFTW) run HOST placement through it; others upload,
  // launch and download.
  virtual bool has_host_path() const { return false; }
  virtual void host(int direction, const void* in, void* out);
};

struct EngineInfo {
  std::string name; // "fftw", "cufft", "fftmux:cuda/cufft", "memcpy"
  Family family = Family::peer;
  Device device = Device::cpu;
  std::string version; // of the library or backend
  std::string devices; // what it runs on
  std::string skipped; // why it cannot run at all on this machine, "" when it can
};

class Engine {
public:
  virtual ~Engine() = default;
  virtual const EngineInfo& info() const = 0;
  // Why the engine cannot run this problem, "" when it can.
  virtual std::string declines(const fftmux_desc& desc) const {
    (void)desc;
    return "";
  }
  // Allocates the problem's memory; plans come with Run::plan.
  virtual std::unique_ptr<Run> open(const fftmux_desc& desc, const Host& host) = 0;
};

using Engines = std::vector<std::unique_ptr<Engine>>;

// An engine that cannot run here, kept so every report says why.
class Skipped : public Engine {
public:
  explicit Skipped(EngineInfo i) : info_(std::move(i)) {}
  const EngineInfo& info() const override { return info_; }
  std::unique_ptr<Run> open(const fftmux_desc&, const Host&) override {
    throw std::logic_error(info_.name + " is skipped: " + info_.skipped);
  }

private:
  EngineInfo info_;
};

// Points of one transform (the real size for R2C), and the elements of the
// real or complex input side per transform.
int64_t points(const fftmux_desc& d);

// A module of peers exports this symbol: it appends its engines, or Skipped
// ones carrying the reason they cannot run.
using PeerEntry = void (*)(Engines* out);
#define FFTMUX_BENCH_PEER_ENTRY "fftmux_bench_peers"

} // namespace bench
