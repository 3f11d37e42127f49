// opengl_bench: the OpenGL backend on the GPU, in one run:
//  1. a GL compute copy study: why GL copies ran at half of CUDA's speed on
//     the H200 (buffer storage flags and usage hints, access qualifiers,
//     vector width, workgroup size, elements per thread, working set, one
//     dispatch or chunks, reads and writes apart), next to glCopyBufferSubData;
//  2. single 2D C2C F32 forward transforms 128^2 .. 1024^2;
//  3. batched 1D C2C F32, 2^27 complex elements per call (N = 2^3 .. 2^24,
//     1000, 1536, 2187, 2401, 3125, 4093, 4097, 6000, 10007);
//  --only occupancy, alone: how many workgroups of a shape (invocations,
//     shared memory, live registers) the driver keeps resident at once.
// FFTs are timed with GL timer queries (GL_TIME_ELAPSED around each run, and
// GL_TIMESTAMP around back-to-back runs and after each pass of multi-pass
// plans); the GPU backends that are
// installed (opengl itself, vulkan, cuda) run the same problems through the
// fftmux API in the same process, timed back to back by the wall clock: the
// same yardstick for all, API and thread hand-off included. Every output is
// verified: outputs start as NaN, every row must be finite with the energy
// Parseval's theorem gives, and sampled rows (first, last, around the
// 65535-workgroup boundaries) must match the double-precision reference.
//
// Usage: opengl_bench [--quick] [--only copy|2d|1d|occupancy] [--repeats R] [--warmup SECONDS]
//                     [--storage NAME] [--variant NAME] [--peers a,b | none]
// Every FFT timing follows --warmup seconds (1) of untimed runs: an idle
// H200 sits at 345 MHz and reaches 1980 only under a while of load, and the
// generated kernels' time follows the clock (copies' does not).
#include "engine.hpp"
#include "pass_times.hpp"
#include "warm_up.hpp"

#include <fftmux/fftmux.hpp>
#include <fftmux/plugin_support.hpp>
#include <reference.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <sstream>

namespace {

using namespace fftmux;
using cf = std::complex<float>;

struct Args {
  bool quick = false; // 2^20 elements and fewer sizes: for llvmpipe
  std::string only;
  int repeats = 20;
  double warmup = 1; // seconds of untimed FFT runs before each timing
  std::string storage, variant = "default";
  std::optional<std::vector<std::string>> peers; // none given: every installed GPU peer
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "opengl_bench: %s\nusage: opengl_bench [--quick] [--only copy|2d|1d|occupancy] "
               "[--repeats R] [--warmup SECONDS] [--storage NAME] [--variant NAME] "
               "[--peers a,b|none]\n",
               why.c_str());
  std::exit(2);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, ',');)
    if (!x.empty() && x != "none")
      out.push_back(x);
  return out;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(k + " needs a value");
      return argv[++i];
    };
    if (k == "--quick")
      a.quick = true;
    else if (k == "--only")
      a.only = value();
    else if (k == "--repeats")
      a.repeats = std::max(3, std::atoi(value().c_str()));
    else if (k == "--warmup")
      a.warmup = std::atof(value().c_str());
    else if (k == "--storage")
      a.storage = value();
    else if (k == "--variant")
      a.variant = value();
    else if (k == "--peers")
      a.peers = split(value());
    else
      usage("unknown option " + k);
  }
  if (!a.only.empty() && a.only != "copy" && a.only != "2d" && a.only != "1d" &&
      a.only != "occupancy")
    usage("--only takes copy, 2d, 1d or occupancy");
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// ---- GL timing ----

struct Timing {
  double median_us = 0, min_us = 0, max_us = 0; // per run, GL_TIME_ELAPSED
  double back_to_back_us = 0;                   // GL_TIMESTAMP around all runs / runs
  bool wall =
      false; // the driver's timer queries are void (llvmpipe: 1 ns): wall clock with glFinish
};

