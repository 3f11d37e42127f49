// Compiles the toml++ implementation, once for the whole library.
#define TOML_IMPLEMENTATION
#include "toml_util.hpp"

#include "error.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace fftmux {

namespace {

// toml++ 3.3 reaches __builtin_unreachable when it asks whether certain
// non-ASCII code points are whitespace (marzer/tomlplusplus#295, fixed
// after 3.3; found by tests/fuzz): undefined behaviour on a bad config,
// manifest or tuning cache. It asks for a non-ASCII character outside
// strings and comments, which is never TOML, and for one that follows a
// backslash in a basic string, whitespace aside, which is never a valid
// escape either. Such text is refused before toml++ reads it. A quote
// opens a string only where a key or value may start: within a token
// (1"é") toml++ reads on character by character.
class Unsafe {
public:
  explicit Unsafe(const std::string& text) : t_(text) {}

  // Offset of the first byte toml++ must not see, or npos.
  size_t find() {
    while (i_ < t_.size() && bad_ == std::string::npos) {
      if ((at("\"\"\"") || at("'''")) && token_starts())
        string(t_.substr(i_, 3), true);
      else if ((t_[i_] == '"' || t_[i_] == '\'') && token_starts())
        string(t_.substr(i_, 1), false);
      else if (t_[i_] == '#')
        i_ = std::min(t_.find('\n', i_), t_.size());
      else if (non_ascii(i_))
        bad_ = i_;
      else
        ++i_;
    }
    return bad_;
  }

private:
  bool at(const std::string& s) const { return t_.compare(i_, s.size(), s) == 0; }
  bool non_ascii(size_t i) const { return static_cast<unsigned char>(t_[i]) >= 0x80; }

  // Whether i_ follows, blanks aside, the start, a newline or = [ { , .
  bool token_starts() const {
    size_t k = i_;
    while (k > 0 && (t_[k - 1] == ' ' || t_[k - 1] == '\t'))
      --k;
    return k == 0 || (t_[k - 1] && std::strchr("\n\r=[{,.", t_[k - 1]));
  }

  // Moves past the string opened by quote at i_; a single-line one also
  // ends, unterminated, at a newline.
  void string(const std::string& quote, bool multiline) {
    bool basic = quote[0] == '"';
    i_ += quote.size();
    while (i_ < t_.size() && bad_ == std::string::npos) {
      if (at(quote)) {
        i_ += quote.size();
        for (int extra = 0; multiline && extra < 2 && i_ < t_.size() && t_[i_] == quote[0];
             ++extra)
          ++i_; // """a"""" holds a": up to two more quotes belong to the string
        return;
      }
      if (!multiline && t_[i_] == '\n')
        return;
      if (basic && t_[i_] == '\\')
        escape();
      else
        ++i_;
    }
  }

  void escape() {
    size_t j = i_ + 1;
    while (j < t_.size() && std::strchr(" \t\r\n", t_[j]) && t_[j])
      ++j;
    if (j < t_.size() && non_ascii(j))
      bad_ = j;
    i_ += 2;
  }

  const std::string& t_;
  size_t i_ = 0, bad_ = std::string::npos;
};

std::string position(const std::string& text, size_t at) {
  size_t line = 1 + size_t(std::count(text.begin(), text.begin() + long(at), '\n'));
  size_t start = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  size_t column = at - (start == std::string::npos ? 0 : start + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

} // namespace

toml::table parse_toml(const std::string& text, const std::string& origin) {
  if (size_t at = Unsafe(text).find(); at != std::string::npos)
    invalid(origin + " " + position(text, at) +
            ": a non-ASCII character outside a string or comment, or after a backslash, is not "
            "TOML");
  toml::parse_result r = toml::parse(text, origin);
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
  std::ostringstream out;
  node.visit([&](auto&& v) { out << v; });
  return out.str();
}

} // namespace fftmux
