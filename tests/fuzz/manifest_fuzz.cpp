// The plugin manifest parser (core/registry.cpp): any text is a manifest
// with a name and a library path resolved against the manifest's folder,
// or an Error(INVALID_ARGUMENT) naming the manifest.
#include "fuzz.hpp"

#include <error.hpp>
#include <registry.hpp>

namespace {
const std::string path = "/plugins/fuzz.toml";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    fftmux::Manifest m = fftmux::parse_manifest(fuzz::text(data, size), path);
    fuzz::expect(!m.name.empty(), "a manifest names its backend");
    fuzz::expect(!m.library.empty() && m.library[0] == '/',
                 "the library path is resolved to an absolute one");
  } catch (const fftmux::Error& e) {
    fuzz::expect(e.status() == FFTMUX_ERROR_INVALID_ARGUMENT, "bad manifests are INVALID_ARGUMENT");
    fuzz::expect(std::string(e.what()).rfind(path, 0) == 0, "the message names the manifest");
  }
  return 0;
}