// Times issue() (GL commands only) repeats times after warm-up runs.
Timing time_gl(opengl::Device& d, int repeats, double warm, const std::function<void()>& issue) {
  GladGLContext& g = d.gl();
  bench::warm_up(warm, issue, [&] { g.Finish(); });
  std::vector<GLuint> q(size_t(repeats) + 2);
  g.GenQueries(GLsizei(q.size()), q.data());
  std::vector<double> wall;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    g.BeginQuery(GL_TIME_ELAPSED, q[size_t(i)]);
    issue();
    g.EndQuery(GL_TIME_ELAPSED);
    g.Finish(); // one run at a time: what the query measures, the wall clock measures too
    wall.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  auto w0 = std::chrono::steady_clock::now();
  g.QueryCounter(q[size_t(repeats)], GL_TIMESTAMP);
  for (int i = 0; i < repeats; ++i)
    issue();
  g.QueryCounter(q[size_t(repeats) + 1], GL_TIMESTAMP);
  g.Finish();
  double wall_block =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - w0).count();
  std::vector<double> us;
  for (int i = 0; i < repeats; ++i) {
    GLuint64 ns = 0;
    g.GetQueryObjectui64v(q[size_t(i)], GL_QUERY_RESULT, &ns);
    us.push_back(double(ns) / 1e3);
  }
  GLuint64 t0 = 0, t1 = 0;
  g.GetQueryObjectui64v(q[size_t(repeats)], GL_QUERY_RESULT, &t0);
  g.GetQueryObjectui64v(q[size_t(repeats) + 1], GL_QUERY_RESULT, &t1);
  g.DeleteQueries(GLsizei(q.size()), q.data());
  d.check("timing");
  Timing t;
  // No GPU dispatch takes under 0.1 us: such readings are a driver's placeholder.
  t.wall = *std::max_element(us.begin(), us.end()) < 0.1 || t1 <= t0;
  if (t.wall)
    us = wall;
  t.median_us = median(us);
  t.min_us = *std::min_element(us.begin(), us.end());
  t.max_us = *std::max_element(us.begin(), us.end());
  t.back_to_back_us = (t.wall ? wall_block : double(t1 - t0) / 1e3) / repeats;
  return t;
}

// ---- the copy study ----

enum class Op { copy, read, write };

struct CopyCase {
  std::string name;
  Op op = Op::copy;
  const char* type = "vec4";
  const char* in_q = "readonly";
  const char* out_q = "writeonly";
  uint32_t group = 256;
  uint32_t per_thread = 1;    // elements per thread, strided by the grid
  uint32_t stride_groups = 0; // > 0: a grid-stride loop over this many workgroups
  uint64_t bytes = 512ull << 20;
  const char* storage = "dynamic";
  bool one_buffer = false; // source and destination halves of one buffer
  uint64_t chunk = 0;      // > 0: one dispatch per chunk of bytes
  bool driver = false;     // glCopyBufferSubData instead of a kernel
  uint64_t slack = 0;      // bytes each buffer holds beyond what is copied
};

std::vector<CopyCase> copy_cases(bool quick) {
  std::vector<CopyCase> v;
  auto add = [&](const std::string& name, auto&& change) {
    CopyCase c;
    c.name = name;
    change(c);
    v.push_back(c);
  };
  auto none = [](CopyCase&) {};
  add("baseline: vec4 readonly/writeonly wg256 512MiB dynamic", none);
  add("vec2", [](CopyCase& c) { c.type = "vec2"; });
  add("float", [](CopyCase& c) { c.type = "float"; });
  add("no qualifiers", [](CopyCase& c) { c.in_q = c.out_q = ""; });
  add("restrict readonly/writeonly", [](CopyCase& c) {
    c.in_q = "restrict readonly";
    c.out_q = "restrict writeonly";
  });
  add("coherent", [](CopyCase& c) {
    c.in_q = "coherent readonly";
    c.out_q = "coherent writeonly";
  });
  add("volatile", [](CopyCase& c) {
    c.in_q = "volatile readonly";
    c.out_q = "volatile writeonly";
  });
  for (uint32_t g : {64u, 128u, 512u, 1024u})
    add("wg" + std::to_string(g), [g](CopyCase& c) { c.group = g; });
  for (uint32_t p : {2u, 4u, 8u})
    add(std::to_string(p) + " per thread", [p](CopyCase& c) { c.per_thread = p; });
  for (uint32_t s : {1056u, 4224u, 16896u}) // 132 SMs x 8, 32, 128
    add("grid-stride " + std::to_string(s) + " groups", [s](CopyCase& c) { c.stride_groups = s; });
  // The footprint (bytes touched per run) against the 512 MiB / 1 GiB
  // cliff seen there: copies touch twice their size, reads once.
  for (uint64_t mib : {128ull, 256ull, 384ull, 1024ull})
    add(std::to_string(mib) + "MiB", [mib](CopyCase& c) { c.bytes = mib << 20; });
  add("1GiB vec4 2 per thread", [](CopyCase& c) {
    c.bytes = 1ull << 30;
    c.per_thread = 2;
  });
  add("1GiB restrict", [](CopyCase& c) {
    c.bytes = 1ull << 30;
    c.in_q = "restrict readonly";
    c.out_q = "restrict writeonly";
  });
  add("1GiB in 64MiB dispatches", [](CopyCase& c) {
    c.bytes = 1ull << 30;
    c.chunk = 64ull << 20;
  });
  add("512MiB in 64MiB dispatches", [](CopyCase& c) { c.chunk = 64ull << 20; });
  add("one buffer, two halves", [](CopyCase& c) { c.one_buffer = true; });
  for (uint64_t mib : {256ull, 512ull, 768ull, 1024ull})
    add("read only " + std::to_string(mib) + "MiB", [mib](CopyCase& c) {
      c.op = Op::read;
      c.bytes = mib << 20;
    });
  for (uint64_t mib : {512ull, 1024ull})
    add("write only " + std::to_string(mib) + "MiB", [mib](CopyCase& c) {
      c.op = Op::write;
      c.bytes = mib << 20;
    });
  // Buffer sizes off the 2 MiB grid: does the driver then map smaller pages?
  add("buffers of 512MiB + 4KiB", [](CopyCase& c) { c.slack = 4096; });
  for (const opengl::Storage& s : opengl::storages())
    for (uint64_t mib : {512ull, 1024ull})
      if (std::string(s.name) != "dynamic" || mib == 1024)
        add(std::string("storage ") + s.name + " " + std::to_string(mib) + "MiB",
            [&s, mib](CopyCase& c) {
              c.storage = s.name;
              c.bytes = mib << 20;
            });
  add("glCopyBufferSubData 512MiB", [](CopyCase& c) { c.driver = true; });
  if (quick) // llvmpipe: the same cases on 8 MiB
    for (CopyCase& c : v) {
      c.bytes = std::max<uint64_t>(c.bytes >> 6, 1 << 20);
      c.chunk >>= 6;
    }
  return v;
}

