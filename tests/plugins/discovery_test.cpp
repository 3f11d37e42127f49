// Discovery and loading against the fixture matrix: every broken plugin is
// skipped with its path and reason while the context keeps working.
#include <fftmux/fftmux.hpp>
#include <reference.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

const std::string matrix = std::string(FIXTURES) + "/matrix";
const std::string routing = std::string(FIXTURES) + "/routing";

struct Env {
  const char* name;
  Env(const char* n, const std::string& value) : name(n) { setenv(n, value.c_str(), 1); }
  ~Env() { unsetenv(name); }
};

std::string write_config(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

fftmux::context open(const std::string& plugin_path, const std::string& config = "") {
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  o.plugin_path = plugin_path.empty() ? nullptr : plugin_path.c_str();
  o.config_path = config.empty() ? nullptr : config.c_str();
  return fftmux::context(o);
}

std::map<std::string, fftmux_backend_info> by_name(const fftmux::context& ctx, bool probe) {
  std::map<std::string, fftmux_backend_info> m;
  for (const auto& b : ctx.backends(probe))
    m.emplace(b.name, b);
  return m;
}

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  std::stringstream s;
  s << maps.rdbuf();
  return s.str().find(library) != std::string::npos;
}

void expect_state(const std::map<std::string, fftmux_backend_info>& all, const std::string& name,
                  fftmux_backend_state state, const std::string& fragment) {
  auto it = all.find(name);
  ASSERT_NE(it, all.end()) << name << " is not listed";
  EXPECT_EQ(it->second.state, uint32_t(state)) << name << ": " << it->second.reason;
  EXPECT_NE(std::string(it->second.reason).find(fragment), std::string::npos)
      << name << ": " << it->second.reason;
}

TEST(Discovery, EveryBrokenPluginIsSkippedWithItsReason) {
  std::string cfg = write_config("initfail.toml", "[backends.initfail]\nfail_at = \"init\"\n");
  fftmux::context ctx = open(matrix, cfg);
  auto all = by_name(ctx, true);
  expect_state(all, "good", FFTMUX_BACKEND_READY, "");
  expect_state(all, "example", FFTMUX_BACKEND_READY, "");
  expect_state(all, "twin", FFTMUX_BACKEND_READY, "");
  expect_state(all, "initfail", FFTMUX_BACKEND_UNAVAILABLE, "fails at init as configured");
  expect_state(all, "noentry", FFTMUX_BACKEND_SKIPPED, "does not export fftmux_plugin_entry");
  expect_state(all, "newabi", FFTMUX_BACKEND_SKIPPED, "needs plugin ABI 2");
  expect_state(all, "futureabi", FFTMUX_BACKEND_SKIPPED, "asks for plugin ABI 2");
  expect_state(all, "missing", FFTMUX_BACKEND_SKIPPED, "libdoesnotexist.so, which does not exist");
  expect_state(all, "notalib", FFTMUX_BACKEND_SKIPPED, "cannot load");
  expect_state(all, "malformed", FFTMUX_BACKEND_SKIPPED, "malformed.toml line 2");
  expect_state(all, "wrongname", FFTMUX_BACKEND_SKIPPED, "calls itself 'good'");
  // Two plugins named twin: the second is listed, skipped, with both paths.
  int twins = 0;
  for (const auto& b : ctx.backends(false))
    if (std::string(b.name) == "twin" && b.state == FFTMUX_BACKEND_SKIPPED) {
      ++twins;
      EXPECT_NE(std::string(b.reason).find("already taken by"), std::string::npos) << b.reason;
    }
  EXPECT_EQ(twins, 1);
  EXPECT_NE(ctx.notes().find("noentry"), std::string::npos) << ctx.notes();
}

TEST(Discovery, TheContextKeepsWorkingBesideBrokenPlugins) {
  fftmux::context ctx = open(matrix);
  fftmux_desc d = fftmux::make_desc({12}, FFTMUX_C2C, FFTMUX_F64, 2);
  auto in = fftmux::ref::random_input(d, 7);
  for (const char* backend : {"good", "example", "auto"}) {
    fftmux::plan p = ctx.make_plan(d, backend);
    std::vector<unsigned char> out(fftmux::layout(d).out_bytes);
    p.forward(in.data(), out.data());
    double err = fftmux::ref::relative_error(fftmux::ref::read_side(d, false, out.data()),
                                             fftmux::ref::expected(d, FFTMUX_FORWARD, in.data()));
    EXPECT_LE(err, fftmux::ref::error_bound(d)) << backend;
  }
}

