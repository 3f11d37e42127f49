// Text with non-ASCII characters reaches toml++ only as ASCII: kept where
// TOML holds it (double-quoted strings, comments), refused elsewhere with
// the file and position named.
#include <error.hpp>
#include <toml_util.hpp>

#include <gtest/gtest.h>

namespace {

using fftmux::parse_toml;

std::string value(const std::string& text) {
  return parse_toml(text, "test.toml")["a"].value_or(std::string("(none)"));
}

TEST(Toml, NonAsciiInDoubleQuotedStringsIsKept) {
  EXPECT_EQ(value("a = \"/home/j\xC3\xBCrgen/\xE2\x82\xAC \xF0\x9D\x84\x9E\"\n"),
            "/home/j\xC3\xBCrgen/\xE2\x82\xAC \xF0\x9D\x84\x9E");
  EXPECT_EQ(value("a = \"\"\"x\\\n   \xC3\xA9\"\"\"\n"), "x\xC3\xA9"); // line-ending backslash
  EXPECT_EQ(value("a = \"\\u00e9\xC3\xA9\"\n"), "\xC3\xA9\xC3\xA9");
}

TEST(Toml, NonAsciiInCommentsIsIgnored) {
  EXPECT_EQ(value("# caf\xC3\xA9\na = \"x\" # \xE2\x82\xAC\n"), "x");
}

TEST(Toml, NonAsciiElsewhereIsRefusedWithItsPosition) {
  const std::pair<const char*, const char*> refused[] = {
      {"\xC3\xA9 = 1\n", "line 1, column 1"},          // bare key
      {"b = 1\na = '\xC3\xA9'\n", "line 2, column 6"}, // literal string
      {"a = \"\\\xC3\xA9\"\n", "line 1, column 7"},    // after a backslash
      {"a = \"\xFF\"\n", "line 1, column 6"},          // not UTF-8
      {"a = \"\xED\xA0\x80\"\n", "line 1, column 6"},  // a surrogate
      {"a = \"\xC0\xAF\"\n", "line 1, column 6"},      // overlong
  };
  for (const auto& [text, where] : refused) {
    try {
      parse_toml(text, "test.toml");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const fftmux::Error& e) {
      EXPECT_EQ(e.status(), FFTMUX_ERROR_INVALID_ARGUMENT);
      std::string m = e.what();
      EXPECT_NE(m.find(std::string("test.toml ") + where), std::string::npos) << m;
      EXPECT_NE(m.find("non-ASCII"), std::string::npos) << m;
    }
  }
}

// Malformed text whose non-ASCII character toml++ once met where it is
// undefined behaviour (found by fuzz_tuning): now an ordinary parse error.
TEST(Toml, MalformedTextWithNonAsciiFailsCleanly) {
  try {
    parse_toml("s =0\"x=\"\\q\xC2\xA7\"\"\"\n", "test.toml");
    ADD_FAILURE() << "accepted";
  } catch (const fftmux::Error& e) {
    EXPECT_EQ(e.status(), FFTMUX_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(e.what()).rfind("test.toml line 1", 0), 0u) << e.what();
  }
}

// Settings reach plugins as text; arrays and tables of any floats too
// (toml++'s own formatter is undefined on nan and inf in arrays).
TEST(Toml, ArraysAndTablesBecomeText) {
  toml::table t =
      parse_toml("a = [1, 5.5, nan, -inf, \"x\"]\nb = { c = [true], \"d e\" = 2 }\n", "t");
  EXPECT_EQ(fftmux::scalar_text(*t.get("a")), "[1, 5.5, nan, -inf, 'x']");
  EXPECT_EQ(fftmux::scalar_text(*t.get("b")), "{c = [true], 'd e' = 2}");
}

} // namespace