uint32_t type_bytes(const char* t) {
  return std::strcmp(t, "vec4") ? std::strcmp(t, "vec2") ? 4 : 8 : 16;
}

std::string copy_source(const CopyCase& c) {
  std::string op = c.op == Op::copy   ? "d[i] = s[i];"
                   : c.op == Op::read ? "acc += s[i];"
                                      : "d[i] = T(float(i));";
  std::ostringstream o;
  o << "#version 430\n#define T " << c.type << "\nlayout(local_size_x = " << c.group << ") in;\n"
    << "layout(std430, binding = 0) " << c.in_q << " buffer Src { T s[]; };\n"
    << "layout(std430, binding = 1) " << c.out_q << " buffer Dst { T d[]; };\n"
    << "layout(location = 0) uniform uint n;\n" // elements of this dispatch
    << "void main() {\n"
    << "  uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;\n"
    << "  uint threads = gl_NumWorkGroups.x * gl_NumWorkGroups.y * " << c.group << "u;\n"
    << "  uint t = group * " << c.group << "u + gl_LocalInvocationID.x;\n  T acc = T(0);\n";
  if (c.stride_groups)
    o << "  for (uint i = t; i < n; i += threads) { " << op << " }\n";
  else
    o << "  for (uint k = 0u; k < " << c.per_thread << "u; ++k) {\n    uint i = t + k * threads;\n"
      << "    if (i < n) { " << op << " }\n  }\n";
  if (c.op == Op::read) // keeps the loads: never true for the data written
    o << "  if (any(equal(acc, T(-1.0e30)))) d[t] = acc;\n";
  return o.str() + "}\n";
}

struct CopyResult {
  std::string name;
  double gbs = 0, us = 0;
  bool copy = false, verified = false;
  std::string error;
};

std::shared_ptr<opengl::Program> compile(opengl::Device& d, const std::string& source) {
  opengl::ProgramCounts counts;
  return d.programs({source}, counts)[0];
}