// The fixtures' tables end before plan_create_v2, as a plugin built before it.
TEST(Discovery, APluginWithoutPlanCreateV2PlansAndIgnoresThreads) {
  fftmux::context ctx = open(matrix);
  fftmux_desc d = fftmux::make_desc({12}, FFTMUX_C2C, FFTMUX_F64, 2);
  auto in = fftmux::ref::random_input(d, 3);
  fftmux::plan p = ctx.make_plan(d, "good", nullptr, 4);
  std::vector<unsigned char> out(fftmux::layout(d).out_bytes);
  p.forward(in.data(), out.data());
  double err = fftmux::ref::relative_error(fftmux::ref::read_side(d, false, out.data()),
                                           fftmux::ref::expected(d, FFTMUX_FORWARD, in.data()));
  EXPECT_LE(err, fftmux::ref::error_bound(d));
  EXPECT_NE(p.explain().find("threads: 4 asked, ignored: good has no per-plan thread count"),
            std::string::npos)
      << p.explain();
}

TEST(Discovery, ListingLoadsNoLibrary) {
  fftmux::context ctx = open(routing);
  auto all = by_name(ctx, false);
  expect_state(all, "fast", FFTMUX_BACKEND_LISTED, "");
  EXPECT_FALSE(mapped("libfixture_routing_fast.so"));
  by_name(ctx, true);
  EXPECT_TRUE(mapped("libfixture_routing_fast.so"));
}

TEST(Discovery, QueryGivesTheBackendsReason) {
  fftmux::context ctx = open(matrix);
  fftmux_support s = ctx.query(fftmux::make_desc({8}, FFTMUX_C2C, FFTMUX_F32), "example");
  EXPECT_EQ(s.supported, 0u);
  EXPECT_NE(std::string(s.reason).find("lacks FFTMUX_CAP_F32"), std::string::npos) << s.reason;
  s = ctx.query(fftmux::make_desc({8, 8}, FFTMUX_C2C, FFTMUX_F64), "example");
  EXPECT_EQ(s.supported, 0u);
  EXPECT_NE(std::string(s.reason).find("the problem has rank 2"), std::string::npos) << s.reason;
  s = ctx.query(fftmux::make_desc({8}, FFTMUX_C2C, FFTMUX_F64), "example");
  EXPECT_EQ(s.supported, 1u);
  EXPECT_STREQ(s.variants, "naive");
}

// The info's and the query's fixed fields hold whole names only; the whole
// list comes from fftmux_backend_variants, and its last name plans.
TEST(Discovery, LongVariantListsStayWhole) {
  fftmux::context ctx = open(std::string(FIXTURES) + "/variants");
  auto all = ctx.backends(true);
  ASSERT_EQ(all.size(), 1u);
  std::string field = all[0].variants, list = ctx.variants(0);
  EXPECT_LT(field.size(), sizeof all[0].variants);
  ASSERT_GT(list.size(), field.size());
  EXPECT_EQ(list.substr(0, field.size() + 1), field + ",") << field;
  EXPECT_EQ(list.substr(list.rfind(',') + 1), "variant-with-a-long-name-10");
  fftmux_desc d = fftmux::make_desc({8}, FFTMUX_C2C, FFTMUX_F64);
  fftmux_support s = ctx.query(d, "many");
  EXPECT_EQ(list.substr(0, std::strlen(s.variants) + 1), std::string(s.variants) + ",");
  EXPECT_NO_THROW(ctx.make_plan(d, "many", "variant-with-a-long-name-10"));
  size_t needed = 0;
  EXPECT_EQ(fftmux_backend_variants(ctx.get(), 1, nullptr, 0, &needed),
            FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fftmux_last_error()).find("index = 1: there are 1 backends"),
            std::string::npos)
      << fftmux_last_error();
}

