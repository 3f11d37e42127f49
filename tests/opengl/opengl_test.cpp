// What only the OpenGL backend has: calls from many threads marshalled to
// the one holding the context, GL buffers of the application wrapped (its
// context shared), the program binary cache, init failing cleanly with the
// reason, F64 declined, every buffer storage and HOST path. On CI this runs
// on Mesa's llvmpipe; a machine without EGL skips with the reason.
#include "engine.hpp"

#include <fftmux/fftmux.hpp>
#include <fftmux/plugin_support.hpp>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

namespace fftmux {
namespace {

namespace fs = std::filesystem;

fs::path root() {
  return fs::temp_directory_path() / ("fftmux-opengl-test-" + std::to_string(::getpid()));
}

fs::path scratch_dir(const std::string& name) {
  fs::path p = root() / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// Removes this process's folders when the tests end.
struct Cleanup : ::testing::Environment {
  void TearDown() override { fs::remove_all(root()); }
};
const auto* cleanup = ::testing::AddGlobalTestEnvironment(new Cleanup);

// A context whose config holds table as [backends.opengl] (and no other
// backend's settings). Its caches are the test environment's (ctest keeps
// them in the build tree, warm from run to run), else this process's.
context make_context(const std::string& table, const std::string& name = "config") {
  fs::path dir = scratch_dir(name);
  std::ofstream(dir / "fftmux.toml") << "[backends.opengl]\n" << table << "\n";
  ::setenv("XDG_CACHE_HOME", (root() / "cache").c_str(), 0);
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  std::string path = (dir / "fftmux.toml").string();
  o.config_path = path.c_str();
  return context(o);
}

// The opengl backend, probed; the others are not loaded (this file tests one
// backend, and needs no other's quirks).
fftmux_backend_info opengl_info(const context& c) {
  std::vector<fftmux_backend_info> all = c.backends(false);
  for (uint32_t i = 0; i < all.size(); ++i)
    if (std::string(all[i].name) == "opengl") {
      fftmux_backend_info b;
      fftmux_backend_info_init(&b);
      check(fftmux_backend_get(c.get(), i, FFTMUX_PROBE, &b));
      return b;
    }
  ADD_FAILURE() << "no backend named opengl was found";
  return {};
}

// Why the default setup cannot run OpenGL ("" when it can).
const std::string& unavailable() {
  static const std::string why = [] {
    context c = make_context("", "probe");
    fftmux_backend_info b = opengl_info(c);
    return b.state == FFTMUX_BACKEND_READY ? std::string()
                                           : "opengl unavailable: " + std::string(b.reason);
  }();
  return why;
}

#define SKIP_WITHOUT_OPENGL()                                                                      \
  if (!unavailable().empty())                                                                      \
  GTEST_SKIP() << unavailable()

fftmux_desc desc(std::vector<int64_t> n, int64_t batch = 1, fftmux_kind kind = FFTMUX_C2C) {
  return make_desc(std::move(n), kind, FFTMUX_F32, batch);
}

// Runs p on a random input through host memory and returns the error
// relative to the reference, over its bound.
double run_host(plan& p, const fftmux_desc& d, int direction, uint64_t seed) {
  std::vector<unsigned char> in = ref::random_input(d, seed);
  std::vector<unsigned char> out(layout(d).out_bytes);
  p.execute(direction, in.data(), out.data());
  return ref::relative_error(ref::read_side(d, false, out.data()),
                             ref::expected(d, direction, in.data())) /
         ref::error_bound(d);
}

// Runs d at DEVICE placement on c's opengl through buffers of the backend;
// returns the error relative to the reference, over its bound.
double run_device(context& c, fftmux_desc d, int direction, uint64_t seed) {
  d.placement = FFTMUX_DEVICE;
  plan q = c.make_plan(d, "opengl");
  fftmux_layout l = layout(d);
  buffer in = q.make_buffer(l.in_bytes), out = q.make_buffer(l.out_bytes);
  std::vector<unsigned char> data = ref::random_input(d, seed), got(l.out_bytes);
  in.write(data.data(), data.size());
  q.execute(direction, in, out);
  q.synchronize();
  out.read(got.data(), got.size());
  return ref::relative_error(ref::read_side(d, false, got.data()),
                             ref::expected(d, direction, data.data())) /
         ref::error_bound(d);
}

// ---- marshalling ----

TEST(Marshalling, PlansOfManyThreadsRunOnTheContextThread) {
  SKIP_WITHOUT_OPENGL();
  opengl::load_egl({}); // for eglGetCurrentDisplay below
  context c = make_context("");
  const std::vector<std::vector<int64_t>> sizes = {{64}, {1000}, {12, 10}, {17}, {8, 6, 4}, {4096}};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (size_t t = 0; t < sizes.size(); ++t)
    threads.emplace_back([&, t] {
      try {
        fftmux_desc d = desc(sizes[t], 3);
        plan p = c.make_plan(d, "opengl"); // created, run and destroyed on this thread
        for (int i = 0; i < 5; ++i)
          if (!(run_host(p, d, i % 2 ? FFTMUX_INVERSE : FFTMUX_FORWARD, t * 10 + i) <= 1.0))
            ++failures;
        if (eglGetCurrentDisplay() != EGL_NO_DISPLAY) // the context stays on fftmux's thread
          ++failures;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << ": " << e.what();
        ++failures;
      }
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(Marshalling, OnePlanFromSeveralThreadsInTurn) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("");
  fftmux_desc d = desc({256}, 4);
  d.placement = FFTMUX_DEVICE;
  plan p = c.make_plan(d, "opengl");
  buffer in = p.make_buffer(layout(d).in_bytes), out = p.make_buffer(layout(d).out_bytes);
  std::vector<unsigned char> data = ref::random_input(d, 7);
  in.write(data.data(), data.size());
  ref::Values want = ref::expected(d, FFTMUX_FORWARD, data.data());
  for (int t = 0; t < 4; ++t) // each thread submits and another one waits and reads
    std::thread([&] { p.execute(FFTMUX_FORWARD, in, out); }).join();
  std::thread([&] { p.synchronize(); }).join();
  std::vector<unsigned char> got(layout(d).out_bytes);
  std::thread([&] { out.read(got.data(), got.size()); }).join();
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, got.data()), want), ref::error_bound(d));
}

// ---- init ----

struct InitCase {
  const char* name;
  const char* table;  // [backends.opengl]
  const char* reason; // a fragment of the reason of the failure
};

class InitFailure : public ::testing::TestWithParam<InitCase> {};

TEST_P(InitFailure, LeavesTheBackendUnavailableWithTheReason) {
  const InitCase& ic = GetParam();
  context c = make_context(ic.table);
  fftmux_backend_info b = opengl_info(c);
  EXPECT_EQ(b.state, FFTMUX_BACKEND_UNAVAILABLE);
  EXPECT_NE(std::string(b.reason).find(ic.reason), std::string::npos) << b.reason;
  // The host carries on: asking for a plan answers with the same reason.
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = "opengl";
  fftmux_desc d = desc({64});
  fftmux_plan p = nullptr;
  EXPECT_NE(fftmux_plan_create(c.get(), &d, &o, &p), FFTMUX_OK);
  EXPECT_NE(std::string(fftmux_last_error()).find(ic.reason), std::string::npos)
      << fftmux_last_error();
}

INSTANTIATE_TEST_SUITE_P(
    Config, InitFailure,
    ::testing::Values(
        InitCase{"no_egl_library", "egl_library = \"/nonexistent/libEGL.so.1\"",
                 "cannot open /nonexistent/libEGL.so.1"},
        InitCase{"no_platform", "platforms = \"\"\nshare_context = false", "platforms is empty"},
        InitCase{"unknown_platform", "platforms = \"wayland\"", "unknown platform 'wayland'"},
        InitCase{"missing_device", "platforms = \"device\"\ndevice = 99",
                 "device = 99 but EGL lists"},
        InitCase{"bad_storage", "storage = \"fast\"",
                 "storage = \"fast\": use one of auto, dynamic"}),
    [](const ::testing::TestParamInfo<InitCase>& i) { return i.param.name; });

// Problems whose buffers exceed what one binding addresses run in chunks
// of their batch, each bound at its own offset (max_binding_bytes = 65536
// makes small problems do so; offsets keep the driver's alignment): one
// axis, two axes, Bluestein, r2c and c2r with unaligned distances, in
// place; host and device placement.
TEST(Chunks, ProblemsBeyondOneBindingRunInBatchChunks) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("max_binding_bytes = 65536", "chunks");
  for (const fftmux_desc& d : {desc({64}, 200), desc({16, 12}, 60), desc({97}, 120),
                               desc({30}, 700, FFTMUX_R2C), desc({30}, 700, FFTMUX_C2R)}) {
    std::string what = std::to_string(d.n[0]) + " x" + std::to_string(d.batch);
    plan p = c.make_plan(d, "opengl");
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE}) {
      bool runs = d.kind == FFTMUX_C2C || (d.kind == FFTMUX_R2C) == (dir == FFTMUX_FORWARD);
      if (runs) {
        EXPECT_LE(run_host(p, d, dir, 31), 1.0) << what << " direction " << dir;
      }
    }
  }
  fftmux_desc in_place = desc({128}, 80);
  in_place.flags |= FFTMUX_IN_PLACE;
  plan ip = c.make_plan(in_place, "opengl");
  std::vector<unsigned char> io = ref::random_input(in_place, 33), before = io;
  ip.execute(FFTMUX_FORWARD, io.data(), io.data());
  EXPECT_LE(ref::relative_error(ref::read_side(in_place, false, io.data()),
                                ref::expected(in_place, FFTMUX_FORWARD, before.data())),
            ref::error_bound(in_place))
      << "in place";
  EXPECT_LE(run_device(c, desc({64}, 200), FFTMUX_FORWARD, 32), 1.0) << "device";
  // The engine says how it ran them.
  opengl::Settings s;
  s.max_binding_bytes = 65536;
  opengl::Device dev(s);
  fftmux_desc full = desc({64}, 200); // with the layout the C API fills in
  fftmux_layout fl = layout(full);
  std::memcpy(full.in_strides, fl.in_strides, sizeof full.in_strides);
  std::memcpy(full.out_strides, fl.out_strides, sizeof full.out_strides);
  full.in_distance = fl.in_distance;
  full.out_distance = fl.out_distance;
  std::string summary = dev.call([&] { return opengl::Plan(dev, full, {}).summary(); });
  EXPECT_NE(summary.find("in 2 batch chunks"), std::string::npos) << summary;
}

