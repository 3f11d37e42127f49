// vulkan_bench: the Vulkan backend's kernels on the device, timed with
// Vulkan timestamp queries, beside a compute-shader copy of the same bytes
// (the bandwidth ceiling), every output verified against FFTW in double.
//
// The default set: batched 1D C2C F32 with 2^27 elements per
// call (N = 2^3..2^24, 1000, 1536, 2187, 2401, 3125, 4093, 4097, 6000,
// 10007), 2D 1024^2 (single and x64) and 4096^2, 3D 256^3 and 512^3, F64 at
// 2^10 and 2^20, R2C at 2^10 and 2^20. GB/s counts one read and one write
// of the data: 2 * bytes / time. A multi-pass plan's passes are also timed
// one by one (a timestamp after each), to show where its time goes.
// Self-contained: links the engine, shaderc and FFTW statically; needs only
// the Vulkan loader at run time.
//
//   vulkan_bench [--elements 2^k] [--repeat 20] [--warmup SECONDS] [--only LIST] (LIST: 1d, 2d, 3d,
//                f64, r2c and sizes N of the 1D set, comma-separated, run in that
//                order, repeats included)
//                [--device i] [--csv file] [--variant name] [--stats] [--ir DIR]
//                [--spirv-opt 0|1] [--pointers]
// --pointers: kernels that address the buffers through device addresses in
// push constants instead of descriptors (vulkan::Settings::pointers).
// --stats prints the driver's statistics of each pass's pipeline (registers,
// shared memory, ...) where it reports them (VK_KHR_pipeline_executable_properties);
// --ir DIR also writes the text forms it gives of their code (IRs, machine
// code) to DIR/<problem>-<kernel>-<form>.txt.
#include "engine.hpp"
#include "pass_times.hpp"
#include "warm_up.hpp"

#include <fftmux/plugin_support.hpp>

#include <fftw3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace fftmux;
using Clock = std::chrono::steady_clock;

struct Problem {
  std::string label;
  std::vector<int64_t> n;
  int64_t batch;
  fftmux_kind kind = FFTMUX_C2C;
  fftmux_precision precision = FFTMUX_F32;
};

struct Options {
  int64_t elements = int64_t(1) << 27;
  int repeat = 20;
  double warmup = 1.0; // seconds of untimed runs before each timing
  std::string only, csv, variant = "default";
  int device = -1;
  bool stats = false;
  std::string ir_dir;    // --ir: where the pipelines' text forms go
  int spirv_opt = -1;    // vulkan::Settings::spirv_opt
  bool pointers = false; // vulkan::Settings::pointers
};

fftmux_desc resolve(const Problem& p) {
  fftmux_desc d;
  std::memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.rank = uint32_t(p.n.size());
  for (size_t i = 0; i < p.n.size(); ++i)
    d.n[i] = p.n[i];
  d.batch = p.batch;
  d.kind = p.kind;
  d.precision = p.precision;
  d.norm = FFTMUX_NORM_NONE;
  d.placement = FFTMUX_DEVICE;
  for (int side = 0; side < 2; ++side) {
    bool real = side == 0 ? p.kind == FFTMUX_R2C : p.kind == FFTMUX_C2R;
    bool half = !real && p.kind != FFTMUX_C2C;
    int64_t step = 1;
    int64_t* strides = side == 0 ? d.in_strides : d.out_strides;
    for (int i = int(d.rank) - 1; i >= 0; --i) {
      strides[i] = step;
      step *= (half && i == int(d.rank) - 1) ? d.n[i] / 2 + 1 : d.n[i];
    }
    (side == 0 ? d.in_distance : d.out_distance) = step;
  }
  return d;
}

