// The plugin's optimized() against shaderc's own performance level: the
// plugin compiles generated kernels at level zero and runs spirv-opt itself,
// without shaderc's validation of the unoptimized words, and must get the
// same words. No device needed.
#include "engine.hpp"

#include <fftmux/codegen.hpp>
#include <fftmux/gpu/variants.hpp>

#include <gtest/gtest.h>
#include <reference.hpp>
#include <shaderc/shaderc.hpp>

namespace {

using namespace fftmux::codegen;

std::vector<uint32_t> spirv(const std::string& src, shaderc_optimization_level level) {
  static const shaderc::Compiler compiler;
  shaderc::CompileOptions o;
  o.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  o.SetOptimizationLevel(level);
  auto r = compiler.CompileGlslToSpv(src, shaderc_compute_shader, "kernel.comp", o);
  EXPECT_EQ(r.GetCompilationStatus(), shaderc_compilation_status_success) << r.GetErrorMessage();
  return {r.cbegin(), r.cend()};
}

// Batched 1D lines of n points, resolved as the plugins receive them.
fftmux_desc lines(int64_t n, fftmux_kind kind, fftmux_precision p) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = 1;
  d.n[0] = n;
  d.kind = kind;
  d.precision = p;
  d.batch = 4;
  return fftmux::ref::resolved(d);
}

TEST(Spirv, OptimizedIsShadercsPerformanceLevel) {
  Device vk; // Vulkan on the H200: 48 KiB of shared memory a group
  vk.shared_bytes = 49152;
  vk.max_threads = 1024;
  vk = dialect_limits(vk, Dialect::vulkan);
  int kernels = 0;
  for (fftmux_desc d :
       {lines(64, FFTMUX_C2C, FFTMUX_F32), lines(1000, FFTMUX_C2C, FFTMUX_F64),
        lines(8192, FFTMUX_C2C, FFTMUX_F32), lines(4097, FFTMUX_C2C, FFTMUX_F32),
        lines(1 << 17, FFTMUX_C2C, FFTMUX_F32), lines(1000, FFTMUX_R2C, FFTMUX_F32)})
    for (const Pass& pass : plan(d, FFTMUX_FORWARD, vk).passes) {
      std::string src = emit(pass.kernel, Dialect::vulkan);
      EXPECT_EQ(fftmux::vulkan::optimized(spirv(src, shaderc_optimization_level_zero)),
                spirv(src, shaderc_optimization_level_performance))
          << d.n[0] << " points, " << pass.kernel.name;
      ++kernels;
    }
  EXPECT_GE(kernels, 7);
}

// The plugin's warm-up compiles empty_shader: it must compile and open
// with what the dialect's kernels open with (their GLSL version and
// extensions), or it builds glslang's tables for another version.
TEST(Spirv, EmptyShaderCompilesAndOpensAsTheKernels) {
  const std::string body = "layout(local_size_x = 1) in;\nvoid main() {}\n";
  for (Dialect dialect : {Dialect::vulkan, Dialect::vulkan_pointers}) {
    std::string empty = empty_shader(dialect);
    ASSERT_GT(empty.size(), body.size());
    ASSERT_EQ(empty.substr(empty.size() - body.size()), body);
    EXPECT_FALSE(spirv(empty, shaderc_optimization_level_zero).empty()) << dialect_name(dialect);
    std::string opening = empty.substr(0, empty.size() - body.size());
    std::string kernel = emit(
        plan(lines(64, FFTMUX_C2C, FFTMUX_F32), FFTMUX_FORWARD, dialect_limits(Device{}, dialect))
            .passes.at(0)
            .kernel,
        dialect);
    EXPECT_EQ(kernel.compare(0, opening.size(), opening), 0) << dialect_name(dialect);
  }
}

} // namespace