// "auto" takes Vulkan's memory where GL can import it and falls back to
// mappable with the reason; "vulkan", named, fails init with the reason
// where it cannot work (here: no Vulkan driver at all).
TEST(Storage, AutoFallsBackAndVulkanSaysWhy) {
  SKIP_WITHOUT_OPENGL();
  auto devices = [](const std::string& table, const std::string& name) {
    context c = make_context(table, name);
    fftmux_backend_info b = opengl_info(c);
    return std::make_pair(b.state,
                          std::string(b.state == FFTMUX_BACKEND_READY ? b.devices : b.reason));
  };
  auto [state, text] = devices("storage = \"auto\"", "auto");
  ASSERT_EQ(state, FFTMUX_BACKEND_READY) << text;
  EXPECT_TRUE(text.find("storage vulkan") != std::string::npos ||
              text.find("storage mappable (no Vulkan memory: ") != std::string::npos)
      << text;
  const char* icd = std::getenv("VK_ICD_FILENAMES");
  std::string saved = icd ? icd : "";
  ::setenv("VK_ICD_FILENAMES", "/nonexistent/icd.json", 1);
  auto [named, why] = devices("storage = \"vulkan\"", "vulkan");
  auto [fallback, note] = devices("storage = \"auto\"", "auto2");
  icd ? ::setenv("VK_ICD_FILENAMES", saved.c_str(), 1) : ::unsetenv("VK_ICD_FILENAMES");
  EXPECT_EQ(named, FFTMUX_BACKEND_UNAVAILABLE);
  EXPECT_NE(why.find("storage \"vulkan\": "), std::string::npos) << why;
  EXPECT_EQ(fallback, FFTMUX_BACKEND_READY) << note;
  EXPECT_NE(note.find("storage mappable (no Vulkan memory: "), std::string::npos) << note;
}

