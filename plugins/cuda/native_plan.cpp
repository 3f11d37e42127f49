#include "native.hpp"

#include "check.hpp"
#include "route.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <future>
#include <map>
#include <mutex>

namespace fftmux::cuda {

namespace {

using plugin::fail;

constexpr uint64_t kMaxIndex = uint64_t(1) << 32; // generated kernels index with uint

// One direction of a problem as the generator planned it, with its sources.
struct Generated {
  codegen::Plan plan;
  std::vector<std::string> sources; // one per pass
};

Generated generate(const fftmux_desc& d, int dir, const codegen::Device& limits,
                   const codegen::Options& options) {
  Generated g{codegen::plan(d, dir, limits, options), {}};
  for (const auto& pass : g.plan.passes)
    g.sources.push_back(codegen::emit(pass.kernel, codegen::Dialect::cuda));
  return g;
}

// The bytes that identify a problem and variant to the generator.
std::string plan_key(const fftmux_desc& d, int dir, const codegen::Options& o) {
  std::string k(reinterpret_cast<const char*>(&d), sizeof d);
  k.append(reinterpret_cast<const char*>(&dir), sizeof dir);
  k.append(reinterpret_cast<const char*>(&o), sizeof o);
  return k;
}

// A table of the plan's precision.
std::string table_bytes(const std::vector<std::complex<double>>& table, bool f64) {
  if (f64)
    return std::string(reinterpret_cast<const char*>(table.data()), table.size() * 16);
  std::vector<std::complex<float>> f(table.begin(), table.end());
  return std::string(reinterpret_cast<const char*>(f.data()), f.size() * 8);
}

// Within a process, generated plans and loaded modules are kept, a bounded
// number of each: a plan made again costs no generation, compilation or load.
class NativeCache {
public:
  std::shared_ptr<const Generated> generated(const fftmux_desc& d, int dir,
                                             const codegen::Device& limits,
                                             const codegen::Options& o) {
    std::string key = plan_key(d, dir, o);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = plans_.find(key);
      if (it != plans_.end())
        return it->second;
    }
    auto g = std::make_shared<const Generated>(generate(d, dir, limits, o));
    std::lock_guard<std::mutex> lock(mutex_);
    bound(plans_);
    return plans_.emplace(key, g).first->second;
  }

  std::shared_ptr<Module> module(const Compiler& compiler, const std::string& source) {
    std::string key = compiler.arch() + "\n" + source;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = modules_.find(key);
      if (it != modules_.end())
        return it->second;
    }
    auto m = std::make_shared<Module>(compiler.compile(source, Output::cubin));
    std::lock_guard<std::mutex> lock(mutex_);
    bound(modules_);
    return modules_.emplace(key, m).first->second;
  }

private:
  template <class Map> static void bound(Map& m) {
    if (m.size() >= 256)
      m.clear(); // plans hold their own references
  }

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Generated>> plans_;
  std::map<std::string, std::shared_ptr<Module>> modules_;
};

// Never destroyed: unloading modules while the process exits races the CUDA
// runtime's own teardown.
NativeCache& cache() {
  static NativeCache* c = new NativeCache;
  return *c;
}

class NativePlan final : public Plan {
public:
  NativePlan(Backend& b, const fftmux_desc& d, const codegen::Options& options) : Plan(b, d) {
    bool f64 = d.precision == FFTMUX_F64;
    codegen::Device limits = native_limits(b.device.shared_optin);
    uint64_t scratch = 0;
    for (int s = 0; s < 2; ++s) {
      int dir = s == 0 ? FFTMUX_FORWARD : FFTMUX_INVERSE;
      if (!runs(d, dir))
        continue;
      std::shared_ptr<const Generated> g;
      try {
        g = cache().generated(d, dir, limits, options);
      } catch (const codegen::Unsupported& e) {
        fail(FFTMUX_ERROR_UNSUPPORTED, std::string("cuda/native: ") + e.what());
      }
      load(s, *g);
      std::string table = table_bytes(g->plan.table, f64);
      dirs_[s].table = DeviceMemory(table.size());
      check(cudaMemcpy(dirs_[s].table.get(), table.data(), table.size(), cudaMemcpyHostToDevice),
            "cudaMemcpy of the twiddle table");
      scratch = std::max<uint64_t>(scratch, g->plan.scratch_elements * (f64 ? 16 : 8));
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
    std::shared_ptr<Module> module;
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
    case codegen::Binding::input: return in;
    case codegen::Binding::output: return out;
    default: return scratch_.get();
    }
  }

  // The passes' modules, compiled concurrently where the caches miss.
  void load(int s, const Generated& g) {
    const Compiler& compiler = *backend().compiler;
    std::vector<std::future<std::shared_ptr<Module>>> modules;
    for (const std::string& source : g.sources)
      modules.push_back(std::async(
          std::launch::async, [&compiler, &source] { return cache().module(compiler, source); }));
    size_t real = desc().precision == FFTMUX_F64 ? 8 : 4;
    for (size_t i = 0; i < g.plan.passes.size(); ++i) {
      const codegen::Pass& p = g.plan.passes[i];
      Pass pass{modules[i].get(),
                nullptr,
                p.src,
                p.dst,
                p.kernel.groups(),
                p.kernel.workgroup(),
                size_t(p.kernel.shared_scalars()) * real};
      pass.kernel = pass.module->kernel(codegen::entry_point(p.kernel, codegen::Dialect::cuda));
      if (pass.shared > 48 * 1024)
        check(cudaKernelSetAttributeForDevice(pass.kernel,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              int(pass.shared), backend().device.index),
              "cudaKernelSetAttributeForDevice(MaxDynamicSharedMemorySize)");
      dirs_[s].passes.push_back(std::move(pass));
    }
  }

  Direction dirs_[2];
  DeviceMemory scratch_;
};

std::string size_limit(const fftmux_desc& d) {
  for (bool input : {true, false})
    if (uint64_t(user_side(d, input).span()) >= kMaxIndex)
      return "native: a side of 2^32 elements or more (the generated kernels index with 32 bits)";
  return {};
}

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

std::vector<std::string> native_sources(const fftmux_desc& d, const codegen::Device& limits,
                                        const codegen::Options& options) {
  std::vector<std::string> sources;
  for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
    if (runs(d, dir))
      for (auto& s : generate(d, dir, limits, options).sources)
        sources.push_back(std::move(s));
  return sources;
}

std::string native_declines(const fftmux_desc& d, const codegen::Device& limits,
                            const codegen::Options& options) {
  std::string why = size_limit(d);
  if (!why.empty())
    return why;
  try {
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      if (runs(d, dir))
        cache().generated(d, dir, limits, options);
  } catch (const codegen::Unsupported& e) {
    return std::string("native: ") + e.what();
  }
  return {};
}

std::unique_ptr<Plan> make_native_plan(Backend& b, const fftmux_desc& d,
                                       const codegen::Options& options) {
  std::string why = size_limit(d);
  if (!why.empty())
    fail(FFTMUX_ERROR_UNSUPPORTED, "cuda/" + why);
  return std::make_unique<NativePlan>(b, d, options);
}

} // namespace fftmux::cuda
