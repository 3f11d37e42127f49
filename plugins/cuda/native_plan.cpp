#include "native.hpp"

#include "check.hpp"
#include "route.hpp"

#include <algorithm>
#include <complex>
#include <future>

namespace fftmux::cuda {

namespace {

using plugin::fail;

constexpr uint64_t kMaxIndex = uint64_t(1) << 32; // generated kernels index with uint

uint64_t side_elements(const fftmux_desc& d, bool input) {
  return uint64_t(user_side(d, input).span());
}

std::vector<codegen::Plan> plan_directions(const fftmux_desc& d, const codegen::Device& limits) {
  std::vector<codegen::Plan> plans;
  for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
    if (runs(d, dir))
      plans.push_back(codegen::plan(d, dir, limits));
  return plans;
}

// A table of the plan's precision.
std::string table_bytes(const std::vector<std::complex<double>>& table, bool f64) {
  if (f64)
    return std::string(reinterpret_cast<const char*>(table.data()), table.size() * 16);
  std::vector<std::complex<float>> f(table.begin(), table.end());
  return std::string(reinterpret_cast<const char*>(f.data()), f.size() * 8);
}

class NativePlan final : public Plan {
public:
  NativePlan(Backend& b, const fftmux_desc& d) : Plan(b, d) {
    std::vector<codegen::Plan> plans;
    try {
      plans = plan_directions(d, native_limits(b.device.shared_optin));
    } catch (const codegen::Unsupported& e) {
      fail(FFTMUX_ERROR_UNSUPPORTED, std::string("cuda/native: ") + e.what());
    }
    compile(plans);
    bool f64 = d.precision == FFTMUX_F64;
    uint64_t scratch = 0;
    size_t p = 0;
    for (int s = 0; s < 2; ++s) {
      if (!runs(d, s == 0 ? FFTMUX_FORWARD : FFTMUX_INVERSE))
        continue;
      const codegen::Plan& plan = plans[p++];
      std::string table = table_bytes(plan.table, f64);
      dirs_[s].table = DeviceMemory(table.size());
      check(cudaMemcpy(dirs_[s].table.get(), table.data(), table.size(), cudaMemcpyHostToDevice),
            "cudaMemcpy of the twiddle table");
      scratch = std::max<uint64_t>(scratch, plan.scratch_elements * (f64 ? 16 : 8));
      summary_ = plan.summary;
    }
    if (scratch)
      scratch_ = DeviceMemory(scratch);
  }

  void enqueue(int direction, const void* in, void* out) override {
    backend().use();
    const Direction& dir = dirs_[Route::slot(direction)];
    for (const Pass& pass : dir.passes) {
      const void* src = pointer(pass.src, in, out);
      void* dst = const_cast<void*>(pointer(pass.dst, in, out));
      const void* tab = dir.table.get();
      // Workgroups beyond one grid go in further launches, offset.
      uint64_t x = std::min<uint64_t>(pass.groups, 0x7fffffffu);
      for (uint64_t done = 0; done < pass.groups;) {
        uint64_t y = std::min<uint64_t>((pass.groups - done + x - 1) / x, 65535);
        unsigned offset = unsigned(done);
        void* args[] = {&src, &dst, &tab, &offset};
        launch(pass.kernel, dim3(unsigned(x), unsigned(y)), dim3(pass.threads), pass.shared,
               stream(), args, "a generated FFT kernel");
        done += x * y;
      }
    }
  }

private:
  struct Pass {
    cudaKernel_t kernel = nullptr;
    codegen::Binding src, dst;
    uint64_t groups = 0;
    unsigned threads = 0;
    size_t shared = 0;
  };
  struct Direction {
    std::vector<Pass> passes;
    DeviceMemory table;
  };

  const void* pointer(codegen::Binding b, const void* in, void* out) const {
    switch (b) {
    case codegen::Binding::input:
      return in;
    case codegen::Binding::output:
      return out;
    default:
      return scratch_.get();
    }
  }

  // NVRTC compiles the passes concurrently; most come from the disk cache.
  void compile(const std::vector<codegen::Plan>& plans) {
    const Compiler& compiler = *backend().compiler;
    std::vector<std::future<std::string>> cubins;
    std::vector<const codegen::Pass*> passes;
    for (const auto& plan : plans)
      for (const auto& pass : plan.passes) {
        std::string source = codegen::emit(pass.kernel, codegen::Dialect::cuda);
        cubins.push_back(std::async(std::launch::async, [&compiler, source] {
          return compiler.compile(source, Output::cubin);
        }));
        passes.push_back(&pass);
      }
    size_t real = desc().precision == FFTMUX_F64 ? 8 : 4;
    size_t i = 0, p = 0;
    for (int s = 0; s < 2; ++s) {
      if (!runs(desc(), s == 0 ? FFTMUX_FORWARD : FFTMUX_INVERSE))
        continue;
      for (size_t n = 0; n < plans[p].passes.size(); ++n, ++i) {
        const codegen::Kernel& k = passes[i]->kernel;
        modules_.push_back(std::make_unique<Module>(cubins[i].get()));
        Pass pass{modules_.back()->kernel(codegen::entry_point(k, codegen::Dialect::cuda)),
                  passes[i]->src, passes[i]->dst, k.groups(), k.workgroup(),
                  size_t(k.shared_scalars()) * real};
        if (pass.shared > 48 * 1024)
          check(cudaKernelSetAttributeForDevice(pass.kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                int(pass.shared), backend().device.index),
                "cudaKernelSetAttributeForDevice(MaxDynamicSharedMemorySize)");
        dirs_[s].passes.push_back(pass);
      }
      ++p;
    }
  }

  Direction dirs_[2];
  std::vector<std::unique_ptr<Module>> modules_;
  DeviceMemory scratch_;
  std::string summary_;
};

} // namespace

codegen::Device native_limits(size_t shared_optin) {
  codegen::Device d;
  d.shared_bytes = uint32_t(shared_optin);
  d.max_threads = 1024;
  d.subgroup = 32;
  d.max_binding_bytes = kMaxIndex * 8;
  d.f64 = true;
  return d;
}

std::vector<std::string> native_sources(const fftmux_desc& d, const codegen::Device& limits) {
  std::vector<std::string> sources;
  for (const auto& plan : plan_directions(d, limits))
    for (const auto& pass : plan.passes)
      sources.push_back(codegen::emit(pass.kernel, codegen::Dialect::cuda));
  return sources;
}

std::string native_declines(const fftmux_desc& d, const codegen::Device& limits) {
  for (bool input : {true, false})
    if (side_elements(d, input) >= kMaxIndex)
      return "native: a side of more than 2^32 elements (the generated kernels index with 32 bits)";
  try {
    plan_directions(d, limits);
  } catch (const codegen::Unsupported& e) {
    return std::string("native: ") + e.what();
  }
  return {};
}

std::unique_ptr<Plan> make_native_plan(Backend& b, const fftmux_desc& d) {
  std::string why = native_declines(d, native_limits(b.device.shared_optin));
  if (!why.empty())
    fail(FFTMUX_ERROR_UNSUPPORTED, "cuda/" + why);
  return std::make_unique<NativePlan>(b, d);
}

} // namespace fftmux::cuda