class Platform : public ::testing::TestWithParam<const char*> {};

// Each platform either gives a context or is reported with its reason.
TEST_P(Platform, OpensOrSaysWhy) {
  SKIP_WITHOUT_OPENGL();
  std::string name = GetParam();
  context c = make_context("platforms = \"" + name + "\"");
  fftmux_backend_info b = opengl_info(c);
  if (b.state == FFTMUX_BACKEND_READY) {
    std::string devices = b.devices, key = b.hardware_key;
    EXPECT_NE(devices.find(name == "default" ? "default display" : name), std::string::npos)
        << devices;
    EXPECT_NE(key.find("opengl 4."), std::string::npos) << key;
    EXPECT_NE(key.find("renderer "), std::string::npos) << key;
    plan p = c.make_plan(desc({128}), "opengl");
    EXPECT_LE(run_host(p, desc({128}), FFTMUX_FORWARD, 3), 1.0);
  } else {
    EXPECT_EQ(b.state, FFTMUX_BACKEND_UNAVAILABLE);
    EXPECT_NE(std::string(b.reason).find(name), std::string::npos) << b.reason;
  }
}

INSTANTIATE_TEST_SUITE_P(Egl, Platform, ::testing::Values("device", "surfaceless", "default"));

// ---- precision ----

TEST(Precision, F64DeclinedWithTheReason) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("f64 = false");
  fftmux_desc d = make_desc({64}, FFTMUX_C2C, FFTMUX_F64);
  fftmux_support s = c.query(d, "opengl");
  EXPECT_EQ(s.supported, 0u);
  EXPECT_NE(std::string(s.reason).find("f64 = false"), std::string::npos) << s.reason;
  EXPECT_EQ(c.query(desc({64}), "opengl").supported, 1u);
}

