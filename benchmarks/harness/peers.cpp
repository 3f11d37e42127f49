#include "peers.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

namespace bench {

namespace {

struct Module {
  const char* file;
  std::vector<std::pair<const char*, Family>> engines; // named here to report them when skipped
  const char* needs;
};

const Module modules[] = {
    {"libfftmux_bench_cufft.so",
     {{"cufft", Family::peer}, {"cudaMemcpy", Family::copy}},
     "the CUDA toolkit (cudart, cuFFT)"},
    {"libfftmux_bench_vkfft.so",
     {{"vkfft", Family::peer}},
     "the CUDA toolkit (driver, NVRTC) and libvkfft-dev"},
};

void skip_all(const Module& m, const std::string& why, Engines& out) {
  for (const auto& [name, family] : m.engines) {
    EngineInfo i;
    i.name = name;
    i.family = family;
    i.device = Device::gpu;
    i.skipped = why;
    out.push_back(std::make_unique<Skipped>(i));
  }
}

} // namespace

std::string default_peer_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (exe.parent_path() / FFTMUX_BENCH_PEER_DIR).lexically_normal().string();
}

void add_peer_modules(const std::string& dir, Engines& out) {
  for (const Module& m : modules) {
    std::string path = dir + "/" + m.file;
    if (!std::filesystem::exists(path)) {
      skip_all(m, std::string("not built: CMake did not find ") + m.needs, out);
      continue;
    }
    // Never closed: the engines' code lives there.
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    auto entry = lib ? reinterpret_cast<PeerEntry>(dlsym(lib, FFTMUX_BENCH_PEER_ENTRY)) : nullptr;
    if (!entry) {
      const char* e = dlerror();
      skip_all(m, std::string("cannot load ") + m.file + ": " + (e ? e : "no entry"), out);
      continue;
    }
    try {
      entry(&out);
    } catch (const std::exception& e) {
      skip_all(m, std::string(m.file) + ": " + e.what(), out);
    }
  }
}

} // namespace bench
