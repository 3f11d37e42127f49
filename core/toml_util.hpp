// toml++ with its implementation compiled once (toml.cpp), plus the parse
// wrapper that turns its errors into ours.
#pragma once

#define TOML_HEADER_ONLY 0
#define TOML_EXCEPTIONS 0
// toml++ 3.3 checks its internal preconditions with assert(), or under
// NDEBUG hands them to the optimizer as assumptions (__builtin_assume with
// clang). One of them is false for malformed table headers such as "[:a]"
// or "[[[1]]]" (found by tests/fuzz; marzer/tomlplusplus#301): a debug
// build aborted, a clang release build had undefined behaviour, on a bad
// config, manifest or tuning cache. Unchecked and unassumed, the parser
// reports such text as the error it is. NDEBUG is lifted while toml++ reads
// its configuration so that it takes this TOML_ASSERT in every build.
#pragma push_macro("NDEBUG")
#undef NDEBUG
#define TOML_ASSERT(expr) static_cast<void>(0)
#include <toml++/toml.h>
#pragma pop_macro("NDEBUG")

#include <string>

namespace fftmux {

// Throws Error(INVALID_ARGUMENT): "<origin> line 3, column 7: <what>".
toml::table parse_toml(const std::string& text, const std::string& origin);

// A scalar as text ("4", "true", "measure"); arrays and tables as TOML.
std::string scalar_text(const toml::node& node);

} // namespace fftmux
