// The command line as a user meets it: real runs verified, and every bad
// option or file answered with one line and a non-zero exit.
#include "npy/npy.hpp"

#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace {

struct Result {
  int status;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The command with args, under the environment settings env ("NAME=value ...").
Result fftmux_cli(const std::string& args, const std::string& env = "") {
  std::string err = ::testing::TempDir() + "cli_stderr.txt";
  std::string cmd = env + " " + FFTMUX_CLI + " " + args + " 2>" + err;
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p))
    out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, slurp(err)};
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

TEST(Cli, BackendsJsonListsFftw) {
  Result r = fftmux_cli("backends --json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  bool found = false;
  for (auto& b : j)
    if (b["name"] == "fftw") {
      found = true;
      EXPECT_EQ(b["status"], "ready");
      EXPECT_FALSE(b["devices"].empty());
      EXPECT_EQ(b["variants"][0], "default");
    }
  EXPECT_TRUE(found) << r.out;
}

TEST(Cli, RunVerifiesAgainstTheReference) {
  for (const char* args : {"run --shape 64x64 --kind r2c --verify --repeat 3",
                           "run --shape 15 --batch 3 --shift both --norm ortho --verify --json",
                           "run --shape 8x6x5 --kind c2r --in-place --precision f64 --verify",
                           "run --shape 100 --placement device --direction inverse --verify",
                           "run --shape 16 --batch 8 --in-strides 8 --in-distance 1 "
                           "--out-distance 19 --verify",
                           "run --shape 6x10 --kind r2c --in-strides 1x6 --out-strides 12x2 "
                           "--batch 2 --out-distance 1 --verify",
                           "run --shape 256 --batch 256 --backend fftw --threads 2 --verify",
                           "run --shape 64x63 --kind dct2,dst4 --norm ortho --precision f64 "
                           "--verify",
                           "run --shape 101 --batch 4 --kind dst1 --direction inverse --in-place "
                           "--verify",
                           "run --shape 8x6x5 --kind dct1 --norm forward --verify --json",
                           "run --shape 64x60 --kind r2c --in-extent 20x33 --out-extent 64x7 "
                           "--verify",
                           "run --shape 100 --in-extent 37 --out-extent 11 --batch 3 --verify "
                           "--json"}) {
    Result r = fftmux_cli(args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.out << r.err;
    EXPECT_TRUE(r.out.find("ok") != std::string::npos ||
                r.out.find("\"verified\": true") != std::string::npos)
        << args << "\n"
        << r.out;
  }
}

// F16 and BF16 run on a GPU backend (lavapipe, llvmpipe in CI), routed
// past FFTW, which declines them.
TEST(Cli, RunsHalfPrecisionStorageOnAGpuBackend) {
  for (const char* args : {"run --shape 30 --kind r2c --precision f16 --verify",
                           "run --shape 6x5 --precision bf16 --in-place --verify"}) {
    Result r = fftmux_cli(args);
    if (r.status != 0 && r.err.find("no backend runs") != std::string::npos)
      GTEST_SKIP() << "no GPU backend here: " << r.err;
    EXPECT_EQ(r.status, 0) << args << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("ok"), std::string::npos) << args << "\n" << r.out;
  }
}

// A named backend is opened before the plan is timed: the two times are
// reported apart (text and JSON); without a name only the plan's.
TEST(Cli, RunTimesTheBackendsOpeningApart) {
  Result named = fftmux_cli("run --backend fftw --shape 64 --repeat 1");
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_NE(named.out.find("\nopen "), std::string::npos) << named.out;
  EXPECT_NE(named.out.find("\nplan "), std::string::npos) << named.out;
  Result json = fftmux_cli("run --backend fftw --shape 64 --repeat 1 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_GT(j["open_seconds"].get<double>(), 0);
  EXPECT_GT(j["plan_seconds"].get<double>(), 0);
  Result routed = fftmux_cli("run --shape 64 --repeat 1");
  ASSERT_EQ(routed.status, 0) << routed.err;
  EXPECT_EQ(routed.out.find("\nopen "), std::string::npos) << routed.out;
}

// The environment of a tuning test: its own user and system caches.
struct TuningFiles {
  std::string dir = ::testing::TempDir() + "cli_tuning/";
  std::string user = dir + "user.toml", system = dir + "system.toml";
  std::string env = "FFTMUX_TUNING_CACHE=" + user + " FFTMUX_SYSTEM_TUNING_CACHE=" + system;
  TuningFiles() { std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()); }
};

// Every --json output holds the problem as fields, from one conversion.
void expect_problem_fields(const nlohmann::json& j, const nlohmann::json& expected) {
  for (auto& [key, value] : expected.items())
    EXPECT_EQ(j[key], value) << key << " in\n" << j.dump(2);
}

// The records of a short autotune of one problem on fftw (its --json); none
// where it failed, which fails the test.
nlohmann::json tune_records(const std::string& problem, const TuningFiles& f) {
  Result r =
      fftmux_cli("autotune " + problem + " --backends fftw --repeat 2 --warmup 0 --json", f.env);
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  bool ran = !j.is_discarded() && !j["records"].empty();
  EXPECT_TRUE(ran) << r.out;
  return ran ? j["records"] : nlohmann::json::array();
}

TEST(Cli, JsonOutputsHoldTheProblemAsFields) {
  Result r = fftmux_cli("run --shape 16x6 --batch 2 --kind r2c --precision f64 --norm ortho "
                        "--shift output --in-strides 12x2 --repeat 1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "16x6");
  expect_problem_fields(j, {{"rank", 2},
                            {"shape", {16, 6}},
                            {"batch", 2},
                            {"kind", "r2c"},
                            {"precision", "f64"},
                            {"norm", "ortho"},
                            {"placement", "host"},
                            {"shift", "output"},
                            {"in_place", false},
                            {"in_strides", {12, 2}}});
  EXPECT_FALSE(j.contains("out_strides")) << "default layouts are left out";

  r = fftmux_cli("explain --shape 64 --batch 4 --in-place --placement device "
                 "--in-distance 70 --out-distance 70 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "c2c f32 64 batch 4 device");
  expect_problem_fields(j, {{"rank", 1},
                            {"shape", nlohmann::json::array({64})},
                            {"batch", 4},
                            {"kind", "c2c"},
                            {"precision", "f32"},
                            {"norm", "backward"},
                            {"placement", "device"},
                            {"shift", "none"},
                            {"in_place", true},
                            {"in_distance", 70},
                            {"out_distance", 70},
                            {"planned", true}});
  EXPECT_TRUE(has(j["explanation"].get<std::string>(), "chosen: ")) << j.dump(2);

  r = fftmux_cli("explain --shape 8 --backend nope --json");
  EXPECT_EQ(r.status, 1);
  j = nlohmann::json::parse(r.out);
  expect_problem_fields(j, {{"shape", nlohmann::json::array({8})}, {"planned", false}});
  EXPECT_TRUE(has(j["error"].get<std::string>(), "no backend named 'nope'")) << j.dump(2);
  EXPECT_FALSE(j["backends"].empty()) << "each backend's answer";

  TuningFiles f;
  for (const auto& record : tune_records("--shape 32 --batch 3 --precision f64", f)) {
    EXPECT_EQ(record["problem"], "c2c f64 32 batch 3 host");
    expect_problem_fields(
        record, {{"shape", nlohmann::json::array({32})}, {"batch", 3}, {"precision", "f64"}});
  }
}

// A padded problem is measured and checked against the whole problem on the
// zero-extended input (a round trip would lose what the output cut), and
// keyed apart from the whole one.
TEST(Cli, AutotuneMeasuresPaddedProblems) {
  TuningFiles f;
  for (const auto& record :
       tune_records("--shape 64x60 --kind r2c --in-extent 20x33 --out-extent 64x7", f)) {
    EXPECT_EQ(record["ok"], true) << record.dump(2);
    expect_problem_fields(record, {{"in_extent", nlohmann::json::array({20, 33})},
                                   {"out_extent", nlohmann::json::array({64, 7})}});
  }
  EXPECT_TRUE(has(slurp(f.user), "default in-extent 20x33 out-extent 64x7\"")) << slurp(f.user);
}

// Without --shape, --kind, --precision and --placement pick the set's problems
// (a budget spent at once reports each as skipped, timing none).
TEST(Cli, AutotuneTakesTheSetsProblemsOfTheKindGiven) {
  TuningFiles f;
  Result r = fftmux_cli("autotune --quick --kind r2c --backends fftw --budget 1e-9 --json", f.env);
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["records"].empty()) << r.out;
  for (const auto& record : j["records"]) {
    EXPECT_EQ(record["kind"], "r2c") << record.dump();
    EXPECT_TRUE(has(record["reason"].get<std::string>(), "time budget")) << record.dump();
  }
  r = fftmux_cli("autotune --quick --placement device --backends fftw", f.env);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "the problem set has no problem of the --kind")) << r.err;
}

