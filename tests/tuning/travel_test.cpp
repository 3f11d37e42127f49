// Tuning that travels: the user's cache exported, imported on another
// machine (merged, the later measurement winning), shown and cleared, and
// every bad argument or foreign file refused with nothing changed.
#include <fixture_test.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <tuple>

namespace {

namespace fs = std::filesystem;
using fftmux::test::has;
using fftmux::test::problem;
using fftmux::test::routing;
using fftmux::test::ScopedEnv;
using fftmux::test::slurp;
using fftmux::test::tune;

void exhaustive(fftmux_tune_options& o) {
  o.exhaustive = 1;
}

int entries(const std::string& text) {
  int n = 0;
  for (size_t at = text.find("[[measurement]]"); at != std::string::npos;
       at = text.find("[[measurement]]", at + 1))
    ++n;
  return n;
}

struct Travel : fftmux::test::FixtureTest {
  fftmux::context open(const std::string& fast, const std::string& slow) {
    return FixtureTest::open(routing, {{"fast", fast}, {"slow", slow}});
  }
  std::string show(fftmux::context& ctx) {
    return fftmux::detail::text(
        [&](char* s, size_t n, size_t* need) { return fftmux_tuning_show(ctx.get(), s, n, need); });
  }
};

TEST_F(Travel, AnExportedCacheRoutesAnotherMachineAndLosesNothingThere) {
  std::string carried = dir + "/carried.toml";
  {
    fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
    ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK) << fftmux_last_error();
    ASSERT_EQ(fftmux_tuning_export(ctx.get(), carried.c_str()), FFTMUX_OK) << fftmux_last_error();
  }
  EXPECT_EQ(slurp(carried), slurp(cache));
  ScopedEnv other("FFTMUX_TUNING_CACHE", dir + "/other.toml");
  fftmux::context ctx = open("delay_us = 3000", "delay_us = 0");
  ASSERT_EQ(tune(ctx, {problem(32)}), FFTMUX_OK);
  size_t imported = 0;
  ASSERT_EQ(fftmux_tuning_import(ctx.get(), carried.c_str(), &imported), FFTMUX_OK)
      << fftmux_last_error();
  EXPECT_EQ(imported, 2u) << "one problem, an entry a backend";
  fftmux::plan p = ctx.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "fast") << "the imported measurement routes\n" << p.explain();
  EXPECT_EQ(ctx.make_plan(problem(32)).backend(), "slow") << "this machine's own still serves";
  EXPECT_EQ(entries(slurp(dir + "/other.toml")), 4);
}

TEST_F(Travel, AnImportKeepsTheLaterMeasurementOfAProblemInBoth) {
  std::string old = dir + "/old.toml";
  fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  ASSERT_EQ(fftmux_tuning_export(ctx.get(), old.c_str()), FFTMUX_OK);
  fftmux::context now = open("delay_us = 3000", "delay_us = 0");
  ASSERT_EQ(tune(now, {problem(16)}), FFTMUX_OK);
  ASSERT_EQ(fftmux_tuning_import(now.get(), old.c_str(), nullptr), FFTMUX_OK);
  EXPECT_EQ(now.make_plan(problem(16)).backend(), "slow") << "the user's later one is kept";

  std::string text = slurp(old), later = dir + "/later.toml";
  for (size_t at = text.find("timestamp = \""); at != std::string::npos;
       at = text.find("timestamp = \"", at + 1))
    text.replace(at + 13, 20, "2999-01-01T00:00:00Z");
  std::ofstream(later) << text;
  ASSERT_EQ(fftmux_tuning_import(now.get(), later.c_str(), nullptr), FFTMUX_OK)
      << fftmux_last_error();
  EXPECT_EQ(now.make_plan(problem(16)).backend(), "fast") << "a later import wins";
}