CopyResult run_copy(opengl::Device& d, const CopyCase& c, int repeats) {
  GladGLContext& g = d.gl();
  CopyResult r;
  r.name = c.name;
  r.copy = c.op == Op::copy;
  uint64_t elements = c.bytes / type_bytes(c.type);
  // Buffers with the case's storage: a device of their own would cost a
  // context; the storage is applied directly.
  const opengl::Storage& st = opengl::storage(c.storage);
  std::unique_ptr<opengl::Buffer> a, b;
  try {
    auto make = [&](uint64_t bytes) {
      return std::make_unique<opengl::Buffer>(d, bytes, opengl::Buffer::Kind::device, &st);
    };
    a = make((c.one_buffer ? 2 * c.bytes : c.bytes) + c.slack);
    if (!c.one_buffer)
      b = make(c.bytes + c.slack);
    GLuint src = a->name(), dst = b ? b->name() : src;
    GLintptr dst_offset = c.one_buffer ? GLintptr(c.bytes) : 0;
    // A pattern in the source: float(i) in every component of element i.
    CopyCase fill = c;
    fill.op = Op::write;
    fill.per_thread = 1;
    fill.stride_groups = 0;
    fill.chunk = 0;
    fill.in_q = "readonly";
    fill.out_q = "writeonly";
    std::shared_ptr<opengl::Program> filler = compile(d, copy_source(fill));
    auto dispatch = [&](const opengl::Program* program, const CopyCase& k, GLuint from, GLuint to,
                        GLintptr to_at) {
      g.UseProgram(program->id);
      uint64_t chunk = k.chunk ? k.chunk / type_bytes(k.type) : elements;
      for (uint64_t at = 0; at < elements; at += chunk) {
        uint64_t n = std::min(chunk, elements - at);
        uint64_t bytes = n * type_bytes(k.type);
        GLintptr off = GLintptr(at * type_bytes(k.type));
        g.BindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, from, off, GLsizeiptr(bytes));
        g.BindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, to, to_at + off, GLsizeiptr(bytes));
        g.Uniform1ui(0, GLuint(n));
        uint64_t groups = k.stride_groups ? k.stride_groups
                                          : (n + uint64_t(k.group) * k.per_thread - 1) /
                                                (uint64_t(k.group) * k.per_thread);
        uint64_t x = std::min<uint64_t>(groups, d.max_groups(0));
        g.DispatchCompute(GLuint(x), GLuint((groups + x - 1) / x), 1);
      }
      g.MemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    };
    dispatch(filler.get(), fill, dst, src, 0);
    std::shared_ptr<opengl::Program> program = c.driver ? nullptr : compile(d, copy_source(c));
    Timing t = time_gl(d, repeats, 0, [&] {
      if (c.driver) {
        g.BindBuffer(GL_COPY_READ_BUFFER, src);
        g.BindBuffer(GL_COPY_WRITE_BUFFER, dst);
        g.CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, dst_offset,
                            GLsizeiptr(c.bytes));
      } else {
        dispatch(program.get(), c, src, dst, dst_offset);
      }
    });
    r.us = t.median_us;
    r.gbs = double(c.bytes) * (c.op == Op::copy ? 2 : 1) / (t.median_us * 1e3);
    // The copy holds the pattern: check a few elements at the start, middle and end.
    r.verified = c.op != Op::copy;
    if (c.op == Op::copy) {
      uint32_t tb = type_bytes(c.type);
      r.verified = true;
      for (uint64_t e : {uint64_t(0), elements / 2 + 1, elements - 1}) {
        std::vector<float> v(tb / 4);
        g.BindBuffer(GL_COPY_READ_BUFFER, dst);
        g.GetBufferSubData(GL_COPY_READ_BUFFER, dst_offset + GLintptr(e * tb), tb, v.data());
        for (float x : v)
          r.verified = r.verified && x == float(e);
      }
      if (!r.verified)
        r.error = "copy does not hold the source pattern";
    }
    d.check("copy case " + c.name);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  g.UseProgram(0);
  d.take_error(); // a failed case leaves its error behind: reported above
  return r;
}

// ---- the occupancy study ----

// How many workgroups of a shape the driver keeps resident at once: each
// group counts itself in on entry and out on exit and records the peak,
// spinning long enough in between that a whole wave overlaps. Against the
// hardware's limits (H200: 32 groups, 2048 invocations, 228 KiB of shared
// memory and 64 K registers an SM), a lower peak is the driver's doing.
struct OccupancyCase {
  uint32_t threads, shared_words, live; // live: floats each invocation keeps
  uint32_t spins;
};

std::string occupancy_source(const OccupancyCase& c) {
  uint32_t live = std::max(c.live, 1u);
  std::ostringstream o;
  o << "#version 430\nlayout(local_size_x = " << c.threads << ") in;\n"
    << "layout(std430, binding = 0) coherent buffer Count { uint inside; uint peak; float sink; "
       "};\n";
  if (c.shared_words)
    o << "shared float pad[" << c.shared_words << "];\n";
  o << "void main() {\n  uint l = gl_LocalInvocationIndex;\n"
    << "  if (l == 0u) atomicMax(peak, atomicAdd(inside, 1u) + 1u);\n"
    << "  float x = float(gl_WorkGroupID.x), acc[" << live << "];\n"
    << "  for (int k = 0; k < " << live << "; ++k) acc[k] = float(l + uint(k));\n";
  if (c.shared_words)
    o << "  pad[l % " << c.shared_words << "u] = float(l);\n  barrier();\n";
  // Constant bounds: the inner loop unrolls and acc stays in registers.
  o << "  for (int i = 0; i < " << c.spins << "; ++i) {\n"
    << "    x = x * 0.9999999 + "
    << (c.shared_words ? "pad[(uint(i) + l) % " + std::to_string(c.shared_words) + "u];\n"
                       : std::string("1.0;\n"))
    << "    for (int k = 0; k < " << live << "; ++k) acc[k] = acc[k] * 0.9999999 + x;\n  }\n"
    << "  for (int k = 0; k < " << live << "; ++k) x += acc[k];\n"
    << "  barrier();\n  if (l == 0u) atomicAdd(inside, 0xffffffffu);\n"
    << "  if (x == 1.2345e-30) sink = x;\n}\n";
  return o.str();
}

// The peak count of groups resident at once; throws on a GL error.
uint32_t run_occupancy(opengl::Device& d, const OccupancyCase& c, uint32_t groups) {
  GladGLContext& g = d.gl();
  std::shared_ptr<opengl::Program> program = compile(d, occupancy_source(c));
  // inside, peak, sink: plain glBufferData(GL_DYNAMIC_COPY) storage.
  opengl::Buffer counts(d, 16, opengl::Buffer::Kind::device, &opengl::storage("data-dynamic-copy"));
  uint32_t v[4] = {0, 0, 0, 0};
  counts.write(0, v, sizeof v);
  g.BindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts.name());
  g.UseProgram(program->id);
  g.DispatchCompute(groups, 1, 1);
  g.UseProgram(0);
  counts.read(0, v, sizeof v); // after the barrier for the kernel's writes
  d.check("occupancy case");
  return v[1];
}