// ---- buffers ----

TEST(Wrap, OwnBufferNameAgain) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("");
  fftmux_desc d = desc({32, 24});
  d.placement = FFTMUX_DEVICE;
  plan p = c.make_plan(d, "opengl");
  fftmux_layout l = layout(d);
  buffer owner = c.make_buffer("opengl", l.in_bytes + l.out_bytes);
  fftmux_buffer in = nullptr, out = nullptr;
  ASSERT_EQ(fftmux_buffer_wrap(c.get(), "opengl", owner.native(), l.in_bytes, &in), FFTMUX_OK)
      << fftmux_last_error();
  buffer win(in);
  buffer other = c.make_buffer("opengl", l.out_bytes);
  ASSERT_EQ(fftmux_buffer_wrap(c.get(), "opengl", other.native(), l.out_bytes, &out), FFTMUX_OK)
      << fftmux_last_error();
  buffer wout(out);
  std::vector<unsigned char> data = ref::random_input(d, 11), got(l.out_bytes);
  owner.write(data.data(), data.size());
  p.execute(FFTMUX_FORWARD, win, wout);
  p.synchronize();
  other.read(got.data(), got.size()); // through the owning handle: same GL buffer
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, got.data()),
                                ref::expected(d, FFTMUX_FORWARD, data.data())),
            ref::error_bound(d));
}

TEST(Wrap, RejectsWhatIsNotABuffer) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("");
  fftmux_buffer b = nullptr;
  EXPECT_EQ(fftmux_buffer_wrap(c.get(), "opengl", 987654, 64, &b), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("is not a buffer name"), std::string::npos)
      << fftmux_last_error();
  buffer small = c.make_buffer("opengl", 64);
  EXPECT_EQ(fftmux_buffer_wrap(c.get(), "opengl", small.native(), 4096, &b),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("fewer than the 4096 given"), std::string::npos)
      << fftmux_last_error();
}

