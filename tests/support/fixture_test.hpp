// What the tests that drive the fixture plugins (tests/plugins) share: a
// fresh folder per test holding its tuning cache, contexts whose config
// file sets each fixture's behaviour, and small text helpers.
#pragma once

#include <fftmux/fftmux.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace fftmux::test {

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The fixture suites' problem: 4 F64 C2C lines of n points.
inline fftmux_desc problem(int64_t n) {
  return fftmux::make_desc({n}, FFTMUX_C2C, FFTMUX_F64, 4);
}

// Sets an environment variable for its lifetime, then restores it.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    old_ = old ? old : "";
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
  const char* name_;
  bool had_;
  std::string old_;
};

// A short autotune (5 repeats, 1 warm-up) with what set changes; records,
// when given, receive what the progress callback reports.
inline fftmux_status tune(fftmux::context& ctx, std::vector<fftmux_desc> problems,
                          std::vector<fftmux_tune_record>* records = nullptr,
                          const std::function<void(fftmux_tune_options&)>& set = {}) {
  fftmux_tune_options o;
  fftmux_tune_options_init(&o);
  o.repeats = 5;
  o.warmup = 1;
  if (set)
    set(o);
  o.user = records;
  o.progress = [](void* user, const fftmux_tune_record* r) {
    if (user)
      static_cast<std::vector<fftmux_tune_record>*>(user)->push_back(*r);
  };
  return fftmux_autotune(ctx.get(), problems.data(), problems.size(), &o);
}

// The routing fixtures: two working backends, "fast" and "slow".
inline const std::string routing = std::string(FIXTURES) + "/routing";
// One backend, "twins", with variants naive and naive-again (the same code)
// and other.
inline const std::string twins = std::string(FIXTURES) + "/twins";
// The same variants as a GPU's backend, "gpu-twins".
inline const std::string gpu_twins = std::string(FIXTURES) + "/gpu";
// Backends that accept every problem and return NaNs for what their caps
// leave out: trusting, lacks-<cap> for f32, f64, c2c, strides and in-place,
// and no-buffers (tests/plugins/CMakeLists.txt).
inline const std::string caps = std::string(FIXTURES) + "/caps";

struct FixtureTest : ::testing::Test {
  std::string dir, cache;
  // Whether contexts measure device models: the routing tests' concern;
  // elsewhere routing by the backends' own estimates spares each test the
  // probes (seconds on Mesa's devices, minutes under the sanitizers).
  bool calibrate = false;

  void SetUp() override {
    const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = ::testing::TempDir() + t->test_suite_name() + "_" + t->name();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    cache = dir + "/tuning.toml";
    setenv("FFTMUX_TUNING_CACHE", cache.c_str(), 1);
    // Fixtures' speeds are settings: each test calibrates its own.
    setenv("FFTMUX_CALIBRATION", (dir + "/calibration.toml").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("FFTMUX_TUNING_CACHE");
    unsetenv("FFTMUX_CALIBRATION");
  }

  // A config file holding extra, then one [backends.<name>] table of
  // settings per backend.
  std::string config(const std::map<std::string, std::string>& backends,
                     const std::string& extra = "") {
    std::string path = dir + "/fftmux" + std::to_string(configs_++) + ".toml";
    std::ofstream f(path);
    if (extra.find("calibrate") == std::string::npos)
      f << "calibrate = " << (calibrate ? "true" : "false") << "\n";
    f << extra << "\n";
    for (const auto& [name, settings] : backends)
      f << "[backends." << name << "]\n" << settings << "\n";
    return path;
  }

  // A context on plugin_path with that config file.
  static fftmux::context open_with(const std::string& plugin_path, const std::string& config) {
    fftmux_context_options o;
    fftmux_context_options_init(&o);
    o.plugin_path = plugin_path.c_str();
    o.config_path = config.c_str();
    return fftmux::context(o);
  }

  fftmux::context open(const std::string& plugin_path,
                       const std::map<std::string, std::string>& backends,
                       const std::string& extra = "") {
    return open_with(plugin_path, config(backends, extra));
  }

private:
  int configs_ = 0;
};

} // namespace fftmux::test
