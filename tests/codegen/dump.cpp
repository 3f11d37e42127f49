// codegen_dump: prints the plan and the kernels the generator makes for a
// problem, for reading generated code. Usage: codegen_dump n[xn...] [batch] [kind]
// [precision] [dialect] [shared_bytes] [variant].
// With FFTMUX_DUMP_NVRTC=sm_90 (built where NVRTC is found) it prints, in
// place of each CUDA kernel's source, what ptxas reports of it when NVRTC
// compiles it as the CUDA backend does (registers, spills) and the count of
// its machine instructions: the code the GPU runs, which nvcc's differs
// from (8192 points F32: NVRTC 128 registers, nvcc 194).
#include <fftmux/codegen.hpp>
#include <fftmux/gpu/variants.hpp>
#ifdef FFTMUX_DUMP_NVRTC
#include <nvrtc.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef FFTMUX_DUMP_NVRTC
// The machine instructions of a cubin's code sections (16 bytes each on
// sm_70 and later), read from its ELF section headers.
std::string instructions(const std::string& elf) {
  auto at = [&](size_t off, size_t bytes) {
    uint64_t v = 0;
    if (off + bytes <= elf.size())
      std::memcpy(&v, elf.data() + off, bytes);
    return v;
  };
  if (elf.size() < 64 || elf.compare(0, 4, "\177ELF") != 0)
    return "";
  uint64_t shoff = at(0x28, 8), size = at(0x3a, 2), count = at(0x3c, 2), names = at(0x3e, 2);
  uint64_t strtab = at(shoff + names * size + 0x18, 8), total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t h = shoff + i * size, name = strtab + at(h, 4);
    if (name < elf.size() && elf.compare(name, 6, ".text.") == 0)
      total += at(h + 0x20, 8) / 16;
  }
  return "// SASS instructions: " + std::to_string(total) + "\n";
}
#endif

// The kernel's source, or with FFTMUX_DUMP_NVRTC what ptxas says of it.
std::string shown(const std::string& src) {
  const char* arch = std::getenv("FFTMUX_DUMP_NVRTC");
  if (!arch || !*arch)
    return src;
#ifdef FFTMUX_DUMP_NVRTC
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src.c_str(), "kernel.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS)
    return "// nvrtcCreateProgram failed";
  std::string target = std::string("--gpu-architecture=") + arch;
  const char* opts[] = {target.c_str(), "-std=c++17", "--ptxas-options=-v"};
  nvrtcResult r = nvrtcCompileProgram(prog, 3, opts);
  size_t n = 0;
  nvrtcGetProgramLogSize(prog, &n);
  std::string log(n, '\0');
  nvrtcGetProgramLog(prog, log.data());
  std::string cubin;
  if (r == NVRTC_SUCCESS && nvrtcGetCUBINSize(prog, &n) == NVRTC_SUCCESS) {
    cubin.resize(n);
    nvrtcGetCUBIN(prog, cubin.data());
  }
  nvrtcDestroyProgram(&prog);
  log.resize(std::strlen(log.c_str())); // the size counted the terminating NUL
  return (r == NVRTC_SUCCESS ? "" : "// NVRTC failed\n") + log + instructions(cubin);
#else
  return "// built without NVRTC: FFTMUX_DUMP_NVRTC has no effect\n" + src;
#endif
}

int main(int argc, char** argv) {
  using namespace fftmux::codegen;
  fftmux_desc d;
  fftmux_desc_init(&d);
  // n may be a shape, 4096x4096: dimensions slowest first, as in fftmux_desc.
  d.rank = 0;
  for (const char* s = argc > 1 ? argv[1] : "1024"; *s && d.rank < FFTMUX_MAX_RANK;) {
    char* end;
    d.n[d.rank++] = std::strtoll(s, &end, 10);
    s = *end == 'x' ? end + 1 : end + std::strlen(end);
  }
  d.batch = argc > 2 ? std::atoll(argv[2]) : 1;
  const char* kind = argc > 3 ? argv[3] : "c2c";
  d.kind = !std::strcmp(kind, "r2c")   ? FFTMUX_R2C
           : !std::strcmp(kind, "c2r") ? FFTMUX_C2R
                                       : FFTMUX_C2C;
  const char* const precisions[] = {"f32", "f64", "f16", "bf16"};
  for (uint32_t p = 0; argc > 4 && p < 4; ++p)
    if (!std::strcmp(argv[4], precisions[p]))
      d.precision = p;
  Dialect dialect = argc > 5 && !std::strcmp(argv[5], "cuda")     ? Dialect::cuda
                    : argc > 5 && !std::strcmp(argv[5], "opengl") ? Dialect::opengl
                                                                  : Dialect::vulkan;
  Device dev;
  if (argc > 6)
    dev.shared_bytes = uint32_t(std::atoi(argv[6]));
  if (dialect == Dialect::cuda) { // as on the H200 (compute capability 9.0)
    dev.cluster = 8;
    dev.bulk_copy = true;
  }
  dev = dialect_limits(dev, dialect);
  Options opt;
  for (const Variant& v : variants())
    if (argc > 7 && !std::strcmp(argv[7], v.name))
      opt = v.options;
  bool cpu = std::getenv("FFTMUX_DUMP_CPU");
  if (cpu)
    dev.subgroup = 8;
  opt = device_defaults(opt, cpu); // as the GPU backends plan
  fftmux_layout l;
  l.struct_size = sizeof l;
  if (fftmux_desc_layout(&d, &l) != FFTMUX_OK) {
    std::fprintf(stderr, "%s\n", fftmux_last_error());
    return 1;
  }
  std::memcpy(d.in_strides, l.in_strides, sizeof d.in_strides);
  std::memcpy(d.out_strides, l.out_strides, sizeof d.out_strides);
  d.in_distance = l.in_distance;
  d.out_distance = l.out_distance;
  try {
    Plan p = plan(d, d.kind == FFTMUX_C2R ? FFTMUX_INVERSE : FFTMUX_FORWARD, dev, opt);
    std::printf("// %s; scratch %llu; table %zu\n", p.summary.c_str(),
                (unsigned long long)p.scratch_elements, (size_t)p.table_size);
    for (const Pass& pass : p.passes) {
      const Kernel& k = pass.kernel;
      std::printf("// ---- %s: length %lld threads %u teams %u %s groups %llu\n", k.name.c_str(),
                  (long long)k.length, k.threads, k.teams, k.team_major ? "major" : "minor",
                  (unsigned long long)k.groups());
      std::printf("// radices");
      for (const Step& s : k.steps)
        if (s.kind == Step::stage)
          std::printf(" %d", s.radix);
      std::printf("; shared words %u%s%s\n", k.shared_scalars(),
                  k.exchange != Exchange::whole ? " split" : "", k.pad_shared ? " padded" : "");
      std::printf("%s\n", shown(emit(k, dialect)).c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "declined: %s\n", e.what());
    return 2;
  }
}