std::vector<Problem> problems(const Options& o) {
  std::vector<Problem> v;
  auto one_d = [&](int64_t n, fftmux_kind k = FFTMUX_C2C, fftmux_precision p = FFTMUX_F32,
                   const char* tag = "1d") {
    if (n <= o.elements)
      v.push_back({tag, {n}, o.elements / n, k, p});
  };
  for (int e = 3; e <= 24; ++e)
    one_d(int64_t(1) << e);
  for (int64_t n : {1000, 1536, 2187, 2401, 3125, 4093, 4097, 6000, 10007})
    one_d(n);
  auto add = [&](const char* tag, std::vector<int64_t> n, int64_t batch) {
    int64_t points = batch;
    for (int64_t x : n)
      points *= x;
    if (points <= o.elements)
      v.push_back({tag, n, batch});
  };
  add("2d", {1024, 1024}, 1);
  add("2d", {1024, 1024}, 64);
  add("2d", {4096, 4096}, 1);
  add("3d", {256, 256, 256}, 1);
  add("3d", {512, 512, 512}, 1);
  one_d(1 << 10, FFTMUX_C2C, FFTMUX_F64, "f64");
  one_d(1 << 20, FFTMUX_C2C, FFTMUX_F64, "f64");
  one_d(1 << 10, FFTMUX_R2C, FFTMUX_F32, "r2c");
  one_d(1 << 20, FFTMUX_R2C, FFTMUX_F32, "r2c");
  if (o.only.empty())
    return v;
  // In the order the list names them, repeats included (order studies).
  std::vector<Problem> keep;
  std::string list = o.only + ",";
  for (size_t at = 0, comma; (comma = list.find(',', at)) != std::string::npos; at = comma + 1) {
    std::string item = list.substr(at, comma - at);
    bool number = !item.empty() && std::all_of(item.begin(), item.end(), ::isdigit);
    for (const Problem& p : v)
      if (item == p.label ||
          (number && p.n.size() == 1 && p.label == "1d" && std::stoll(item) == p.n[0]))
        keep.push_back(p);
  }
  return keep;
}

// ---- the copy ceiling: a compute-shader copy of vec4s ----

const char* copy_glsl = R"(#version 450
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { vec4 d[]; } src;
layout(std430, set = 0, binding = 1) writeonly buffer Dst { vec4 d[]; } dst;
layout(push_constant) uniform Push { uint group_offset; } pc;
void main() {
  uint i = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x + pc.group_offset) * 256u +
           gl_LocalInvocationID.x;
  if (i < COUNT) dst.d[i] = src.d[i];
}
)";

using PassHook = std::function<void(VkCommandBuffer)>;

struct Timer {
  vulkan::Device& d;
  VkQueryPool pool = VK_NULL_HANDLE;
  uint32_t count;
  Timer(vulkan::Device& dev, uint32_t n) : d(dev), count(n) {
    VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    q.queryType = VK_QUERY_TYPE_TIMESTAMP;
    q.queryCount = n;
    vk::check(d.api.vkCreateQueryPool(d.device, &q, nullptr, &pool), "vkCreateQueryPool");
  }
  ~Timer() { d.api.vkDestroyQueryPool(d.device, pool, nullptr); }
  // Runs body untimed for at least `seconds` (warm_up.hpp): without it
  // these timings were a third of what fftmux_bench measured for the same
  // plans.
  void warm(double seconds, const std::function<void(VkCommandBuffer)>& body) {
    bench::warm_up(
        seconds, [&] { d.run_once(body); }, [] {});
  }

  // The first n timestamps of the pool, in seconds after the first (the
  // counter's absolute values are beyond a double's exact integers).
  std::vector<double> stamps(uint32_t n) {
    std::vector<uint64_t> ts(n);
    vk::check(d.api.vkGetQueryPoolResults(d.device, pool, 0, n, ts.size() * 8, ts.data(), 8,
                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "vkGetQueryPoolResults");
    double period = d.props.limits.timestampPeriod * 1e-9;
    std::vector<double> s;
    for (uint64_t t : ts)
      s.push_back(double(t - ts[0]) * period);
    return s;
  }

  // Records reps runs of body between timestamps; returns seconds per run.
  std::vector<double> run(int reps, const std::function<void(VkCommandBuffer)>& body) {
    d.run_once([&](VkCommandBuffer cmd) {
      d.api.vkCmdResetQueryPool(cmd, pool, 0, count);
      d.api.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
      for (int i = 0; i < reps; ++i) {
        body(cmd);
        d.api.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, uint32_t(i + 1));
      }
    });
    std::vector<double> ts = stamps(uint32_t(reps + 1)), s;
    for (size_t i = 0; i + 1 < ts.size(); ++i)
      s.push_back(ts[i + 1] - ts[i]);
    return s;
  }

