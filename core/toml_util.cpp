// Compiles the toml++ implementation, once for the whole library.
#define TOML_IMPLEMENTATION
#include "toml_util.hpp"

#include "error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace fftmux {

namespace {

// toml++ 3.3 reaches __builtin_unreachable when it asks whether certain
// non-ASCII code points are whitespace (marzer/tomlplusplus#295, fixed
// after 3.3; found by tests/fuzz): undefined behaviour on a bad config,
// manifest or tuning cache. Which malformed text makes it ask cannot be
// told from outside, so toml++ is never given a non-ASCII byte: in basic
// strings such characters become \u escapes (the same string once parsed),
// in comments '?', and anywhere else (bare text, literal strings, invalid
// UTF-8, right after a backslash) the text is refused. Should this scanner
// and toml++ disagree where a string starts, as they may on malformed text,
// toml++ still sees only ASCII. A quote opens a string only where a key or
// value may start: within a token (1"é") toml++ reads on character by
// character.
class Ascii {
public:
  explicit Ascii(const std::string& text) : t_(text) { out_.reserve(text.size()); }

  // The text for toml++; valid when bad() is npos, else the refused byte's offset.
  const std::string& text() {
    while (i_ < t_.size() && ok()) {
      if ((at("\"\"\"") || at("'''")) && token_starts())
        string(t_.substr(i_, 3), true);
      else if ((t_[i_] == '"' || t_[i_] == '\'') && token_starts())
        string(t_.substr(i_, 1), false);
      else if (t_[i_] == '#')
        comment();
      else
        plain();
    }
    return out_;
  }
  size_t bad() const { return bad_; }

private:
  bool ok() const { return bad_ == std::string::npos; }
  bool at(const std::string& s) const { return t_.compare(i_, s.size(), s) == 0; }
  bool non_ascii(size_t i) const {
    return i < t_.size() && static_cast<unsigned char>(t_[i]) >= 0x80;
  }

  // Whether i_ follows, blanks aside, the start, a newline or = [ { , .
  bool token_starts() const {
    size_t k = i_;
    while (k > 0 && (t_[k - 1] == ' ' || t_[k - 1] == '\t'))
      --k;
    return k == 0 || (t_[k - 1] && std::strchr("\n\r=[{,.", t_[k - 1]));
  }

  void plain() {
    if (non_ascii(i_))
      bad_ = i_;
    else
      out_ += t_[i_++];
  }

  void comment() {
    for (; i_ < t_.size() && t_[i_] != '\n'; ++i_)
      out_ += non_ascii(i_) ? '?' : t_[i_];
  }

  // Copies the string opened by quote at i_; a single-line one also ends,
  // unterminated, at a newline.
  void string(const std::string& quote, bool multiline) {
    bool basic = quote[0] == '"';
    out_ += quote;
    i_ += quote.size();
    while (i_ < t_.size() && ok()) {
      if (at(quote)) {
        out_ += quote;
        i_ += quote.size();
        for (int extra = 0; multiline && extra < 2 && i_ < t_.size() && t_[i_] == quote[0]; ++extra)
          out_ += t_[i_++]; // """a"""" holds a": up to two more quotes belong to the string
        return;
      }
      if (!multiline && t_[i_] == '\n')
        return;
      if (basic && t_[i_] == '\\' && non_ascii(i_ + 1))
        bad_ = i_ + 1; // never a valid escape
      else if (basic && t_[i_] == '\\')
        out_ += t_.substr(i_, 2), i_ += 2;
      else if (basic && non_ascii(i_))
        escape_utf8();
      else
        plain();
    }
  }

  // The UTF-8 sequence at i_ as \uXXXX or \UXXXXXXXX; invalid UTF-8 is refused.
  void escape_utf8() {
    auto byte = [&](size_t k) { return k < t_.size() ? static_cast<unsigned char>(t_[k]) : 0u; };
    unsigned lead = byte(i_);
    size_t n = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    uint32_t c = n ? lead & (0x7Fu >> n) : 0;
    for (size_t k = 1; k < n; ++k) {
      if ((byte(i_ + k) & 0xC0) != 0x80)
        n = 0;
      c = (c << 6) | (byte(i_ + k) & 0x3F);
    }
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (!n || c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
      bad_ = i_;
      return;
    }
    char e[12];
    std::snprintf(e, sizeof e, c > 0xFFFF ? "\\U%08X" : "\\u%04X", unsigned(c));
    out_ += e;
    i_ += n;
  }

  const std::string& t_;
  std::string out_;
  size_t i_ = 0, bad_ = std::string::npos;
};

std::string position(const std::string& text, size_t at) {
  size_t line = 1 + size_t(std::count(text.begin(), text.begin() + long(at), '\n'));
  size_t start = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  size_t column = at - (start == std::string::npos ? 0 : start + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// TOML text of a node. Arrays and tables are written here, not by toml++'s
// formatter: toml++ 3.3 converts log10 of every float of an array to an
// integer to lay it out, undefined for nan and inf (found by fuzz_config).
std::string toml_text(const toml::node& node) {
  std::string s;
  if (const toml::array* a = node.as_array()) {
    for (const toml::node& e : *a)
      s += (s.empty() ? "" : ", ") + toml_text(e);
    return "[" + s + "]";
  }
  if (const toml::table* t = node.as_table()) {
    for (const auto& [key, value] : *t) {
      std::string k(key.str());
      bool bare = !k.empty() && std::all_of(k.begin(), k.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '-';
      });
      s += (s.empty() ? "" : ", ") + (bare ? k : toml_text(toml::value<std::string>(k))) + " = " +
           toml_text(value);
    }
    return "{" + s + "}";
  }
  std::ostringstream out;
  node.visit([&](auto&& v) { out << v; });
  return out.str();
}

} // namespace

toml::table parse_toml(const std::string& text, const std::string& origin) {
  Ascii ascii(text);
  const std::string& safe = ascii.text();
  if (size_t at = ascii.bad(); at != std::string::npos)
    invalid(origin + " " + position(text, at) +
            ": a non-ASCII character is read only as valid UTF-8 inside a double-quoted "
            "string, and not right after a backslash");
  toml::parse_result r = toml::parse(safe, origin);
  if (!r) {
    const toml::parse_error& e = r.error();
    invalid(origin + " line " + std::to_string(e.source().begin.line) + ", column " +
            std::to_string(e.source().begin.column) + ": " + std::string(e.description()));
  }
  return std::move(r).table();
}

std::string scalar_text(const toml::node& node) {
  if (auto s = node.value_exact<std::string>())
    return *s;
  if (auto b = node.value_exact<bool>())
    return *b ? "true" : "false";
  return toml_text(node);
}

} // namespace fftmux