// The application's own GL context is current when fftmux starts: fftmux's
// context shares its objects, so the application's buffers are transformed
// in place of its drawing data, without a copy (the ocean-wave case).
TEST(Wrap, ApplicationBuffersOfASharedContext) {
  SKIP_WITHOUT_OPENGL();
  opengl::ContextSettings app_settings;
  opengl::Share none = opengl::load_egl(app_settings);
  ASSERT_EQ(none.context, EGL_NO_CONTEXT) << "this thread already has a context";
  opengl::Context app(app_settings, none); // current on this thread
  GladGLContext& gl = app.gl;
  fftmux_desc d = desc({64, 64}, 2);
  d.placement = FFTMUX_DEVICE;
  fftmux_layout l = layout(d);
  std::vector<unsigned char> data = ref::random_input(d, 5);
  GLuint names[2];
  gl.GenBuffers(2, names);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, names[0]);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(l.in_bytes), data.data(), GL_STATIC_DRAW);
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER, names[1]);
  gl.BufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(l.out_bytes), nullptr, GL_DYNAMIC_READ);
  gl.Finish(); // the data is in place before the other context reads it

  std::vector<unsigned char> got(l.out_bytes);
  {
    context c = make_context(""); // initializes opengl on this thread: shares
    fftmux_backend_info b = opengl_info(c);
    ASSERT_NE(std::string(b.devices).find("shared with the application"), std::string::npos)
        << b.devices;
    fftmux_buffer in = nullptr, out = nullptr;
    ASSERT_EQ(fftmux_buffer_wrap(c.get(), "opengl", names[0], l.in_bytes, &in), FFTMUX_OK)
        << fftmux_last_error();
    buffer win(in);
    ASSERT_EQ(fftmux_buffer_wrap(c.get(), "opengl", names[1], l.out_bytes, &out), FFTMUX_OK)
        << fftmux_last_error();
    buffer wout(out);
    plan p = c.make_plan(d, "opengl");
    p.execute(FFTMUX_FORWARD, win, wout);
    p.synchronize();
  }
  EXPECT_EQ(eglGetCurrentContext(), app.egl_context()) << "fftmux changed this thread's context";
  gl.BindBuffer(GL_SHADER_STORAGE_BUFFER,
                names[1]); // rebinding picks up the other context's writes
  gl.GetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(got.size()), got.data());
  gl.DeleteBuffers(2, names);
  EXPECT_LE(ref::relative_error(ref::read_side(d, false, got.data()),
                                ref::expected(d, FFTMUX_FORWARD, data.data())),
            ref::error_bound(d));
}

// ---- the generator's GLSL 4.30 ----

// Chunked exchanges in the OpenGL dialect (its own declarations of the
// chunked exchange's arrays): 16384 points on llvmpipe's 32 KiB, three
// chunks a component, in one kernel (vulkan_test covers the algorithm;
// variant wide, as the default's 4 values a thread on CPU devices keep the
// line in two passes).
TEST(Variants, ChunkedExchangesMatchTheReference) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("", "chunked");
  fftmux_desc d = desc({16384}, 2);
  plan p = c.make_plan(d, "opengl", "wide");
  ASSERT_NE(p.explain().find("stockham 1p"), std::string::npos) << p.explain();
  EXPECT_LE(run_host(p, d, FFTMUX_FORWARD, 31), 1.0);
}

// A chain of three passes that starts with a 32-point column (codegen's
// short_first, GL F32: 2^21 as 32 x 256 x 256 on llvmpipe too; codegen_test
// asserts the shapes), through the GL dialect, both directions.
TEST(Variants, ChainsFromAShortColumnMatchTheReference) {
  SKIP_WITHOUT_OPENGL();
  context c = make_context("", "short-first");
  fftmux_desc d = desc({1 << 21}, 1);
  plan p = c.make_plan(d, "opengl", "default");
  ASSERT_NE(p.explain().find("stockham 3p"), std::string::npos) << p.explain();
  for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
    EXPECT_LE(run_host(p, d, dir, 51), 1.0) << dir;
}

// Kernels shaped to share a multiprocessor (split exchanges, equal chunks,
// fewer lines a group, short lines spread over a sector's worth of threads
// and loaded directly: codegen's lean and spread rules) in the GPU's shapes (16 values
// a thread, groups of about 64 invocations: variant small-groups), which
// llvmpipe's defaults would not make; and the same with the rule off
// (sm_shared_bytes = 0).
TEST(Variants, KernelsSharingAMultiprocessorMatchTheReference) {
  SKIP_WITHOUT_OPENGL();
  for (const char* sm : {"", "sm_shared_bytes = 0"}) {
    context c =
        make_context(std::string("values_per_thread = 16\n") + sm, *sm ? "lean-off" : "lean");
    for (const fftmux_desc& d : {desc({1536}, 2), desc({2048}, 2), desc({512}, 8), desc({64}, 32),
                                 desc({40, 64}, 2), desc({16}, 64), desc({128}, 16), desc({320}, 8),
                                 make_desc({16}, FFTMUX_C2C, FFTMUX_F64, 32)}) {
      plan p = c.make_plan(d, "opengl", "small-groups");
      EXPECT_LE(run_host(p, d, FFTMUX_FORWARD, 41), 1.0) << d.n[0] << " " << sm;
    }
  }
}