  // The median seconds of each of a plan's passes over reps runs of body
  // (a timestamp after every pass; count holds reps * (passes + 1)).
  std::vector<double> passes(int reps,
                             const std::function<void(VkCommandBuffer, const PassHook&)>& body) {
    uint32_t at = 0;
    d.run_once([&](VkCommandBuffer cmd) {
      d.api.vkCmdResetQueryPool(cmd, pool, 0, count);
      auto stamp = [&](VkCommandBuffer c, VkPipelineStageFlagBits stage) {
        if (at < count)
          d.api.vkCmdWriteTimestamp(c, stage, pool, at);
        ++at;
      };
      for (int i = 0; i < reps; ++i) {
        stamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
        body(cmd, [&](VkCommandBuffer c) { stamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT); });
      }
    });
    if (at > count)
      throw std::runtime_error("vulkan_bench: more passes than timestamps");
    return bench::pass_medians(stamps(at), size_t(reps));
  }
};

struct Stat {
  double median, spread;
};
Stat stat(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.back() - t.front()};
}

void dispatch_copy(vulkan::Device& d, VkCommandBuffer cmd, VkPipeline pipe, VkDescriptorSet set,
                   uint64_t groups) {
  d.api.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
  d.api.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, d.layout, 0, 1, &set, 0,
                                nullptr);
  const uint32_t* c = d.props.limits.maxComputeWorkGroupCount;
  uint64_t x = std::min<uint64_t>(groups, c[0]);
  for (uint64_t done = 0; done < groups;) {
    uint64_t y = std::min<uint64_t>((groups - done + x - 1) / x, c[1]);
    uint32_t off = uint32_t(done);
    d.api.vkCmdPushConstants(cmd, d.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &off);
    d.api.vkCmdDispatch(cmd, uint32_t(x), uint32_t(y), 1);
    done += x * y;
  }
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  d.api.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0, nullptr, 0,
                             nullptr);
}