// The multiprocessors GL_NV_shader_thread_group reports, else 0.
uint32_t sm_count(opengl::Device& d) {
  return d.call([&] {
    GLint n = 0;
    if (d.context().has("GL_NV_shader_thread_group"))
      d.gl().GetIntegerv(GL_SM_COUNT_NV, &n);
    return uint32_t(std::max(n, 0));
  });
}

void occupancy_study(opengl::Device& d, bool quick) {
  uint32_t sms = sm_count(d), groups = quick ? 16 : std::max(sms, 132u) * 64;
  std::printf("\n## Resident workgroups (peak over a dispatch of %u groups; per SM: of %s)\n\n"
              "| invocations | shared KiB | live floats | peak | per SM |\n|---|---|---|---|---|\n",
              groups,
              sms ? std::to_string(sms).c_str()
                  : "- (the driver has no GL_NV_shader_thread_group to count them)");
  for (uint32_t t : {64u, 256u, 512u, 1024u})
    for (uint32_t kib : {0u, 8u, 16u, 33u, 48u})
      for (uint32_t live : {0u, 64u}) {
        OccupancyCase c{t, kib * 256 + (kib == 33 ? 194 : 0), live,
                        (quick ? 20u : 20000u) / (1 + live / 8)};
        std::string error;
        uint32_t peak = d.call([&] {
          try {
            return run_occupancy(d, c, groups);
          } catch (const std::exception& e) {
            error = e.what();
            d.take_error();
            return 0u;
          }
        });
        if (!error.empty())
          std::printf("| %u | %.1f | %u | - | %s |\n", t, c.shared_words * 4 / 1024.0, live,
                      error.substr(0, 80).c_str());
        else {
          char per[16] = "-";
          if (sms)
            std::snprintf(per, sizeof per, "%.2f", double(peak) / sms);
          std::printf("| %u | %.1f | %u | %u | %s |\n", t, c.shared_words * 4 / 1024.0, live, peak,
                      per);
        }
        std::fflush(stdout);
      }
}

// ---- FFT problems ----

struct Problem {
  std::string name;
  fftmux_desc desc;
};

fftmux_desc resolved(fftmux_desc d) {
  fftmux_layout l = layout(d);
  std::copy(std::begin(l.in_strides), std::end(l.in_strides), std::begin(d.in_strides));
  std::copy(std::begin(l.out_strides), std::end(l.out_strides), std::begin(d.out_strides));
  d.in_distance = l.in_distance;
  d.out_distance = l.out_distance;
  return d;
}

std::vector<Problem> problems(const Args& a) {
  std::vector<Problem> p;
  if (a.only.empty() || a.only == "2d")
    for (int64_t n : {128, 256, 512, 1024}) {
      if (a.quick && n > 256)
        continue;
      fftmux_desc d = make_desc({n, n});
      d.placement = FFTMUX_DEVICE;
      p.push_back({"2d " + std::to_string(n) + "^2", resolved(d)});
    }
  if (a.only.empty() || a.only == "1d") {
    int64_t total = a.quick ? int64_t(1) << 20 : int64_t(1) << 27;
    std::vector<int64_t> sizes;
    for (int e = 3; e <= (a.quick ? 16 : 24); ++e)
      sizes.push_back(int64_t(1) << e);
    for (int64_t n : {1000, 1536, 2187, 2401, 3125, 4093, 4097, 6000, 10007})
      sizes.push_back(n);
    for (int64_t n : sizes) {
      fftmux_desc d = make_desc({n}, FFTMUX_C2C, FFTMUX_F32, total / n);
      d.placement = FFTMUX_DEVICE;
      p.push_back({"1d " + std::to_string(n) + " x " + std::to_string(total / n), resolved(d)});
    }
  }
  return p;
}

// Rows of a batch worth comparing with the reference: the ends, the middle,
// and around multiples of 65535 (where a grid of workgroups is split).
std::vector<int64_t> sample_rows(int64_t batch) {
  std::set<int64_t> s = {0, batch / 2, batch - 1};
  for (int64_t k = 1; k <= 4; ++k)
    for (int64_t r : {k * 65535 - 1, k * 65535, k * 65536})
      if (r < batch)
        s.insert(r);
  return {s.begin(), s.end()};
}

// What the outputs of a problem must be: the reference of sampled rows and
// the energy of every input row.
struct Expected {
  fftmux_desc row;
  std::vector<int64_t> rows;
  std::vector<ref::Values> values;
  std::vector<double> energy; // sum |x|^2 of each input row, times N
};

