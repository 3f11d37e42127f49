// The config file parser (core/config.cpp): any text is a Config or an
// Error(INVALID_ARGUMENT) naming the file; no other exception escapes.
#include "fuzz.hpp"

#include <config.hpp>
#include <error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    fftmux::Config c = fftmux::parse_config(fuzz::text(data, size), "fuzz.toml");
    fuzz::expect(c.path == "fuzz.toml", "a parsed config remembers its origin");
  } catch (const fftmux::Error& e) {
    fuzz::expect(e.status() == FFTMUX_ERROR_INVALID_ARGUMENT,
                 "bad config text is INVALID_ARGUMENT");
    fuzz::expect(std::string(e.what()).rfind("fuzz.toml", 0) == 0, "the message names the file");
  }
  return 0;
}