// A per-axis R2R kind reads back in every --json output and the tuning
// cache's keys; autotune measures and verifies it like the DFT kinds.
TEST(Cli, RealToRealKindsReachJsonAndAutotune) {
  Result r = fftmux_cli("explain --shape 8x6 --kind dct2,dst1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["problem"], "dct2,dst1 f32 8x6 batch 1 host");
  expect_problem_fields(j, {{"kind", "dct2,dst1"}, {"planned", true}});

  TuningFiles f;
  for (const auto& record : tune_records("--shape 30 --kind dct4 --precision f64", f)) {
    EXPECT_EQ(record["problem"], "dct4 f64 30 batch 1 host");
    EXPECT_EQ(record["ok"], true) << record.dump(2);
  }
  EXPECT_TRUE(has(slurp(f.user), "problem = \"dct4 f64 30 batch 1 host")) << slurp(f.user);
}

// A real .npy file in, a real one out.
TEST(Cli, NpyRealToReal) {
  fftmux_desc d = fftmux::make_desc({5, 7}, FFTMUX_R2R, FFTMUX_F64);
  d.r2r[0] = d.r2r[1] = FFTMUX_DCT3;
  auto in = fftmux::ref::random_input(d, 5);
  std::string input = ::testing::TempDir() + "r2r_in.npy";
  std::string output = ::testing::TempDir() + "r2r_out.npy";
  fftmux::npy::write(input, {fftmux::npy::Dtype::f64, {5, 7}, in});
  Result r = fftmux_cli("run --kind dct3 --input " + input + " --output " + output);
  ASSERT_EQ(r.status, 0) << r.err;
  fftmux::npy::Array b = fftmux::npy::read(output);
  EXPECT_EQ(b.dtype, fftmux::npy::Dtype::f64);
  EXPECT_EQ(b.shape, (std::vector<int64_t>{5, 7}));
  EXPECT_LE(fftmux::ref::relative_error(fftmux::ref::read_side(d, false, b.data.data()),
                                        fftmux::ref::expected(d, FFTMUX_FORWARD, in.data())),
            fftmux::ref::error_bound(d));
}

TEST(Cli, NpyInputAndOutput) {
  fftmux_desc d = fftmux::make_desc({4, 6}, FFTMUX_C2C, FFTMUX_F64);
  auto in = fftmux::ref::random_input(d, 11);
  fftmux::npy::Array a{fftmux::npy::Dtype::c128, {4, 6}, in};
  std::string input = ::testing::TempDir() + "in.npy", output = ::testing::TempDir() + "out.npy";
  fftmux::npy::write(input, a);
  Result r = fftmux_cli("run --input " + input + " --output " + output + " --norm forward");
  ASSERT_EQ(r.status, 0) << r.err;
  fftmux::npy::Array b = fftmux::npy::read(output);
  EXPECT_EQ(b.dtype, fftmux::npy::Dtype::c128);
  EXPECT_EQ(b.shape, (std::vector<int64_t>{4, 6}));
  d.norm = FFTMUX_NORM_FORWARD;
  EXPECT_LE(fftmux::ref::relative_error(fftmux::ref::read_side(d, false, b.data.data()),
                                        fftmux::ref::expected(d, FFTMUX_FORWARD, in.data())),
            fftmux::ref::error_bound(d));
}

struct Bad {
  const char* args;
  const char* fragment;
};

class CliRejects : public ::testing::TestWithParam<Bad> {};

TEST_P(CliRejects, WithOneLine) {
  Result r = fftmux_cli(GetParam().args);
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().fragment), std::string::npos) << r.err;
}