TEST_F(Travel, AForeignOrDamagedFileIsRefusedAndChangesNothing) {
  fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  const std::string before = slurp(cache);
  const std::pair<const char*, const char*> files[] = {
      {"foreign.toml", "[meta]\nschema = 99\n"},
      {"damaged.toml", "[meta\nschema = 1\n"},
      {"other.toml", "title = \"not a tuning cache\"\n"}};
  for (auto [name, text] : files) {
    std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    EXPECT_EQ(fftmux_tuning_import(ctx.get(), path.c_str(), nullptr),
              FFTMUX_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(has(fftmux_last_error(), path)) << fftmux_last_error();
    EXPECT_EQ(slurp(cache), before) << name;
  }
  EXPECT_TRUE(has(fftmux_last_error(), "not an fftmux tuning cache")) << fftmux_last_error();
  std::string foreign = dir + "/foreign.toml";
  fftmux_tuning_import(ctx.get(), foreign.c_str(), nullptr);
  EXPECT_TRUE(has(fftmux_last_error(), "schema 99")) << fftmux_last_error();
  EXPECT_EQ(fftmux_tuning_import(ctx.get(), (dir + "/missing.toml").c_str(), nullptr),
            FFTMUX_ERROR_IO);
  EXPECT_EQ(slurp(cache), before);
}

TEST_F(Travel, ClearRemovesOneBackendsEntriesOrAll) {
  fftmux::context ctx = open("delay_us = 0", "delay_us = 500");
  ASSERT_EQ(tune(ctx, {problem(16), problem(32)}, nullptr, exhaustive), FFTMUX_OK);
  ASSERT_EQ(entries(slurp(cache)), 4);
  size_t removed = 0;
  ASSERT_EQ(fftmux_tuning_clear(ctx.get(), "slow", &removed), FFTMUX_OK) << fftmux_last_error();
  EXPECT_EQ(removed, 2u);
  EXPECT_EQ(entries(slurp(cache)), 2);
  EXPECT_FALSE(has(slurp(cache), "backend = \"slow\""));
  EXPECT_EQ(entries(show(ctx)), 2);
  ASSERT_EQ(fftmux_tuning_clear(ctx.get(), nullptr, &removed), FFTMUX_OK);
  EXPECT_EQ(removed, 2u);
  EXPECT_EQ(entries(slurp(cache)), 0);
  EXPECT_FALSE(has(ctx.make_plan(problem(16)).explain(), "cache hit"));
}

TEST_F(Travel, ShowListsTheSystemCacheBeneathTheUsers) {
  std::string system = dir + "/system.toml";
  {
    ScopedEnv admin("FFTMUX_TUNING_CACHE", system);
    fftmux::context ctx = open("delay_us = 0", "delay_us = 3000");
    ASSERT_EQ(tune(ctx, {problem(16), problem(32)}), FFTMUX_OK);
  }
  ScopedEnv shared("FFTMUX_SYSTEM_TUNING_CACHE", system);
  fftmux::context ctx = open("delay_us = 3000", "delay_us = 0");
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  EXPECT_EQ(entries(slurp(cache)), 2);
  std::string text = show(ctx);
  EXPECT_EQ(entries(text), 4) << "two problems on two backends, one from each cache\n" << text;
  EXPECT_EQ(fftmux_tuning_clear(ctx.get(), nullptr, nullptr), FFTMUX_OK);
  EXPECT_EQ(entries(slurp(system)), 4) << "clear leaves the system cache alone";
  EXPECT_EQ(entries(show(ctx)), 4);
  EXPECT_EQ(ctx.make_plan(problem(16)).backend(), "fast") << "the system's serves again";
}

// A node's hardware key as its backend reports it: UUIDs, full driver version.
std::string key(const char* backend, const char* driver, const char* uuid) {
  return std::string("fixture ") + backend + "; driver " + driver + "; device-uuid " + uuid +
         "; driver-uuid " + uuid;
}

TEST_F(Travel, OneNodesTuningServesItsIdenticalNeighboursOnly) {
  auto open_node = [&](const char* driver, const char* uuid, bool fast_wins) {
    return open(std::string(fast_wins ? "delay_us = 0" : "delay_us = 3000") + "\nhardware = \"" +
                    key("fast", driver, uuid) + "\"",
                std::string(fast_wins ? "delay_us = 3000" : "delay_us = 0") + "\nhardware = \"" +
                    key("slow", driver, uuid) + "\"");
  };
  {
    fftmux::context ctx = open_node("550.54.15", "aa", true);
    ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  }
  std::string text = slurp(cache);
  EXPECT_FALSE(has(text, "uuid")) << "nothing unique to the node is written";
  for (const char* b : {"fast", "slow"}) { // rewritten as an older fftmux keyed it
    std::string written = std::string("fixture ") + b + "; driver 550\"";
    ASSERT_TRUE(has(text, written)) << text;
    text.replace(text.find(written), written.size(), key(b, "550.54.15", "aa") + "\"");
  }
  std::ofstream(cache) << text;
  fftmux::context same = open_node("550.90.07", "bb", false);
  fftmux::plan p = same.make_plan(problem(16));
  EXPECT_EQ(p.backend(), "fast") << "another node, same model and driver 550\n" << p.explain();
  EXPECT_TRUE(has(p.explain(), "cache hit")) << p.explain();
  fftmux::context newer = open_node("560.28.03", "aa", false);
  EXPECT_FALSE(has(newer.make_plan(problem(16)).explain(), "cache hit"))
      << "driver 560 is another class";
}

TEST_F(Travel, EveryBadArgumentIsNamed) {
  fftmux::context ctx = open("delay_us = 0", "delay_us = 0");
  fftmux_context c = ctx.get();
  std::string out = dir + "/out.toml";
  const std::tuple<std::function<fftmux_status()>, fftmux_status, std::string> cases[] = {
      {[] { return fftmux_tuning_export(nullptr, "x.toml"); }, FFTMUX_ERROR_INVALID_ARGUMENT,
       "fftmux_tuning_export: context is NULL"},
      {[&] { return fftmux_tuning_export(c, nullptr); }, FFTMUX_ERROR_INVALID_ARGUMENT,
       "path is NULL"},
      {[&] { return fftmux_tuning_import(c, "", nullptr); }, FFTMUX_ERROR_INVALID_ARGUMENT,
       "path is empty"},
      {[&] { return fftmux_tuning_clear(c, "", nullptr); }, FFTMUX_ERROR_INVALID_ARGUMENT,
       "backend is empty"},
      {[&] { return fftmux_tuning_show(c, nullptr, 8, nullptr); }, FFTMUX_ERROR_INVALID_ARGUMENT,
       "text is NULL but size = 8"},
      {[&] { return fftmux_tuning_export(c, out.c_str()); }, FFTMUX_ERROR_NOT_FOUND,
       "does not exist"},
      {[&] { return fftmux_system_tuning_path(nullptr, nullptr, 0, nullptr); },
       FFTMUX_ERROR_INVALID_ARGUMENT, "context is NULL"}};
  for (auto& [call, want, message] : cases) {
    EXPECT_EQ(call(), want) << message;
    EXPECT_TRUE(has(fftmux_last_error(), message)) << fftmux_last_error();
  }
  ASSERT_EQ(tune(ctx, {problem(16)}), FFTMUX_OK);
  EXPECT_EQ(fftmux_tuning_export(c, cache.c_str()), FFTMUX_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(fftmux_last_error(), "is the tuning cache itself")) << fftmux_last_error();
}

} // namespace