Expected expect(const fftmux_desc& d, const std::vector<cf>& in) {
  Expected e;
  e.row = d;
  e.row.batch = 1;
  e.row = resolved(e.row);
  int64_t n = plugin::points(d);
  e.rows = sample_rows(d.batch);
  for (int64_t r : e.rows)
    e.values.push_back(ref::expected(e.row, FFTMUX_FORWARD, in.data() + r * n));
  e.energy.resize(size_t(d.batch));
  for (int64_t r = 0; r < d.batch; ++r) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i)
      s += std::norm(std::complex<double>(in[size_t(r * n + i)]));
    e.energy[size_t(r)] = s * double(n);
  }
  return e;
}

// "" when out is right, else what is wrong.
std::string verify(const fftmux_desc& d, const Expected& e, const std::vector<cf>& out) {
  int64_t n = plugin::points(d);
  for (int64_t r = 0; r < d.batch; ++r) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) {
      cf v = out[size_t(r * n + i)];
      if (!std::isfinite(v.real()) || !std::isfinite(v.imag()))
        return "row " + std::to_string(r) + " element " + std::to_string(i) + " is not finite";
      s += std::norm(std::complex<double>(v));
    }
    double want = e.energy[size_t(r)];
    if (std::abs(s - want) > 1e-3 * want + 1e-30)
      return "row " + std::to_string(r) + " has energy " + std::to_string(s) + ", expected " +
             std::to_string(want);
  }
  for (size_t k = 0; k < e.rows.size(); ++k) {
    ref::Values got(out.begin() + e.rows[k] * n, out.begin() + (e.rows[k] + 1) * n);
    double err = ref::relative_error(got, e.values[k]);
    if (!(err <= ref::error_bound(e.row)))
      return "row " + std::to_string(e.rows[k]) + ": relative error " + std::to_string(err) +
             " over the bound " + std::to_string(ref::error_bound(e.row));
  }
  return "";
}

// The median GPU time of each pass of plan over repeats runs back to back
// (a GL_TIMESTAMP before each run and after each of its passes), in us.
std::vector<double> pass_us(opengl::Device& d, opengl::Plan& plan, opengl::Buffer& in,
                            opengl::Buffer& out, int repeats) {
  GladGLContext& g = d.gl();
  std::vector<GLuint> q;
  auto stamp = [&] {
    GLuint id = 0;
    g.GenQueries(1, &id);
    g.QueryCounter(id, GL_TIMESTAMP);
    q.push_back(id);
  };
  for (int i = 0; i < repeats; ++i) {
    stamp();
    plan.dispatch(FFTMUX_FORWARD, in, out, stamp);
  }
  g.Finish();
  std::vector<GLuint64> t(q.size());
  for (size_t i = 0; i < q.size(); ++i)
    g.GetQueryObjectui64v(q[i], GL_QUERY_RESULT, &t[i]);
  g.DeleteQueries(GLsizei(q.size()), q.data());
  d.check("per-pass timing");
  std::vector<double> us; // after the first stamp: the counter's values exceed a double's integers
  for (GLuint64 x : t)
    us.push_back(double(x - t[0]) / 1e3);
  return bench::pass_medians(us, size_t(repeats));
}

struct Row {
  std::string backend;
  double us = 0, gbs = 0; // the time the table compares: GPU median (GL), back to back (peers)
  double b2b_us = 0;
  std::string note; // passes, errors
};

double gbs_of(const fftmux_desc& d, double us) {
  return 2.0 * double(plugin::points(d) * d.batch) * 8 / (us * 1e3);
}

Row run_gl(opengl::Device& dev, const Problem& p, const std::vector<cf>& input, const Expected& e,
           opengl::Buffer& in, opengl::Buffer& out, const codegen::Options& options, int repeats,
           double warm) {
  Row row;
  row.backend = "opengl";
  try {
    GladGLContext& g = dev.gl();
    opengl::Plan plan(dev, p.desc, options);
    uint64_t bytes = uint64_t(plugin::points(p.desc) * p.desc.batch) * sizeof(cf);
    const GLuint nan = 0x7FC00000u;
    g.BindBuffer(GL_COPY_WRITE_BUFFER, out.name());
    g.ClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, GLsizeiptr(bytes), GL_RED_INTEGER,
                         GL_UNSIGNED_INT, &nan);
    g.BindBuffer(GL_COPY_WRITE_BUFFER, 0);
    plan.dispatch(FFTMUX_FORWARD, in, out);
    std::vector<cf> got(size_t(bytes / sizeof(cf)));
    out.read(0, got.data(), bytes);
    row.note = verify(p.desc, e, got);
    (void)input;
    if (!row.note.empty())
      return row;
    Timing t = time_gl(dev, repeats, warm, [&] { plan.dispatch(FFTMUX_FORWARD, in, out); });
    row.us = t.median_us;
    row.b2b_us = t.back_to_back_us;
    row.gbs = gbs_of(p.desc, row.us);
    row.note = std::to_string(plan.passes(FFTMUX_FORWARD)) + " pass" +
               (plan.passes(FFTMUX_FORWARD) > 1 ? "es" : "") + "; " + plan.summary();
    if (!t.wall && plan.passes(FFTMUX_FORWARD) > 1) { // where the GPU time goes
      row.note += "; per pass (us):";
      for (double us : pass_us(dev, plan, in, out, repeats)) {
        char b[32];
        std::snprintf(b, sizeof b, " %.1f", us);
        row.note += b;
      }
    }
  } catch (const std::exception& ex) {
    row.note = std::string("failed: ") + ex.what();
  }
  return row;
}