// ---- storage and HOST paths ----

struct IoCase {
  std::string storage, host_io;
};

class Io : public ::testing::TestWithParam<IoCase> {};

// Every buffer storage and both HOST paths, on a one-pass and a multi-pass
// plan (Bluestein), host and device placement.
TEST_P(Io, TransformsMatchTheReference) {
  SKIP_WITHOUT_OPENGL();
  const IoCase& io = GetParam();
  context c = make_context("storage = \"" + io.storage + "\"\nhost_io = \"" + io.host_io + "\"",
                           "io-" + io.storage + "-" + io.host_io);
  for (const fftmux_desc& base : {desc({48, 20}, 2), desc({97}, 3, FFTMUX_R2C)}) {
    plan p = c.make_plan(base, "opengl");
    int dir = base.kind == FFTMUX_R2C ? FFTMUX_FORWARD : FFTMUX_INVERSE;
    EXPECT_LE(run_host(p, base, dir, 21), 1.0) << "host";
    EXPECT_LE(run_device(c, base, dir, 22), 1.0) << "device";
  }
}

std::vector<IoCase> io_cases() {
  std::vector<IoCase> cases;
  for (const opengl::Storage& s : opengl::storages())
    cases.push_back({s.name, "auto"});
  cases.push_back({"dynamic", "mapped"});
  cases.push_back({"dynamic", "staged"});
  cases.push_back({"vulkan", "staged"}); // imported storage is written through a copy
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Modes, Io, ::testing::ValuesIn(io_cases()),
                         [](const ::testing::TestParamInfo<IoCase>& i) {
                           std::string n = i.param.storage + "_" + i.param.host_io;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch)))
                               ch = '_';
                           return n;
                         });

// ---- the program binary cache (the engine itself) ----

fftmux_desc resolved(fftmux_desc d) {
  fftmux_layout l = layout(d);
  std::copy(std::begin(l.in_strides), std::end(l.in_strides), std::begin(d.in_strides));
  std::copy(std::begin(l.out_strides), std::end(l.out_strides), std::begin(d.out_strides));
  d.in_distance = l.in_distance;
  d.out_distance = l.out_distance;
  return d;
}

opengl::Settings cached_settings(const fs::path& dir) {
  opengl::Settings s;
  s.cache_dir = dir.string();
  s.write_file = [](const std::string& path, const std::vector<char>& data) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary).write(data.data(), std::streamsize(data.size()));
  };
  return s;
}

opengl::ProgramCounts plan_counts(opengl::Device& dev, const fftmux_desc& d) {
  return dev.call([&] { return opengl::Plan(dev, d, {}).programs(); });
}

TEST(ProgramCache, SecondPlanLoadsBinariesFromDisk) {
  SKIP_WITHOUT_OPENGL();
  fs::path dir = scratch_dir("binaries");
  fftmux_desc d = resolved(desc({1000}, 2)); // two directions, one pass each
  opengl::ProgramCounts first, again, second, damaged;
  {
    opengl::Device dev(cached_settings(dir));
    std::string missing = dev.call([&] { return dev.binaries_missing(); });
    if (!missing.empty())
      GTEST_SKIP() << "no program binaries on this driver: " << missing;
    first = plan_counts(dev, d);
    again = plan_counts(dev, d); // the first plan is gone, its programs are kept: from memory
  }
  EXPECT_EQ(first.compiled, 2);
  EXPECT_EQ(first.disk + first.memory, 0);
  EXPECT_EQ(again.compiled, 0);
  EXPECT_EQ(again.memory, 2);
  {
    opengl::Device dev(cached_settings(dir)); // a new context: only the disk remains
    second = plan_counts(dev, d);
  }
  EXPECT_EQ(second.disk, 2);
  EXPECT_EQ(second.compiled, 0);
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.is_regular_file())
      std::ofstream(f.path(), std::ios::binary) << "FMXGLPB1 not a program";
  {
    opengl::Device dev(cached_settings(dir)); // damaged binaries: compiled again
    damaged = plan_counts(dev, d);
  }
  EXPECT_EQ(damaged.compiled, 2);
  EXPECT_EQ(damaged.disk, 0);
}

