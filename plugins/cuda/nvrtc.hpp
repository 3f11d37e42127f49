// Run-time compilation of generated CUDA C++ with NVRTC, and the on-disk
// cache of its output. A cache entry is keyed by the source, the generator
// version, the NVRTC version, the target architecture, the options and the
// device, and holds the full key beside the binary, so a hash collision or a
// truncated file is a miss, never a wrong kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

namespace fftmux::cuda {

// Bumped whenever the emitted code changes meaning without its text changing
// (never needed in practice: the key holds the text), or the cache format.
constexpr const char* kGeneratorVersion = "fftmux-cuda-kernels 1";

enum class Output {
  cubin, // machine code for one architecture, loaded with cudaLibraryLoadData
  ltoir  // link-time IR for cuFFT's JIT callbacks
};

// Writes a file atomically (the host's write_file); an empty function turns
// the cache off.
using FileWriter = std::function<bool(const std::string& path, const std::string& data)>;

class Compiler {
public:
  // arch as "sm_90"; device names the device in the cache key; cache_dir may
  // be empty (no cache).
  Compiler(std::string arch, std::string device, std::string cache_dir, FileWriter write);

  // The compiled program; throws plugin::Failure with NVRTC's log on errors.
  std::string compile(const std::string& source, Output output) const;

  const std::string& arch() const { return arch_; }

  // Cache hits and misses so far: tests and plan-time reports read them.
  mutable int hits = 0, misses = 0;

private:
  std::string key(const std::string& source, Output output,
                  const std::vector<std::string>& options) const;
  std::vector<std::string> options(Output output) const;

  std::string arch_, device_, cache_dir_;
  FileWriter write_;
};

// NVRTC's version as "13.0".
std::string nvrtc_version();

// A loaded cubin and its kernels, on the current device.
class Module {
public:
  explicit Module(const std::string& cubin);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  cudaKernel_t kernel(const std::string& name) const;

private:
  cudaLibrary_t library_ = nullptr;
};

// cudaLaunchKernel on a library kernel, checked.
void launch(cudaKernel_t kernel, dim3 grid, dim3 block, size_t shared, cudaStream_t stream,
            void** args, const char* what);

} // namespace fftmux::cuda