TEST(Discovery, DisableGlobsTurnPluginsOff) {
  Env disable("FFTMUX_PLUGINS_DISABLE", "good,tw*");
  fftmux::context ctx = open(matrix);
  auto all = by_name(ctx, false);
  expect_state(all, "good", FFTMUX_BACKEND_SKIPPED, "disabled by FFTMUX_PLUGINS_DISABLE=good");
  expect_state(all, "twin", FFTMUX_BACKEND_SKIPPED, "disabled by FFTMUX_PLUGINS_DISABLE=tw*");
  expect_state(all, "example", FFTMUX_BACKEND_LISTED, "");
}

TEST(Discovery, EnvironmentPathsReplaceAndPrepend) {
  {
    Env path("FFTMUX_PLUGIN_PATH", routing);
    auto all = by_name(open(""), false);
    EXPECT_EQ(all.count("fast"), 1u);
    EXPECT_EQ(all.count("fftw"), 0u) << "FFTMUX_PLUGIN_PATH replaces the default folder";
  }
  {
    Env add("FFTMUX_ADD_PLUGIN_PATH", routing);
    fftmux::context ctx = open("");
    std::vector<fftmux_backend_info> list = ctx.backends(false);
    ASSERT_GE(list.size(), 3u);
    EXPECT_STREQ(list[0].name, "fast") << "added paths come first";
    EXPECT_EQ(by_name(ctx, false).count("fftw"), 1u) << "the default folder is still searched";
  }
}

TEST(Discovery, ALibraryNamedDirectlyIsLoadedForItsName) {
  Env path("FFTMUX_PLUGIN_PATH", routing + "/libfixture_routing_slow.so");
  auto all = by_name(open(""), false);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all.count("slow"), 1u);
}

TEST(Discovery, TheDefaultFolderIsFoundBesideTheLibrary) {
  auto all = by_name(open(""), false);
  ASSERT_EQ(all.count("fftw"), 1u);
  EXPECT_EQ(std::string(all["fftw"].library), std::string(FFTW_PLUGIN_DIR) + "/libfftmux_fftw.so");
}

TEST(Discovery, ConfigPluginDirsAreSearched) {
  std::string cfg = write_config("dirs.toml", "plugin_dirs = [\"" + routing + "\"]\n");
  auto all = by_name(open("", cfg), false);
  EXPECT_EQ(all.count("fast"), 1u);
  EXPECT_EQ(all.count("fftw"), 1u);
}

TEST(Discovery, AnExplicitMalformedConfigFailsClearly) {
  std::string cfg = write_config("bad.toml", "plugin_dirs = [\n");
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  o.config_path = cfg.c_str();
  fftmux_context ctx = nullptr;
  EXPECT_EQ(fftmux_context_create(&o, &ctx), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ctx, nullptr);
  EXPECT_NE(std::string(fftmux_last_error()).find(cfg + " line"), std::string::npos)
      << fftmux_last_error();
  o.config_path = "/nonexistent/fftmux.toml";
  EXPECT_EQ(fftmux_context_create(&o, &ctx), FFTMUX_ERROR_IO);
  EXPECT_NE(std::string(fftmux_last_error()).find("cannot read the config file"),
            std::string::npos);
}

TEST(Discovery, AMalformedDefaultConfigIsNotedAndSurvived) {
  std::string home = ::testing::TempDir() + "xdg";
  std::string dir = home + "/fftmux";
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(dir + "/fftmux.toml") << "preference = 3\n";
  Env xdg("XDG_CONFIG_HOME", home);
  const char* saved = std::getenv("FFTMUX_CONFIG");
  std::string keep = saved ? saved : "";
  unsetenv("FFTMUX_CONFIG");
  fftmux::context ctx = open("");
  EXPECT_NE(ctx.notes().find("config ignored, defaults used"), std::string::npos) << ctx.notes();
  EXPECT_NO_THROW(ctx.make_plan(fftmux::make_desc({16}), "fftw"));
  if (saved)
    setenv("FFTMUX_CONFIG", keep.c_str(), 1);
}

} // namespace