// Settings that keep programs in memory only.
opengl::Settings in_memory() {
  opengl::Settings s;
  s.program_binaries = false;
  return s;
}

TEST(ProgramCache, PlansAliveAtOnceShareTheirPrograms) {
  SKIP_WITHOUT_OPENGL();
  opengl::Device dev(in_memory());
  fftmux_desc d = resolved(desc({512}, 4));
  dev.call([&] {
    opengl::Plan a(dev, d, {}), b(dev, d, {});
    EXPECT_EQ(a.programs().compiled, 2);
    EXPECT_EQ(b.programs().memory, 2);
    EXPECT_EQ(b.programs().compiled, 0);
  });
}

// Plans alive at once share the device's scratch buffer, a larger need
// replacing it for the plans made after; their passes, queued back to back
// on device buffers, each give the reference's result. 16384 points in
// place run in two passes through the scratch on llvmpipe's 32 KiB.
TEST(Scratch, MultiPassPlansShareTheDevicesBuffer) {
  SKIP_WITHOUT_OPENGL();
  opengl::Device dev(in_memory());
  dev.call([&] {
    std::vector<fftmux_desc> ds;
    for (int64_t batch : {2, 1, 4}) {
      fftmux_desc d = resolved(desc({16384}, batch));
      d.flags = FFTMUX_IN_PLACE;
      ds.push_back(d);
    }
    std::vector<std::unique_ptr<opengl::Plan>> plans;
    for (const fftmux_desc& d : ds)
      plans.push_back(std::make_unique<opengl::Plan>(dev, d, codegen::Options{}));
    ASSERT_NE(plans[0]->scratch(), nullptr) << plans[0]->summary();
    EXPECT_EQ(plans[1]->scratch(), plans[0]->scratch()) << "a smaller need takes the device's";
    EXPECT_NE(plans[2]->scratch(), plans[0]->scratch()) << "a larger need replaces it";
    std::vector<std::vector<unsigned char>> data;
    std::vector<std::unique_ptr<opengl::Buffer>> buffers;
    for (size_t i = 0; i < ds.size(); ++i) {
      data.push_back(ref::random_input(ds[i], 40 + i));
      buffers.push_back(std::make_unique<opengl::Buffer>(dev, layout(ds[i]).in_bytes));
      buffers[i]->write(0, data[i].data(), data[i].size());
    }
    for (size_t i = 0; i < ds.size(); ++i)
      plans[i]->execute_buffers(FFTMUX_FORWARD, *buffers[i], *buffers[i]);
    for (size_t i = 0; i < ds.size(); ++i) {
      plans[i]->synchronize();
      std::vector<unsigned char> got(data[i].size());
      buffers[i]->read(0, got.data(), got.size());
      EXPECT_LE(ref::relative_error(ref::read_side(ds[i], false, got.data()),
                                    ref::expected(ds[i], FFTMUX_FORWARD, data[i].data())),
                ref::error_bound(ds[i]))
          << "batch " << ds[i].batch << ": " << plans[i]->summary();
    }
  });
}

// A compilation in three steps (plan_create's, which leaves the worker free
// while the driver compiles) keeps the programs as programs() does: a plan
// made next takes them from memory.
TEST(ProgramCache, ACompilationFinishedOffThePlanIsTheNextPlansInMemory) {
  SKIP_WITHOUT_OPENGL();
  opengl::Device dev(in_memory());
  fftmux_desc d = resolved(desc({768}, 4));
  std::vector<std::string> sources;
  for (const codegen::Chunk& part : dev.generated(d, {}))
    for (const std::string& src : part.generated->sources())
      sources.push_back(src);
  ASSERT_FALSE(sources.empty());
  opengl::ProgramCounts counts;
  opengl::Device::Compiling c = dev.call([&] { return dev.start(sources, counts); });
  EXPECT_EQ(c.pending.size(), sources.size());
  while (!dev.call([&] { return dev.compiled(c); }))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto programs = dev.call([&] { return dev.finish(c, counts); });
  EXPECT_EQ(counts.compiled, int(sources.size()));
  for (const auto& p : programs)
    EXPECT_NE(p, nullptr);
  opengl::ProgramCounts next = plan_counts(dev, d);
  EXPECT_EQ(next.memory, int(sources.size()));
  EXPECT_EQ(next.compiled, 0);
}

} // namespace
} // namespace fftmux
