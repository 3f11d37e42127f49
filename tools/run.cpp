// fftmux run: one transform, timed, optionally verified and saved.
#include "commands.hpp"
#include "npy/npy.hpp"

#include <fftmux/desc_geometry.hpp>
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace fftmux::cli {

namespace {

struct RunOptions {
  ProblemOptions problem;
  std::string direction = "forward";
  std::string input, output;
  bool verify = false, json = false;
  int repeat = 10, warmup = 2;
  uint64_t seed = 1;
  int64_t threads = 0; // 0: the backend's default
  std::string devices; // --devices: a count, or a comma-separated list of indices
  std::string order = "natural";
  bool shape_given = false;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The .npy dtype of a side: F16 and BF16 values widened to F32, as numpy has
// no complex half.
npy::Dtype side_dtype(const fftmux_desc& d, bool input) {
  bool real = geometry::real_side(d, input);
  if (d.precision == FFTMUX_F64)
    return real ? npy::Dtype::f64 : npy::Dtype::c128;
  return real ? npy::Dtype::f32 : npy::Dtype::c64;
}

// The packed shape of one side, with a leading batch axis when batch > 1.
std::vector<int64_t> side_shape(const fftmux_desc& d, bool input) {
  std::vector<int64_t> s;
  if (d.batch > 1)
    s.push_back(d.batch);
  for (uint32_t i = 0; i < d.rank; ++i) // the held array of a padded side
    s.push_back(geometry::held_extent(d, input, i));
  return s;
}

ref::Values to_values(const npy::Array& a) {
  size_t count = a.data.size() / npy::item_size(a.dtype);
  ref::Values v(count);
  for (size_t i = 0; i < count; ++i) {
    const unsigned char* p = a.data.data() + i * npy::item_size(a.dtype);
    auto get = [&](auto zero, int k) {
      decltype(zero) x;
      std::memcpy(&x, p + k * sizeof x, sizeof x);
      return double(x);
    };
    switch (a.dtype) {
    case npy::Dtype::f32: v[i] = {get(0.0f, 0), 0}; break;
    case npy::Dtype::f64: v[i] = {get(0.0, 0), 0}; break;
    case npy::Dtype::c64: v[i] = {get(0.0f, 0), get(0.0f, 1)}; break;
    case npy::Dtype::c128: v[i] = {get(0.0, 0), get(0.0, 1)}; break;
    }
  }
  return v;
}

npy::Array to_array(const fftmux_desc& d, const ref::Values& v) {
  npy::Array a;
  a.dtype = side_dtype(d, false);
  a.shape = side_shape(d, false);
  a.data.resize(v.size() * npy::item_size(a.dtype));
  unsigned char* p = a.data.data();
  for (const auto& x : v) {
    auto put = [&](auto value) {
      std::memcpy(p, &value, sizeof value);
      p += sizeof value;
    };
    bool real = a.dtype == npy::Dtype::f32 || a.dtype == npy::Dtype::f64;
    bool f64 = a.dtype == npy::Dtype::f64 || a.dtype == npy::Dtype::c128;
    f64 ? put(x.real()) : put(float(x.real()));
    if (!real)
      f64 ? put(x.imag()) : put(float(x.imag()));
  }
  return a;
}

// Fits the descriptor to an .npy input: its dtype sets the precision (but
// for --precision f16 or bf16, to which the values are rounded), its shape
// the sizes (unless --shape was given) and must match them.
ref::Values load_input(RunOptions& o, fftmux_desc& d) {
  npy::Array a = npy::read(o.input);
  bool real = a.dtype == npy::Dtype::f32 || a.dtype == npy::Dtype::f64;
  if (real != geometry::real_side(d, true))
    throw std::runtime_error(o.input + " holds " + npy::dtype_name(a.dtype) + ", but a " +
                             o.problem.kind + " transform takes " +
                             (geometry::real_side(d, true) ? "real" : "complex") + " input");
  if (!geometry::half_storage(d.precision))
    d.precision =
        (a.dtype == npy::Dtype::f64 || a.dtype == npy::Dtype::c128) ? FFTMUX_F64 : FFTMUX_F32;
  if (!o.shape_given) {
    if (d.kind == FFTMUX_C2R)
      throw std::runtime_error("a c2r input cannot tell the real size: give --shape");
    std::vector<int64_t> s = a.shape;
    if (d.batch > 1 && !s.empty())
      s.erase(s.begin());
    if (s.empty() || s.size() > FFTMUX_MAX_RANK)
      throw std::runtime_error(o.input + ": expected 1 to 3 transform axes after the batch axis");
    d.rank = uint32_t(s.size());
    std::copy(s.begin(), s.end(), d.n);
  }
  if (a.shape != side_shape(d, true)) {
    std::string want;
    for (int64_t n : side_shape(d, true))
      want += (want.empty() ? "" : ", ") + std::to_string(n);
    throw std::runtime_error(o.input + " has the wrong shape for this problem: expected (" + want +
                             ")");
  }
  return to_values(a);
}

struct Timing {
  double open = 0, plan = 0, median = 0, spread = 0;
};

// Whether --backend names one backend (not "auto", the router's choice).
bool named(const std::string& backend) {
  return !backend.empty() && backend != "auto";
}

// Opens the named backend (its plugin's probe: driver, device) before the
// plan, so that the plan's time is its own; seconds taken, 0 where none is
// named (the router then opens backends as it asks them).
double open_backend(const context& ctx, const std::string& name) {
  if (!named(name))
    return 0;
  auto t0 = Clock::now();
  std::vector<fftmux_backend_info> list = ctx.backends(false);
  for (uint32_t i = 0; i < list.size(); ++i)
    if (name == list[i].name) {
      fftmux_backend_info info;
      fftmux_backend_info_init(&info);
      fftmux_backend_get(ctx.get(), i, FFTMUX_PROBE, &info); // make_plan reports a failure
      break;
    }
  return seconds_since(t0);
}

template <class Step> Timing time_runs(const RunOptions& o, Step&& step) {
  for (int i = 0; i < o.warmup; ++i)
    step();
  std::vector<double> t;
  for (int i = 0; i < std::max(1, o.repeat); ++i) {
    auto start = Clock::now();
    step();
    t.push_back(seconds_since(start));
  }
  std::sort(t.begin(), t.end());
  Timing r;
  r.median = t[t.size() / 2];
  r.spread = t.back() - t.front();
  return r;
}

int run(RunOptions& o) {
  fftmux_desc d = o.problem.desc();
  int dir =
      choice("--direction", o.direction, {"forward", "inverse"}) ? FFTMUX_INVERSE : FFTMUX_FORWARD;
  if (o.direction == "forward" && d.kind == FFTMUX_C2R)
    dir = FFTMUX_INVERSE; // c2r only runs inverse: the default follows the kind
  std::vector<unsigned char> in;
  ref::Values given;
  if (!o.input.empty())
    given = load_input(o, d);
  fftmux_layout l = layout(d);
  in = given.empty() ? ref::random_input(d, o.seed) : std::vector<unsigned char>(l.in_bytes);
  if (!given.empty())
    ref::write_side(d, true, given, in.data());

  context ctx;
  double open_time = open_backend(ctx, o.problem.backend);
  auto t0 = Clock::now();
  if (o.threads < 0 || o.threads > int64_t(FFTMUX_MAX_THREADS))
    throw std::runtime_error("--threads " + std::to_string(o.threads) + ": must be from 0 (the " +
                             "backend's default) to " + std::to_string(FFTMUX_MAX_THREADS));
  fftmux_plan_options po;
  fftmux_plan_options_init(&po);
  po.backend = o.problem.backend.c_str();
  po.variant = o.problem.variant.empty() ? nullptr : o.problem.variant.c_str();
  po.threads = uint32_t(o.threads);
  DeviceChoice devices = parse_devices(o.devices);
  po.device_count = devices.count;
  po.device_list = devices.list.empty() ? nullptr : devices.list.data();
  po.device_list_length = uint32_t(devices.list.size());
  po.order = o.order == "permuted" ? FFTMUX_ORDER_PERMUTED : FFTMUX_ORDER_NATURAL;
  plan p = ctx.make_plan(d, po);
  double plan_time = seconds_since(t0);
  // Timed runs repeat on whatever the buffers hold (an in-place run
  // transforms its last output again); the result to verify or save comes
  // from one more run on the original input, which is skipped when nothing
  // uses the result: with device data at 1 GiB, that run and its read-back
  // took a benchmark's process on the H200 0.25 s (CUDA) to 1.7 s (Vulkan,
  // GL).
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  bool result = o.verify || !o.output.empty();
  std::vector<unsigned char> out;
  Timing t;
  if (d.placement == FFTMUX_DEVICE) {
    buffer bin = p.make_buffer(std::max(l.in_bytes, in_place ? l.out_bytes : 0));
    buffer bout = in_place ? buffer() : p.make_buffer(l.out_bytes);
    const buffer& dst = in_place ? bin : bout;
    bin.write(in.data(), l.in_bytes);
    t = time_runs(o, [&] {
      p.execute(dir, bin, dst);
      p.synchronize();
    });
    if (result) {
      out.resize(l.out_bytes);
      bin.write(in.data(), l.in_bytes);
      p.execute(dir, bin, dst);
      dst.read(out.data(), l.out_bytes);
    }
  } else {
    out.resize(std::max(l.in_bytes, l.out_bytes));
    std::vector<unsigned char> work = in;
    work.resize(out.size());
    void* dst = in_place ? work.data() : out.data();
    t = time_runs(o, [&] { p.execute(dir, work.data(), dst); });
    if (result) {
      std::copy(in.begin(), in.end(), work.begin());
      p.execute(dir, work.data(), dst);
      if (in_place)
        out = work;
    }
  }
  t.open = open_time;
  t.plan = plan_time;
  double gflops = ref::flops(d) / t.median * 1e-9;
  double gbs = double(l.in_bytes + l.out_bytes) / t.median * 1e-9;

  nlohmann::json report = {
      {"backend", p.backend()},     {"variant", p.variant()},     {"problem", o.problem.shape},
      {"batch", d.batch},           {"open_seconds", t.open},     {"plan_seconds", t.plan},
      {"median_seconds", t.median}, {"spread_seconds", t.spread}, {"repeats", o.repeat},
      {"gflops", gflops},           {"gbytes_per_second", gbs},   {"threads", o.threads}};
  report.update(problem_json(d));
  int status = 0;
  if (o.verify) {
    double err =
        ref::relative_error(ref::read_side(d, false, out.data()), ref::expected(d, dir, in.data()));
    double bound = ref::error_bound(d);
    report["error"] = err;
    report["error_bound"] = bound;
    report["verified"] = err <= bound;
    status = err <= bound ? 0 : 3;
  }
  if (!o.output.empty())
    npy::write(o.output, to_array(d, ref::read_side(d, false, out.data())));
  if (o.json) {
    std::printf("%s\n", report.dump(2).c_str());
    return status;
  }
  std::printf("backend    %s/%s\n", p.backend().c_str(), p.variant().c_str());
  std::printf("problem    %s %s %s batch %lld, %s\n", o.problem.kind.c_str(),
              o.problem.precision.c_str(), o.problem.shape.c_str(), (long long)d.batch,
              o.direction.c_str());
  if (named(o.problem.backend))
    std::printf("open       %.3f ms\n", t.open * 1e3);
  std::printf("plan       %.3f ms\n", t.plan * 1e3);
  std::printf("execute    %.3f us median of %d (spread %.3f us), %.2f GFLOP/s, %.2f GB/s\n",
              t.median * 1e6, o.repeat, t.spread * 1e6, gflops, gbs);
  if (o.verify)
    std::printf("verify     relative error %.3g, bound %.3g: %s\n", double(report["error"]),
                double(report["error_bound"]), status ? "FAILED" : "ok");
  if (!o.output.empty())
    std::printf("output     %s\n", o.output.c_str());
  return status;
}

} // namespace

Action add_run(CLI::App& app) {
  auto* sub = app.add_subcommand("run", "run a transform, time it, optionally verify and save it");
  auto o = std::make_shared<RunOptions>();
  o->problem.add_to(*sub);
  sub->add_option("--direction", o->direction, "forward or inverse")->capture_default_str();
  sub->add_option("--input", o->input, "input .npy file (random input when none)");
  sub->add_option("--output", o->output, "write the result to this .npy file");
  sub->add_flag("--verify", o->verify,
                "compare with a double-precision reference (exit 3 when over the bound)");
  sub->add_option("--repeat", o->repeat, "timed repetitions (the median is reported)")
      ->capture_default_str();
  sub->add_option("--warmup", o->warmup, "untimed runs first")->capture_default_str();
  sub->add_option("--seed", o->seed, "seed of the random input")->capture_default_str();
  sub->add_flag("--json", o->json, "print a JSON object");
  sub->add_option("--threads", o->threads, "threads of the plan (0: the backend's default)")
      ->capture_default_str();
  sub->add_option("--devices", o->devices,
                  "devices of the backend the plan spans: a count (2) or a list of indices (0,1)");
  sub->add_option("--order", o->order, "output order of a DEVICE plan across devices")
      ->check(CLI::IsMember({"natural", "permuted"}))
      ->capture_default_str();
  auto distributed = add_distributed(*sub);
  return [o, sub, distributed] {
    o->shape_given = sub->count("--shape") > 0;
    if (distributed->on)
      return run_distributed(*distributed, o->problem, o->repeat, o->warmup, o->threads);
    return run(*o);
  };
}

} // namespace fftmux::cli