// A peer backend through the public API: the same problem, timed back to back.
struct Peer {
  std::string name;
  std::unique_ptr<buffer> in, out;
};

Row run_peer(context& ctx, Peer& peer, const Problem& p, const std::vector<cf>& input,
             const Expected& e, int repeats, double warm) {
  Row row;
  row.backend = peer.name;
  try {
    uint64_t bytes = uint64_t(plugin::points(p.desc) * p.desc.batch) * sizeof(cf);
    if (!peer.in || [&] {
          uint64_t have = 0;
          fftmux_buffer_size(peer.in->get(), &have);
          return have < bytes;
        }()) {
      peer.out.reset();
      peer.in.reset();
      peer.in = std::make_unique<buffer>(ctx.make_buffer(peer.name.c_str(), bytes));
      peer.out = std::make_unique<buffer>(ctx.make_buffer(peer.name.c_str(), bytes));
      peer.in->write(input.data(), bytes); // out of place: stays for every problem
    }
    std::vector<cf> got(size_t(bytes / sizeof(cf)), cf(NAN, NAN));
    peer.out->write(got.data(), bytes);
    plan pl = ctx.make_plan(p.desc, peer.name.c_str());
    pl.execute(FFTMUX_FORWARD, *peer.in, *peer.out);
    pl.synchronize();
    peer.out->read(got.data(), bytes);
    row.note = verify(p.desc, e, got);
    if (!row.note.empty())
      return row;
    bench::warm_up(
        warm, [&] { pl.execute(FFTMUX_FORWARD, *peer.in, *peer.out); }, [&] { pl.synchronize(); });
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i)
      pl.execute(FFTMUX_FORWARD, *peer.in, *peer.out);
    pl.synchronize();
    double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        repeats;
    row.us = row.b2b_us = us;
    row.gbs = gbs_of(p.desc, us);
    row.note = pl.variant();
  } catch (const std::exception& ex) {
    row.note = std::string("failed: ") + ex.what();
  }
  return row;
}

std::vector<std::string> installed_peers(context& ctx) {
  std::vector<std::string> out;
  for (const fftmux_backend_info& b : ctx.backends(true))
    if (std::set<std::string>{"opengl", "vulkan", "cuda"}.count(b.name) &&
        b.state == FFTMUX_BACKEND_READY)
      out.push_back(b.name);
  return out;
}