const Bad bad[] = {
    {"run --shape 0", "--shape 0: expected sizes of at least 1"},
    {"run --shape 8x", "--shape 8x"},
    {"run --shape 2x2x2x2", "at most 3 dimensions"},
    {"run --kind foo", "--kind foo: expected c2c, r2c, c2r, or dct1..dct4, dst1..dst4"},
    {"run --shape 8x8x8 --kind dct2,dst1", "--kind dct2,dst1: 2 kinds for 3 axes"},
    {"run --shape 1 --kind dct1", "DCT-I needs at least 2 points"},
    {"run --kind dct2 --shift both", "not R2R"},
    {"run --precision f8", "--precision f8: expected one of f32, f64, f16, bf16"},
    {"run --precision bf16 --backend fftw", "FFTW has no 16-bit transforms"},
    {"run --norm loud", "--norm loud"},
    {"run --batch 0", "--batch 0"},
    {"run --bogus", "--bogus"},
    {"run --repeat x", "--repeat"},
    {"frobnicate", "frobnicate"},
    {"run --backend nope", "no backend named 'nope'"},
    {"run --input /nonexistent.npy", "cannot read /nonexistent.npy"},
    {"run --input /etc/hostname", "not a usable .npy file"},
    {"run --kind r2c --direction inverse", "an R2C plan runs forward only"},
    {"run --direction sideways", "--direction sideways"},
    {"run --shape 16 --in-strides 2x2", "--in-strides 2x2: expected 1 strides"},
    {"run --shape 16 --out-strides -1", "--out-strides -1: expected numbers of at least 0"},
    {"run --shape 16 --batch 2 --in-distance -3", "in_distance = -3"},
    {"run --shape 16 --batch 2 --out-distance 4", "out_distance = 4 is within the reach 15"},
    {"run --shape 16x8 --in-extent 4", "--in-extent 4: expected 2 extents, one per axis"},
    {"run --shape 16 --out-extent 17", "out_extent[0] = 17 exceeds n[0] = 16"},
    {"run --shape 16 --in-extent 4 --in-place", "zero padding) need an out-of-place plan"},
    {"run --threads -1", "--threads -1: must be from 0 (the backend's default) to 1024"},
    {"run --threads 5000", "--threads 5000: must be from 0"},
    {"run --devices 0", "--devices 0: a count must be from 1 to 16"},
    {"run --devices 17", "--devices 17: a count must be from 1 to 16"},
    {"run --devices two", "--devices two: 'two' is not a device count or index"},
    {"run --devices 0,,1", "--devices 0,,1: '' is not a device count or index"},
    {"run --devices -1", "--devices -1: '-1' is not a device count or index"},
    {"run --devices 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "lists 17 devices; at most 16"},
    {"run --devices 0,0 --backend fftw", "options->device_list[1] = 0: device 0 is listed twice"},
    {"run --devices 2 --backend fftw",
     "backend fftw lacks FFTMUX_CAP_DEVICES: the plan spans 2 devices"},
    {"run --devices 2 --order permuted --backend fftw", "needs DEVICE placement"},
    {"run --order sideways", "--order: sideways not in {natural,permuted}"},
};

INSTANTIATE_TEST_SUITE_P(Options, CliRejects, ::testing::ValuesIn(bad));

TEST(Cli, ExplainShowsTheDecision) {
  Result r = fftmux_cli("explain --shape 1000 --batch 4");
  ASSERT_EQ(r.status, 0) << r.err;
  // Which backend wins depends on the machine; the explanation's parts do not.
  for (const char* part :
       {"chosen: ", "decision: estimate: no measurement applies", "candidates:", "fftw/default"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << " missing in\n" << r.out;
  r = fftmux_cli("explain --backend nope");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("no plan"), std::string::npos) << r.out;
}

// --devices reaches the plan: the devices fixture spans what it is asked
// (a count or a list) and explain names the set; backends show their spans.
TEST(Cli, DevicesReachThePlanAndBackendsShowTheirSpans) {
  std::string env = "FFTMUX_ADD_PLUGIN_PATH=" + std::string(FIXTURES) + "/devices";
  for (const char* devices : {"2", "3,1", "2,"}) {
    Result r = fftmux_cli(
        "run --shape 16 --backend spans --verify --devices " + std::string(devices), env);
    EXPECT_EQ(r.status, 0) << devices << ": " << r.err;
  }
  Result r = fftmux_cli("backends", env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "spans: 4 devices a plan")) << r.out;
  EXPECT_TRUE(has(r.out, "spans: 1 device a plan")) << r.out; // fftw
  r = fftmux_cli("backends --json", env);
  auto all = nlohmann::json::parse(r.out);
  for (const auto& b : all)
    if (b["name"] == "spans") {
      EXPECT_EQ(b["max_devices"], 4);
    }
}

// The command line with the caps fixtures beside the installed backends
// (tests/plugins/CMakeLists.txt): their names run past ten characters.
Result with_caps(const std::string& args) {
  return fftmux_cli(args, "FFTMUX_ADD_PLUGIN_PATH=" + std::string(FIXTURES) + "/caps");
}

TEST(Cli, ABackendLackingACapabilityIsRefusedItsProblemNotRunWrong) {
  for (const char* args : {"run --shape 16 --in-strides 2 --backend lacks-strides --verify",
                           "run --shape 16 --batch 2 --in-distance 20 --backend lacks-strides "
                           "--verify"}) {
    Result r = with_caps(args);
    EXPECT_NE(r.status, 0) << args << "\n" << r.out;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_TRUE(has(r.err, "backend lacks-strides lacks FFTMUX_CAP_STRIDES: the input")) << r.err;
  }
  Result r = with_caps("explain --shape 97 --placement device --backend no-buffers");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.out, "no-buffers has no buffers of its own")) << r.out;
}

