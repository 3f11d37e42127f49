// fftmux's backends, every variant of each, forced through the public C API:
// what a user who names a backend gets.
#include "fftmux_engines.hpp"

#include <regex>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace bench {

namespace {

void check(fftmux_status s, const char* what) {
  if (s != FFTMUX_OK)
    throw std::runtime_error(std::string(what) + ": " + fftmux_last_error());
}

// The inverse problem of a real transform is a plan of its own in fftmux.
fftmux_desc inverse_of(const fftmux_desc& d) {
  fftmux_desc r = d;
  if (d.kind == FFTMUX_R2C)
    r.kind = FFTMUX_C2R;
  return r;
}

struct Plan {
  fftmux_plan p = nullptr;
  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() { reset(); }
  void reset() {
    if (p)
      fftmux_plan_destroy(std::exchange(p, nullptr));
  }
};

struct Buffer {
  fftmux_buffer b = nullptr;
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (b)
      fftmux_buffer_destroy(b);
  }
};

class FftmuxRun : public Run {
public:
  FftmuxRun(fftmux_context ctx, const std::string& backend, const std::string& variant,
            const fftmux_desc& d, const Host& h)
      : ctx_(ctx), backend_(backend), variant_(variant), d_(d), host_(h) {
    // HOST problems run through fftmux_execute on host memory; DEVICE ones
    // on the backend's buffers.
    if (d.placement != FFTMUX_DEVICE)
      return;
    for (Slot s : {Slot::in, Slot::mid, Slot::back})
      check(fftmux_buffer_create(ctx, backend.c_str(), h.bytes(s), &buf_[int(s)].b),
            "fftmux_buffer_create");
  }

  void plan() override {
    fwd_.reset();
    inv_.reset();
    fftmux_plan_options o;
    fftmux_plan_options_init(&o);
    o.backend = backend_.c_str();
    o.variant = variant_.empty() ? nullptr : variant_.c_str(); // none named: the backend's pick
    check(fftmux_plan_create(ctx_, &d_, &o, &fwd_.p), "fftmux_plan_create");
    if (d_.kind != FFTMUX_C2C) {
      fftmux_desc inverse = inverse_of(d_);
      check(fftmux_plan_create(ctx_, &inverse, &o, &inv_.p), "fftmux_plan_create (C2R)");
    }
  }
  void write(Slot s, const void* host) override {
    check(fftmux_buffer_write(buffer(s), 0, host, host_.bytes(s)), "fftmux_buffer_write");
  }
  void read(Slot s, void* host) override {
    finish();
    check(fftmux_buffer_read(buffer(s), 0, host, host_.bytes(s)), "fftmux_buffer_read");
  }
  void poison(Slot s) override {
    std::vector<unsigned char> nan(host_.bytes(s), 0xFF);
    write(s, nan.data());
  }
  void launch(int direction) override {
    bool f = direction == FFTMUX_FORWARD;
    check(fftmux_execute_buffers(plan_for(direction), direction, buffer(f ? Slot::in : Slot::mid),
                                 buffer(f ? Slot::mid : Slot::back)),
          "fftmux_execute_buffers");
  }
  void finish() override {
    for (fftmux_plan p : {fwd_.p, inv_.p})
      if (p)
        check(fftmux_plan_synchronize(p), "fftmux_plan_synchronize");
  }
  const char* timer() const override { return "wall+sync"; }
  std::string variant() const override {
    const char *backend = nullptr, *variant = nullptr;
    if (!fwd_.p || fftmux_plan_backend(fwd_.p, &backend, &variant) != FFTMUX_OK || !variant)
      return "";
    return variant;
  }
  bool has_host_path() const override { return true; }
  void host(int direction, const void* in, void* out) override {
    check(fftmux_execute(plan_for(direction), direction, in, out), "fftmux_execute");
  }

private:
  fftmux_plan plan_for(int direction) const {
    return direction == FFTMUX_INVERSE && inv_.p ? inv_.p : fwd_.p;
  }
  fftmux_buffer buffer(Slot s) const {
    if (!buf_[int(s)].b)
      throw std::logic_error("a HOST problem has no fftmux buffers");
    return buf_[int(s)].b;
  }

  fftmux_context ctx_;
  std::string backend_, variant_;
  fftmux_desc d_;
  Host host_;
  Buffer buf_[3];
  Plan fwd_, inv_;
};

class FftmuxEngine : public Engine {
public:
  FftmuxEngine(fftmux_context ctx, const fftmux_backend_info& b, const std::string& variant)
      : ctx_(ctx), backend_(b.name), variant_(variant) {
    info_.name = "fftmux:" + backend_ + (variant.empty() ? "" : "/" + variant);
    info_.family = Family::fftmux;
    info_.device = device_class(b.devices);
    info_.version = b.version;
    info_.devices = b.devices;
    if (b.state != FFTMUX_BACKEND_READY)
      info_.skipped = b.reason[0] ? b.reason : "backend not ready";
  }
  const EngineInfo& info() const override { return info_; }
  std::string declines(const fftmux_desc& d) const override {
    std::string why = declines_one(d);
    return why.empty() && d.kind != FFTMUX_C2C ? declines_one(inverse_of(d)) : why;
  }
  std::unique_ptr<Run> open(const fftmux_desc& d, const Host& h) override {
    return std::make_unique<FftmuxRun>(ctx_, backend_, variant_, d, h);
  }

private:
  std::string declines_one(const fftmux_desc& d) const {
    fftmux_support s;
    fftmux_support_init(&s);
    check(fftmux_query(ctx_, &d, backend_.c_str(), &s), "fftmux_query");
    if (!s.supported)
      return s.reason;
    if (variant_.empty())
      return "";
    std::stringstream list(s.variants);
    for (std::string v; std::getline(list, v, ',');)
      if (v == variant_)
        return "";
    return "variant " + variant_ + " declines (accepting: " + s.variants + ")";
  }

  fftmux_context ctx_;
  std::string backend_, variant_;
  EngineInfo info_;
};

} // namespace

Device device_class(const std::string& devices) {
  // Software rasterizers run GPU APIs on the CPU: they get the CPU's sizes.
  static const std::regex cpu(R"(\b(cpu|llvmpipe|lavapipe|softpipe|swiftshader)\b)",
                              std::regex::icase);
  return std::regex_search(devices, cpu) ? Device::cpu : Device::gpu;
}

void add_fftmux_engines(fftmux_context ctx, bool every_variant, Engines& out) {
  uint32_t count = 0;
  check(fftmux_backend_count(ctx, &count), "fftmux_backend_count");
  for (uint32_t i = 0; i < count; ++i) {
    fftmux_backend_info b;
    fftmux_backend_info_init(&b);
    check(fftmux_backend_get(ctx, i, FFTMUX_PROBE, &b), "fftmux_backend_get");
    out.push_back(std::make_unique<FftmuxEngine>(ctx, b, ""));
    std::stringstream list(b.variants);
    std::vector<std::string> variants;
    for (std::string v; std::getline(list, v, ',');)
      variants.push_back(v);
    // A single variant is what the backend picks anyway; a backend that is
    // not ready is reported once.
    if (every_variant && variants.size() > 1 && b.state == FFTMUX_BACKEND_READY)
      for (const std::string& v : variants)
        out.push_back(std::make_unique<FftmuxEngine>(ctx, b, v));
  }
}

} // namespace bench
