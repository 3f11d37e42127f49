// The CPU peers: FFTW called directly, as a user of its advanced interface
// would, and memcpy, the bandwidth limit of the CPU.
#include "cpu_engines.hpp"

#include "data.hpp"
#include "parallel.hpp"

#include <r2r.hpp>

#include <fftmux/desc_geometry.hpp>
#include <fftw3.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>

namespace bench {

namespace {

template <class R> struct Fftw;

#define BENCH_FFTW(R, P)                                                                           \
  template <> struct Fftw<R> {                                                                     \
    using plan = P##plan;                                                                          \
    using complex = P##complex;                                                                    \
    static constexpr auto dft = P##plan_many_dft;                                                  \
    static constexpr auto r2c = P##plan_many_dft_r2c;                                              \
    static constexpr auto c2r = P##plan_many_dft_c2r;                                              \
    static constexpr auto r2r = P##plan_many_r2r;                                                  \
    static constexpr auto run_r2r = P##execute_r2r;                                                \
    static constexpr auto run_dft = P##execute_dft;                                                \
    static constexpr auto run_r2c = P##execute_dft_r2c;                                            \
    static constexpr auto run_c2r = P##execute_dft_c2r;                                            \
    static constexpr auto destroy = P##destroy_plan;                                               \
    static constexpr auto init_threads = P##init_threads;                                          \
    static constexpr auto with_threads = P##plan_with_nthreads;                                    \
    static constexpr auto forget = P##forget_wisdom;                                               \
  };

BENCH_FFTW(double, fftw_)
BENCH_FFTW(float, fftwf_)
#undef BENCH_FFTW

// Host memory engines keep their three slots in arrays of their own.
class HostSlots {
public:
  explicit HostSlots(const Host& h)
      : host_(h), a_{aligned_bytes(h.in_bytes), aligned_bytes(h.out_bytes),
                     aligned_bytes(h.in_bytes)} {}
  unsigned char* at(Slot s) const { return a_[int(s)].get(); }
  void write(Slot s, const void* from) { std::memcpy(at(s), from, host_.bytes(s)); }
  void read(Slot s, void* to) const { std::memcpy(to, at(s), host_.bytes(s)); }
  void poison(Slot s) { std::memset(at(s), 0xFF, host_.bytes(s)); }
  const Host& host() const { return host_; }

private:
  Host host_;
  Aligned a_[3];
};

template <class R> class FftwRun : public Run {
public:
  FftwRun(const fftmux_desc& d, const Host& h, const FftwOptions& o) : d_(d), slots_(h), o_(o) {}
  ~FftwRun() override { release(); }

  void plan() override {
    release();
    int n[FFTMUX_MAX_RANK];
    std::copy(d_.n, d_.n + d_.rank, n);
    int rank = int(d_.rank), batch = int(d_.batch), real = int(points(d_));
    int spectrum = real / n[rank - 1] * (n[rank - 1] / 2 + 1);
    auto* in = slots_.at(Slot::in);
    auto* mid = slots_.at(Slot::mid);
    auto* back = slots_.at(Slot::back);
    F::with_threads(points(d_) * d_.batch < o_.thread_threshold ? 1 : o_.threads);
    if (d_.kind == FFTMUX_C2C) {
      fwd_ = F::dft(rank, n, batch, cx(in), nullptr, 1, real, cx(mid), nullptr, 1, real,
                    FFTW_FORWARD, o_.planner);
      inv_ = F::dft(rank, n, batch, cx(mid), nullptr, 1, real, cx(back), nullptr, 1, real,
                    FFTW_BACKWARD, o_.planner);
    } else if (d_.kind == FFTMUX_R2R) {
      fftw_r2r_kind fk[FFTMUX_MAX_RANK], ik[FFTMUX_MAX_RANK];
      for (int a = 0; a < rank; ++a) {
        fk[a] = fftmux::ref::fftw_kind(fftmux::geometry::r2r_kind(d_, uint32_t(a), FFTMUX_FORWARD));
        ik[a] = fftmux::ref::fftw_kind(fftmux::geometry::r2r_kind(d_, uint32_t(a), FFTMUX_INVERSE));
      }
      fwd_ = F::r2r(rank, n, batch, re(in), nullptr, 1, real, re(mid), nullptr, 1, real, fk,
                    o_.planner);
      inv_ = F::r2r(rank, n, batch, re(mid), nullptr, 1, real, re(back), nullptr, 1, real, ik,
                    o_.planner);
    } else {
      fwd_ = F::r2c(rank, n, batch, re(in), nullptr, 1, real, cx(mid), nullptr, 1, spectrum,
                    o_.planner);
      inv_ = F::c2r(rank, n, batch, cx(mid), nullptr, 1, spectrum, re(back), nullptr, 1, real,
                    o_.planner);
    }
    if (!fwd_ || !inv_)
      throw std::runtime_error("FFTW returned no plan");
  }
  void write(Slot s, const void* host) override { slots_.write(s, host); }
  void read(Slot s, void* host) override { slots_.read(s, host); }
  void poison(Slot s) override { slots_.poison(s); }
  void launch(int direction) override {
    bool f = direction == FFTMUX_FORWARD;
    run(direction, slots_.at(f ? Slot::in : Slot::mid), slots_.at(f ? Slot::mid : Slot::back));
  }
  void finish() override {}
  bool has_host_path() const override { return true; }
  void host(int direction, const void* in, void* out) override {
    run(direction, const_cast<void*>(in), out);
  }

private:
  using F = Fftw<R>;
  static typename F::complex* cx(void* p) { return static_cast<typename F::complex*>(p); }
  static R* re(void* p) { return static_cast<R*>(p); }

  void run(int direction, void* in, void* out) {
    bool f = direction == FFTMUX_FORWARD;
    if (d_.kind == FFTMUX_C2C)
      F::run_dft(f ? fwd_ : inv_, cx(in), cx(out));
    else if (d_.kind == FFTMUX_R2R)
      F::run_r2r(f ? fwd_ : inv_, re(in), re(out));
    else if (f)
      F::run_r2c(fwd_, re(in), cx(out));
    else
      F::run_c2r(inv_, cx(in), re(out));
  }
  void release() {
    for (auto* p : {&fwd_, &inv_})
      if (*p)
        F::destroy(std::exchange(*p, nullptr));
  }

  fftmux_desc d_;
  HostSlots slots_;
  FftwOptions o_;
  typename F::plan fwd_ = nullptr, inv_ = nullptr;
};

class FftwEngine : public Engine {
public:
  explicit FftwEngine(const FftwOptions& o) : o_(o) {
    Fftw<double>::init_threads();
    Fftw<float>::init_threads();
    info_.name = "fftw";
    info_.family = Family::peer;
    info_.device = Device::cpu;
    info_.version = fftw_version;
    info_.devices = cpu_description() + ", " + std::to_string(o.threads) + " threads";
  }
  const EngineInfo& info() const override { return info_; }
  std::string declines(const fftmux_desc& d) const override {
    return d.precision == FFTMUX_F16 || d.precision == FFTMUX_BF16 ? "FFTW has no 16-bit formats"
                                                                   : "";
  }
  std::unique_ptr<Run> open(const fftmux_desc& d, const Host& h) override {
    if (d.precision == FFTMUX_F64)
      return std::make_unique<FftwRun<double>>(d, h, o_);
    return std::make_unique<FftwRun<float>>(d, h, o_);
  }

private:
  FftwOptions o_;
  EngineInfo info_;
};

// Copies in -> mid (forward) and mid -> back (inverse) on all cores, each
// thread its share, as memory bandwidth needs several cores to fill.
class MemcpyRun : public Run {
public:
  explicit MemcpyRun(const Host& h) : slots_(h) {}
  void plan() override {}
  void write(Slot s, const void* host) override { slots_.write(s, host); }
  void read(Slot s, void* host) override { slots_.read(s, host); }
  void poison(Slot s) override { slots_.poison(s); }
  void launch(int direction) override {
    bool f = direction == FFTMUX_FORWARD;
    const unsigned char* from = slots_.at(f ? Slot::in : Slot::mid);
    unsigned char* to = slots_.at(f ? Slot::mid : Slot::back);
    int64_t bytes = int64_t(slots_.host().in_bytes);
    // FFTW's rule (one thread below 65536 complex f32 points): waking
    // threads costs more than small copies take.
    if (bytes < (int64_t(1) << 19))
      return (void)std::memcpy(to, from, size_t(bytes));
    int parts = workers().size();
    workers().run([&](int t) {
      int64_t lo = bytes * t / parts, hi = bytes * (t + 1) / parts;
      std::memcpy(to + lo, from + lo, size_t(hi - lo));
    });
  }
  void finish() override {}

private:
  HostSlots slots_;
};

class MemcpyEngine : public Engine {
public:
  MemcpyEngine() {
    info_.name = "memcpy";
    info_.family = Family::copy;
    info_.device = Device::cpu;
    info_.version = "libc";
    info_.devices = cpu_description() + ", " + std::to_string(workers().size()) + " threads";
  }
  const EngineInfo& info() const override { return info_; }
  std::unique_ptr<Run> open(const fftmux_desc&, const Host& h) override {
    return std::make_unique<MemcpyRun>(h);
  }

private:
  EngineInfo info_;
};

} // namespace

std::string cpu_description() {
  static const std::string model = [] {
    FILE* f = std::fopen("/proc/cpuinfo", "r");
    std::string name = "unknown CPU";
    char line[512];
    while (f && std::fgets(line, sizeof line, f))
      if (std::strncmp(line, "model name", 10) == 0) {
        const char* colon = std::strchr(line, ':');
        name = colon ? colon + 2 : line;
        name.erase(name.find_last_not_of(" \n") + 1);
        break;
      }
    if (f)
      std::fclose(f);
    return name;
  }();
  return model;
}

void forget_fftw_wisdom() {
  Fftw<double>::forget();
  Fftw<float>::forget();
}

void add_cpu_engines(const FftwOptions& o, Engines& out) {
  out.push_back(std::make_unique<FftwEngine>(o));
  out.push_back(std::make_unique<MemcpyEngine>());
}

} // namespace bench