// Every column starts where its heading does, however long a name.
TEST(Cli, BackendsTableFitsTheLongestName) {
  Result r = with_caps("backends");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream text(r.out);
  std::string heading, line;
  std::getline(text, heading);
  size_t status = heading.find("STATUS"), devices = heading.find("DEVICES");
  ASSERT_NE(devices, std::string::npos) << r.out;
  int rows = 0;
  while (std::getline(text, line)) {
    if (line.rfind("lacks-in-place ", 0) == 0 || line.rfind("no-buffers ", 0) == 0) {
      ++rows;
      EXPECT_EQ(line.substr(status, 6), "ready ") << r.out;
      EXPECT_EQ(line.substr(devices), "fixture device") << r.out;
    } else if (line.find("variants: naive") != std::string::npos) {
      EXPECT_EQ(line.find_first_not_of(' '), devices) << r.out;
    }
  }
  EXPECT_EQ(rows, 2) << r.out;
}

TEST(Cli, ExplainShowsALayoutOnlyWhereItIsNotTheDefault) {
  Result r = fftmux_cli("explain --shape 16 --batch 2 --in-strides 2 --out-distance 20");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "problem: c2c f32 16 batch 2 host out-of-place norm backward "
                         "in-strides 2 out-distance 20\n"))
      << r.out;
  r = fftmux_cli("explain --shape 16 --batch 2 --in-strides 1 --out-distance 16");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "problem: c2c f32 16 batch 2 host out-of-place norm backward\n")) << r.out;
}

