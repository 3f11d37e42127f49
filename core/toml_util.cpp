// Compiles the toml++ implementation, once for the whole library.
#define TOML_IMPLEMENTATION
#include "toml_util.hpp"

#include "error.hpp"

#include <sstream>

namespace fftmux {

toml::table parse_toml(const std::string& text, const std::string& origin) {
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