int run(const Args& a) {
  opengl::Settings s;
  if (!a.storage.empty())
    s.storage = opengl::storage(a.storage).name;
  opengl::Device dev(s);
  std::string key = dev.call([&] { return dev.description(); });
  std::printf("# opengl_bench on %s\n", key.c_str());
  if (a.quick)
    std::printf("\n--quick: copies move 1/64 of the sizes named, FFTs 2^20 elements\n");
  int failures = 0;

  // 1. The copy study.
  double best_copy = 0, baseline_copy = 0;
  if (a.only.empty() || a.only == "copy") {
    std::printf("\n## GL compute copy study (median of %d runs, GL_TIME_ELAPSED; GB/s = bytes read "
                "+ written / time)\n\n| case | us | GB/s | checked |\n|---|---|---|---|\n",
                a.repeats);
    std::vector<CopyResult> copies;
    for (const CopyCase& c : copy_cases(a.quick)) {
      CopyResult r = dev.call([&] { return run_copy(dev, c, a.repeats); });
      if (!r.error.empty() || !r.verified) {
        std::printf("| %s | - | - | %s |\n", r.name.c_str(), r.error.c_str());
        ++failures;
        continue;
      }
      std::printf(r.gbs < 100 ? "| %s | %.1f | %.2f | yes |\n" : "| %s | %.1f | %.0f | yes |\n",
                  r.name.c_str(), r.us, r.gbs);
      std::fflush(stdout);
      if (r.copy && !c.driver)
        copies.push_back(r);
    }
    if (!copies.empty()) {
      baseline_copy = copies.front().gbs;
      std::sort(copies.begin(), copies.end(),
                [](const CopyResult& x, const CopyResult& y) { return x.gbs > y.gbs; });
      best_copy = copies.front().gbs;
      std::printf("\nfastest GL compute copies (baseline %.0f GB/s):\n", baseline_copy);
      for (size_t i = 0; i < copies.size() && i < 5; ++i)
        std::printf("  %.0f GB/s  %s\n", copies[i].gbs, copies[i].name.c_str());
      std::printf("(a storage mode on top: rerun with --storage NAME and set [backends.opengl] "
                  "storage = \"NAME\")\n");
    }
  }

  if (a.only == "occupancy") {
    occupancy_study(dev, a.quick);
    return 0;
  }
  // 2 and 3. FFTs, with the peers.
  std::vector<Problem> ps = problems(a);
  if (ps.empty()) {
    std::printf("\n%d failure(s)\n", failures);
    return failures ? 1 : 0;
  }
  context ctx;
  std::vector<Peer> peers;
  for (const std::string& name : a.peers ? *a.peers : installed_peers(ctx))
    peers.push_back({name, nullptr, nullptr});
  auto variant = std::find_if(codegen::variants().begin(), codegen::variants().end(),
                              [&](const codegen::Variant& v) { return a.variant == v.name; });
  if (variant == codegen::variants().end())
    usage("no variant named " + a.variant);
  codegen::Options options = dev.options(variant->options);

  int64_t most = 0;
  for (const Problem& p : ps)
    most = std::max(most, plugin::points(p.desc) * p.desc.batch);
  std::vector<cf> input(static_cast<size_t>(most));
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<float> u(-1, 1);
  for (cf& v : input)
    v = cf(u(rng), u(rng));
  std::unique_ptr<opengl::Buffer> in, out;
  dev.call([&] {
    in = std::make_unique<opengl::Buffer>(dev, uint64_t(most) * sizeof(cf));
    out = std::make_unique<opengl::Buffer>(dev, uint64_t(most) * sizeof(cf));
    in->write(0, input.data(), uint64_t(most) * sizeof(cf));
  });

  std::printf("\n## FFT C2C F32 forward, out-of-place, data on the device\n\nGL: the engine "
              "itself, median GPU time of %d runs by GL_TIME_ELAPSED, b2b = back to back by "
              "GL_TIMESTAMP. API: each backend through the fftmux API, %d runs back to back, wall "
              "clock. GB/s = one read + one write of the data / time. Small problems are "
              "launch-bound and stay in the 60 MB L2 between runs.\n\n",
              a.repeats, a.repeats);
  // Ratios compare like with like: opengl through the API against each
  // other backend through the API.
  bool api_gl =
      std::any_of(peers.begin(), peers.end(), [](const Peer& p) { return p.name == "opengl"; });
  std::printf("| problem | GL us | GL GB/s | GL b2b us | %% of best copy |");
  for (const Peer& p : peers)
    std::printf(" %s API us | %s GB/s |", p.name.c_str(), p.name.c_str());
  for (const Peer& p : peers)
    if (api_gl && p.name != "opengl")
      std::printf(" opengl/%s |", p.name.c_str());
  std::printf(" GL plan |\n|---|---|---|---|---|");
  for (const Peer& p : peers)
    std::printf(api_gl && p.name != "opengl" ? "---|---|---|" : "---|---|");
  std::printf("---|\n");
  for (const Problem& p : ps) {
    std::fprintf(stderr, "opengl_bench: %s\n", p.name.c_str());
    Expected e = expect(p.desc, input);
    Row gl =
        dev.call([&] { return run_gl(dev, p, input, e, *in, *out, options, a.repeats, a.warmup); });
    bool gl_ok = gl.us > 0;
    failures += !gl_ok;
    if (gl_ok)
      std::printf("| %s | %.1f | %.0f | %.1f | %.0f%% |", p.name.c_str(), gl.us, gl.gbs, gl.b2b_us,
                  best_copy > 0 ? 100 * gl.gbs / best_copy : 0.0);
    else
      std::printf("| %s | FAILED | - | - | - |", p.name.c_str());
    std::vector<Row> rows;
    for (Peer& peer : peers) {
      rows.push_back(run_peer(ctx, peer, p, input, e, a.repeats, a.warmup));
      const Row& r = rows.back();
      if (r.us > 0) {
        std::printf(" %.1f | %.0f |", r.us, r.gbs);
      } else {
        std::printf(" FAILED | - |");
        std::fprintf(stderr, "  %s: %s\n", peer.name.c_str(), r.note.c_str());
        failures += peer.name == "opengl";
      }
    }
    double api = 0;
    for (const Row& r : rows)
      if (r.backend == "opengl")
        api = r.us;
    for (const Row& r : rows)
      if (api_gl && r.backend != "opengl")
        std::printf(api > 0 && r.us > 0 ? " %.2f |" : " - |", api / r.us);
    std::printf(" %s |\n", gl.note.c_str());
    std::fflush(stdout);
  }
  dev.call([&] {
    in.reset();
    out.reset();
  });
  std::printf("\n%d failure(s)\n", failures);
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opengl_bench: %s\n", e.what());
    return 1;
  }
}
