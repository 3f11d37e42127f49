#include "nvrtc.hpp"

#include "check.hpp"

#include <fftmux/gpu/generation.hpp>

#include <nvrtc.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

namespace fftmux::cuda {

using plugin::fail;

namespace {

constexpr char kMagic[8] = {'F', 'F', 'T', 'M', 'X', 'C', 'U', '1'};

void put_u64(std::string& out, uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), 8);
}

bool get_u64(const std::string& in, size_t& at, uint64_t& v) {
  if (in.size() < at + 8)
    return false;
  std::memcpy(&v, in.data() + at, 8);
  at += 8;
  return true;
}

std::string pack_entry(const std::string& key, const std::string& binary) {
  std::string out(kMagic, sizeof kMagic);
  put_u64(out, key.size());
  out += key;
  put_u64(out, binary.size());
  out += binary;
  return out;
}

// The binary of an entry whose key matches; empty otherwise.
std::string unpack_entry(const std::string& file, const std::string& key) {
  size_t at = sizeof kMagic;
  uint64_t size = 0;
  if (file.compare(0, sizeof kMagic, kMagic, sizeof kMagic) != 0 || !get_u64(file, at, size) ||
      size != key.size() || file.compare(at, size, key) != 0)
    return {};
  at += size;
  if (!get_u64(file, at, size) || file.size() != at + size)
    return {};
  return file.substr(at);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct ProgramDeleter {
  void operator()(nvrtcProgram p) const { nvrtcDestroyProgram(&p); }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDeleter>;

std::string program_log(nvrtcProgram p) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS || size <= 1)
    return {};
  std::string log(size, '\0');
  nvrtcGetProgramLog(p, log.data());
  log.resize(size - 1);
  return log;
}

std::string run_nvrtc(const std::string& source, Output output,
                      const std::vector<std::string>& options) {
  nvrtcProgram raw = nullptr;
  check(nvrtcCreateProgram(&raw, source.c_str(), "fftmux_generated.cu", 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  Program program(raw);
  std::vector<const char*> argv;
  for (const auto& o : options)
    argv.push_back(o.c_str());
  nvrtcResult r = nvrtcCompileProgram(raw, int(argv.size()), argv.data());
  if (r != NVRTC_SUCCESS)
    fail(FFTMUX_ERROR_BACKEND, std::string("NVRTC could not compile a generated kernel (") +
                                   nvrtcGetErrorString(r) + "):\n" + program_log(raw));
  size_t size = 0;
  std::string binary;
  if (output == Output::cubin) {
    check(nvrtcGetCUBINSize(raw, &size), "nvrtcGetCUBINSize");
    binary.resize(size);
    check(nvrtcGetCUBIN(raw, binary.data()), "nvrtcGetCUBIN");
  } else {
    check(nvrtcGetLTOIRSize(raw, &size), "nvrtcGetLTOIRSize");
    binary.resize(size);
    check(nvrtcGetLTOIR(raw, binary.data()), "nvrtcGetLTOIR");
  }
  return binary;
}

} // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

Compiler::Compiler(std::string arch, std::string device, std::string cache_dir, FileWriter write)
    : arch_(std::move(arch)), device_(std::move(device)), cache_dir_(std::move(cache_dir)),
      write_(std::move(write)) {}

std::vector<std::string> Compiler::options(Output output) const {
  std::string number = arch_.substr(arch_.find('_') + 1);
  if (output == Output::cubin)
    return {"--gpu-architecture=sm_" + number, "-std=c++17"};
  // cuFFT links LTO callbacks into its own kernels: relocatable LTO IR.
  return {"--gpu-architecture=compute_" + number, "-std=c++17", "-dlto", "-rdc=true"};
}

std::string Compiler::key(const std::string& source, Output output,
                          const std::vector<std::string>& options) const {
  std::string k = std::string(kGeneratorVersion) + "\nnvrtc " + nvrtc_version() + "\n" + arch_ +
                  "\n" + device_ + "\n" + (output == Output::cubin ? "cubin" : "ltoir") + "\n";
  for (const auto& o : options)
    k += o + " ";
  return k + "\n" + source;
}

std::string Compiler::compile(const std::string& source, Output output) const {
  std::vector<std::string> opts = options(output);
  std::string k = key(source, output, opts);
  std::string path;
  if (!cache_dir_.empty()) {
    path =
        cache_dir_ + "/" + codegen::hash_hex(k) + (output == Output::cubin ? ".cubin" : ".ltoir");
    std::string cached = unpack_entry(read_file(path), k);
    if (!cached.empty()) {
      ++hits;
      return cached;
    }
  }
  ++misses;
  std::string binary = run_nvrtc(source, output, opts);
  if (!path.empty() && write_)
    write_(path, pack_entry(k, binary)); // a cache that cannot be written only costs time
  return binary;
}

Module::Module(const std::string& cubin) {
  check(cudaLibraryLoadData(&library_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
        "cudaLibraryLoadData");
}

Module::~Module() {
  if (library_)
    cudaLibraryUnload(library_);
}

cudaKernel_t Module::kernel(const std::string& name) const {
  cudaKernel_t k = nullptr;
  check(cudaLibraryGetKernel(&k, library_, name.c_str()),
        ("cudaLibraryGetKernel(" + name + ")").c_str());
  return k;
}

void launch(cudaKernel_t kernel, dim3 grid, dim3 block, size_t shared, cudaStream_t stream,
            void** args, const char* what) {
  check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared, stream),
        what);
}

} // namespace fftmux::cuda