// GB/s of a compute copy of bytes (the ceiling measured in the same run).
Stat copy_time(vulkan::Device& d, vulkan::Buffer& a, vulkan::Buffer& b, uint64_t bytes, int reps,
               double warmup) {
  std::string src = copy_glsl;
  uint64_t vec4s = bytes / 16;
  src.replace(src.find("COUNT"), 5, std::to_string(vec4s) + "u");
  vulkan::Pipeline pipe(d, src, vulkan::compile(d, src, "copy.comp"));
  VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
  VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pi.maxSets = 1;
  pi.poolSizeCount = 1;
  pi.pPoolSizes = &ps;
  VkDescriptorPool pool;
  vk::check(d.api.vkCreateDescriptorPool(d.device, &pi, nullptr, &pool), "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &d.set_layout;
  VkDescriptorSet set;
  vk::check(d.api.vkAllocateDescriptorSets(d.device, &ai, &set), "vkAllocateDescriptorSets");
  VkDescriptorBufferInfo info[3] = {{a.handle(), 0, VK_WHOLE_SIZE},
                                    {b.handle(), 0, VK_WHOLE_SIZE},
                                    {a.handle(), 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = set;
  w.descriptorCount = 3;
  w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  w.pBufferInfo = info;
  d.api.vkUpdateDescriptorSets(d.device, 1, &w, 0, nullptr);
  Timer t(d, uint32_t(reps + 1));
  uint64_t groups = (vec4s + 255) / 256;
  t.warm(warmup, [&](VkCommandBuffer cmd) { dispatch_copy(d, cmd, pipe.handle, set, groups); });
  Stat s = stat(
      t.run(reps, [&](VkCommandBuffer cmd) { dispatch_copy(d, cmd, pipe.handle, set, groups); }));
  d.api.vkDestroyDescriptorPool(d.device, pool, nullptr);
  return s;
}

// ---- verification: FFTW in double, every element of every transform ----

double verify(const Problem& p, const fftmux_desc& d, const std::vector<float>& in,
              const std::vector<float>& out_f32, const std::vector<double>& in_f64,
              const std::vector<double>& out_f64) {
  bool f64 = p.precision == FFTMUX_F64;
  int rank = int(p.n.size());
  std::vector<int> n(p.n.begin(), p.n.end());
  size_t in_count = size_t((p.kind == FFTMUX_R2C ? 1 : 2) * d.in_distance * p.batch);
  size_t out_count = size_t(2 * d.out_distance * p.batch);
  std::vector<double> x(in_count), y(out_count);
  for (size_t i = 0; i < in_count; ++i)
    x[i] = f64 ? in_f64[i] : double(in[i]);
  fftw_plan_with_nthreads(int(std::max(1u, std::thread::hardware_concurrency())));
  fftw_plan plan =
      p.kind == FFTMUX_R2C
          ? fftw_plan_many_dft_r2c(rank, n.data(), int(p.batch), x.data(), nullptr, 1,
                                   int(d.in_distance), reinterpret_cast<fftw_complex*>(y.data()),
                                   nullptr, 1, int(d.out_distance), FFTW_ESTIMATE)
          : fftw_plan_many_dft(rank, n.data(), int(p.batch),
                               reinterpret_cast<fftw_complex*>(x.data()), nullptr, 1,
                               int(d.in_distance), reinterpret_cast<fftw_complex*>(y.data()),
                               nullptr, 1, int(d.out_distance), FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  long double diff = 0, norm = 0;
  for (size_t i = 0; i < out_count; ++i) {
    double got = f64 ? out_f64[i] : double(out_f32[i]);
    if (!std::isfinite(got))
      return INFINITY; // unwritten (NaN-filled) or broken
    diff += (long double)(got - y[i]) * (got - y[i]);
    norm += (long double)y[i] * y[i];
  }
  return double(std::sqrt(diff / norm));
}

double bound(const Problem& p) {
  double n = 1;
  for (int64_t x : p.n)
    n *= double(x);
  double eps = p.precision == FFTMUX_F64 ? 0x1p-52 : 0x1p-23;
  return eps * (5.0 * std::max(1.0, std::log2(n)) + 4.0);
}

// The driver's statistics of each pass's pipeline, and its text forms of
// their code into ir_dir (when given).
void statistics(vulkan::Device& dev, vulkan::Plan& plan, int dir, const std::string& ir_dir,
                const std::string& problem) {
  for (const auto& [kernel, pipeline] : plan.pass_pipelines(dir)) {
    std::string st = dev.pipeline_statistics(pipeline);
    std::printf("     %s: %s\n", kernel.c_str(),
                st.empty() ? "the driver reports no statistics" : st.c_str());
    if (ir_dir.empty())
      continue;
    std::filesystem::create_directories(ir_dir);
    for (const auto& [form, text] : dev.pipeline_representations(pipeline)) {
      std::string name = problem + "-" + kernel + "-" + form;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-')
          c = '_';
      std::ofstream(ir_dir + "/" + name + ".txt") << text;
      std::printf("     %s: wrote %s/%s.txt\n", kernel.c_str(), ir_dir.c_str(), name.c_str());
    }
  }
}

int run(const Options& o) {
  std::string cache = (std::filesystem::temp_directory_path() / "fftmux-vulkan-bench").string();
  std::filesystem::remove_all(cache); // cold plans first
  vulkan::Settings s;
  s.device = o.device;
  s.cache_dir = cache;
  s.statistics = o.stats;
  s.spirv_opt = o.spirv_opt;
  s.pointers = o.pointers;
  s.write_file = [](const std::string& path, const std::vector<char>& data) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary).write(data.data(), std::streamsize(data.size()));
  };
  vulkan::Device dev(s);
  codegen::Options opts;
  bool found = false;
  for (const codegen::Variant& v : codegen::variants())
    if (o.variant == v.name) {
      opts = v.options;
      found = true;
    }
  if (!found) {
    std::fprintf(stderr, "unknown variant %s\n", o.variant.c_str());
    return 2;
  }
  std::printf("device: %s\nkey: %s\nelements per call: %lld, repeats %d, variant %s\n",
              dev.description().c_str(), dev.hardware_key().c_str(), (long long)o.elements,
              o.repeat, o.variant.c_str());
  std::FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
  if (csv)
    std::fprintf(csv, "case,n,batch,passes,plan_cold_ms,plan_warm_ms,ms,spread_ms,gbs,copy_gbs,"
                      "ratio_copy,error,bound,verified\n");
  std::printf("%-4s %-14s %9s %3s %9s %8s %9s %9s %8s %9s %6s %9s %s\n", "case", "n", "batch", "p",
              "cold ms", "warm ms", "ms", "spread", "GB/s", "copy GB/s", "/copy", "error", "ok");
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  int failures = 0;
  std::vector<float> noise;
  double copy_gbs = 0;
  uint64_t copy_bytes = 0;
  for (const Problem& p : problems(o)) {
    fftmux_desc d = resolve(p);
    uint64_t in_bytes = codegen::side_bytes(d, true), out_bytes = codegen::side_bytes(d, false);
    std::string n;
    for (int64_t x : p.n)
      n += (n.empty() ? "" : "x") + std::to_string(x);
    try {
      auto t0 = Clock::now();
      auto plan = std::make_unique<vulkan::Plan>(dev, d, opts);
      double cold = std::chrono::duration<double>(Clock::now() - t0).count();
      vulkan::Plan::Making making = plan->making();
      plan.reset();
      t0 = Clock::now();
      plan = std::make_unique<vulkan::Plan>(dev, d, opts);
      double warm = std::chrono::duration<double>(Clock::now() - t0).count();
      vulkan::Buffer bin(dev, in_bytes), bout(dev, out_bytes);
      // Copy ceiling for this many bytes (measured once per size of data).
      uint64_t bytes = std::max(in_bytes, out_bytes);
      if (bytes != copy_bytes) {
        Stat c = copy_time(dev, bin, bout, bytes, o.repeat, o.warmup);
        copy_gbs = 2.0 * double(bytes) / c.median * 1e-9;
        copy_bytes = bytes;
      }
      bool f64 = p.precision == FFTMUX_F64;
      std::vector<float> xin, xout;
      std::vector<double> din, dout;
      // Random input, generated once for the largest size and reused.
      if (noise.size() < in_bytes / 4) {
        size_t at = noise.size();
        noise.resize(in_bytes / 4);
        for (size_t i = at; i < noise.size(); ++i)
          noise[i] = u(rng);
      }
      if (f64) {
        din.assign(noise.begin(), noise.begin() + std::ptrdiff_t(in_bytes / 8));
        bin.write(0, din.data(), in_bytes);
      } else {
        xin.assign(noise.begin(), noise.begin() + std::ptrdiff_t(in_bytes / 4));
        bin.write(0, xin.data(), in_bytes);
      }
      int dir = FFTMUX_FORWARD;
      Timer t(dev, uint32_t(o.repeat + 1));
      t.warm(o.warmup, [&](VkCommandBuffer cmd) { plan->record(cmd, dir, bin, bout); });
      Stat st =
          stat(t.run(o.repeat, [&](VkCommandBuffer cmd) { plan->record(cmd, dir, bin, bout); }));
      // The verified run: NaN in the output first, so unwritten elements show.
      dev.run_once([&](VkCommandBuffer cmd) {
        dev.api.vkCmdFillBuffer(cmd, bout.handle(), 0, VK_WHOLE_SIZE, 0x7fc00000u);
        VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
        dev.api.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0, nullptr, 0,
                                     nullptr);
        plan->record(cmd, dir, bin, bout);
      });
      if (f64) {
        dout.resize(out_bytes / 8);
        bout.read(0, dout.data(), out_bytes);
      } else {
        xout.resize(out_bytes / 4);
        bout.read(0, xout.data(), out_bytes);
      }
      double err = verify(p, d, xin, xout, din, dout), b = bound(p);
      bool ok = err <= b;
      failures += !ok;
      double data = double(std::max(in_bytes, out_bytes));
      double gbs = 2.0 * data / st.median * 1e-9;
      std::printf("%-4s %-14s %9lld %3zu %9.1f %8.2f %9.4f %9.4f %8.1f %9.1f %6.2f %9.2e %s\n",
                  p.label.c_str(), n.c_str(), (long long)p.batch, plan->passes(), cold * 1e3,
                  warm * 1e3, st.median * 1e3, st.spread * 1e3, gbs, copy_gbs, gbs / copy_gbs, err,
                  ok ? "ok" : "FAILED");
      std::printf("     %s\n", plan->summary().c_str());
      std::printf(
          "     cold plan: %d kernels compiled, %d read from the disk cache; GLSL to SPIR-V "
          "%.1f ms, the driver's pipelines %.1f ms (sums over kernels made in parallel)\n",
          making.compiled, making.cached, making.glsl_seconds * 1e3, making.driver_seconds * 1e3);
      if (o.stats)
        statistics(dev, *plan, dir, o.ir_dir, n);
      if (plan->passes() > 1) { // where the time goes
        Timer tp(dev, uint32_t(o.repeat * (plan->passes() + 1)));
        tp.warm(o.warmup, [&](VkCommandBuffer cmd) { plan->record(cmd, dir, bin, bout); });
        std::vector<double> each =
            tp.passes(o.repeat, [&](VkCommandBuffer cmd, const PassHook& after) {
              plan->record(cmd, dir, bin, bout, after);
            });
        std::printf("     passes (ms):");
        for (double e : each)
          std::printf(" %.4f", e * 1e3);
        std::printf("\n");
      }
      std::fflush(stdout);
      if (csv)
        std::fprintf(csv, "%s,%s,%lld,\"%s\",%.3f,%.3f,%.5f,%.5f,%.1f,%.1f,%.3f,%.3e,%.3e,%d\n",
                     p.label.c_str(), n.c_str(), (long long)p.batch, plan->summary().c_str(),
                     cold * 1e3, warm * 1e3, st.median * 1e3, st.spread * 1e3, gbs, copy_gbs,
                     gbs / copy_gbs, err, b, ok);
    } catch (const plugin::Failure& e) {
      ++failures;
      std::printf("%-4s %-14s %9lld  declined or failed: %s\n", p.label.c_str(), n.c_str(),
                  (long long)p.batch, e.what());
    }
  }
  if (csv)
    std::fclose(csv);
  std::printf("%d failed\n", failures);
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--elements") {
      std::string v = next();
      o.elements = v.rfind("2^", 0) == 0 ? int64_t(1) << std::stoi(v.substr(2)) : std::stoll(v);
    } else if (a == "--repeat")
      o.repeat = std::max(1, std::stoi(next()));
    else if (a == "--only")
      o.only = next();
    else if (a == "--csv")
      o.csv = next();
    else if (a == "--device")
      o.device = std::stoi(next());
    else if (a == "--variant")
      o.variant = next();
    else if (a == "--stats")
      o.stats = true;
    else if (a == "--ir") {
      o.stats = true;
      o.ir_dir = next();
    } else if (a == "--spirv-opt")
      o.spirv_opt = std::stoi(next());
    else if (a == "--pointers")
      o.pointers = true;
    else if (a == "--warmup")
      o.warmup = std::stod(next());
    else {
      std::fprintf(stderr,
                   "usage: vulkan_bench [--elements 2^27] [--repeat 20] [--warmup 1] [--only "
                   "1d|2d|3d|f64|r2c|N,N,...] [--device i] [--variant name] [--csv file] [--stats] "
                   "[--ir DIR] [--spirv-opt 0|1] [--pointers]\n");
      return 2;
    }
  }
  fftw_init_threads();
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vulkan_bench: %s\n", e.what());
    return 1;
  }
}