TEST(Cli, AutotuneSystemWritesTheCacheEveryUserReadsBeneathTheirOwn) {
  TuningFiles f;
  Result r =
      fftmux_cli("autotune --system --shape 64 --backends fftw --repeat 2 --warmup 0", f.env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(slurp(f.system), "backend = \"fftw\"")) << slurp(f.system);
  EXPECT_TRUE(slurp(f.user).empty()) << "the user's cache is not written";
  r = fftmux_cli("tuning show", f.env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "# system cache, beneath it: " + f.system)) << r.out;
  EXPECT_TRUE(has(r.out, "problem = \"c2c f32 64 batch 1 host")) << r.out;
  r = fftmux_cli("explain --shape 64", f.env);
  EXPECT_TRUE(has(r.out, "cache hit")) << r.out;
  r = fftmux_cli("autotune --system --cache " + f.user, f.env);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.err, "--cache excludes --system")) << r.err;
}

TEST(Cli, TuningImportsExportsAndClears) {
  TuningFiles f;
  std::string out = f.dir + "out.toml", foreign = f.dir + "foreign.toml";
  ASSERT_EQ(fftmux_cli("autotune --system --shape 32 --backends fftw --repeat 2", f.env).status, 0);
  Result r = fftmux_cli("tuning export " + out, f.env);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "does not exist: run fftmux autotune first")) << r.err;
  r = fftmux_cli("tuning import " + f.system, f.env);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.out, "merged 1 measurement from " + f.system)) << r.out;
  ASSERT_EQ(fftmux_cli("tuning export " + out, f.env).status, 0);
  EXPECT_EQ(slurp(out), slurp(f.user));
  std::ofstream(foreign) << "[meta]\nschema = 7\n";
  r = fftmux_cli("tuning import " + foreign, f.env);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_TRUE(has(r.err, "has schema 7, this fftmux reads schema 1")) << r.err;
  EXPECT_EQ(slurp(out), slurp(f.user)) << "a refused import changes nothing";
  r = fftmux_cli("tuning clear --backend nope", f.env);
  EXPECT_TRUE(has(r.out, "removed 0 measurements")) << r.out;
  r = fftmux_cli("tuning clear --backend fftw", f.env);
  EXPECT_TRUE(has(r.out, "removed 1 measurement from " + f.user)) << r.out;
  EXPECT_FALSE(has(slurp(f.user), "[[measurement]]"));
  EXPECT_TRUE(has(slurp(f.system), "[[measurement]]")) << "the system cache is only read";
  EXPECT_EQ(fftmux_cli("tuning", f.env).status, 2);
}

} // namespace
