// toml++ with its implementation compiled once (toml.cpp), plus the parse
// wrapper that turns its errors into ours.
#pragma once

#define TOML_HEADER_ONLY 0
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include <string>

namespace fftmux {

// Throws Error(INVALID_ARGUMENT): "<origin> line 3, column 7: <what>".
toml::table parse_toml(const std::string& text, const std::string& origin);

// A scalar as text ("4", "true", "measure"); arrays and tables as TOML.
std::string scalar_text(const toml::node& node);

} // namespace fftmux
