#include "native.hpp"

#include "check.hpp"
#include "route.hpp"

#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/variants.hpp>

#include <algorithm>
#include <future>
#include <map>
#include <mutex>

namespace fftmux::cuda {

namespace {

using plugin::fail;

constexpr uint64_t kMaxIndex = uint64_t(1) << 32; // generated kernels index with uint

} // namespace

std::shared_ptr<const codegen::Generated> native_generated(const fftmux_desc& d,
                                                           const codegen::Device& limits,
                                                           const codegen::Options& options) {
  return codegen::generate(d, limits, options, kMaxIndex * codegen::complex_bytes(d),
                           codegen::Dialect::cuda);
}

namespace {

// Within a process, loaded modules are kept, a bounded number: a plan made
// again compiles and loads nothing.
class NativeCache {
public:
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
    std::shared_ptr<const codegen::Generated> g;
    try {
      g = native_generated(d, native_limits(b.device.shared_optin, b.device.major), options);
    } catch (const codegen::Unsupported& e) {
      fail(FFTMUX_ERROR_UNSUPPORTED, std::string("cuda/native: ") + e.what());
    }
    size_t first = 0;
    for (size_t i = 0; i < g->planned.plans.size(); ++i) {
      const codegen::Plan& p = g->planned.plans[i];
      Direction& dir = dirs_[Route::slot(g->planned.directions[i])];
      load(dir, p, &g->sources()[first]);
      first += p.passes.size();
      const std::vector<unsigned char>& table = g->table(i);
      dir.table = DeviceMemory(table.size());
      check(cudaMemcpy(dir.table.get(), table.data(), table.size(), cudaMemcpyHostToDevice),
            "cudaMemcpy of the twiddle table");
    }
    if (g->planned.scratch_bytes)
      scratch_ = DeviceMemory(g->planned.scratch_bytes);
  }

  void enqueue(int direction, const void* in, void* out) override {
    backend().use();
    const Direction& dir = dirs_[Route::slot(direction)];
    uint64_t sms = uint64_t(std::max(1, backend().device.multiprocessors));
    for (const Pass& pass : dir.passes) {
      const void* src = pointer(pass.src, in, out);
      void* dst = const_cast<void*>(pointer(pass.dst, in, out));
      const void* tab = dir.table.get();
      // Workgroups beyond one grid go in further launches, offset.
      // (A cluster's groups share one row of the grid: x a multiple of it.
      // A streamed kernel's groups loop over its lines: one an SM, in one
      // launch.)
      uint64_t groups = pass.stream ? std::min(pass.groups, sms) : pass.groups;
      uint64_t x = std::min<uint64_t>(groups, 0x7fffffffu / pass.cluster * pass.cluster);
      for (uint64_t done = 0; done < groups;) {
        uint64_t y = std::min<uint64_t>((groups - done + x - 1) / x, 65535);
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
    unsigned cluster = 1;
    bool stream = false;
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
  void load(Direction& dir, const codegen::Plan& plan, const std::string* sources) {
    const Compiler& compiler = *backend().compiler;
    std::vector<std::future<std::shared_ptr<Module>>> modules;
    for (size_t i = 0; i < plan.passes.size(); ++i)
      modules.push_back(std::async(std::launch::async, [&compiler, source = sources + i] {
        return cache().module(compiler, *source);
      }));
    size_t real = desc().precision == FFTMUX_F64 ? 8 : 4;
    for (size_t i = 0; i < plan.passes.size(); ++i) {
      const codegen::Pass& p = plan.passes[i];
      Pass pass{modules[i].get(),
                nullptr,
                p.src,
                p.dst,
                p.kernel.groups(),
                p.kernel.workgroup(),
                size_t(p.kernel.shared_scalars()) * real,
                p.kernel.cluster,
                p.kernel.exchange == codegen::Exchange::streamed};
      pass.kernel = pass.module->kernel(codegen::entry_point(p.kernel, codegen::Dialect::cuda));
      if (pass.shared > 48 * 1024)
        check(cudaKernelSetAttributeForDevice(pass.kernel,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              int(pass.shared), backend().device.index),
              "cudaKernelSetAttributeForDevice(MaxDynamicSharedMemorySize)");
      prefer_l1(pass, plan.passes.size() == 1);
      dir.passes.push_back(std::move(pass));
    }
  }

  // The carveout the pass's resident groups ask (carveout_percent). A hint:
  // where the driver refuses it, the pass runs with its own choice.
  void prefer_l1(const Pass& pass, bool one_pass) const {
    const Device& dev = backend().device;
    int groups = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &groups, reinterpret_cast<const void*>(pass.kernel), int(pass.threads), pass.shared) !=
            cudaSuccess ||
        groups < 1 || !dev.shared_per_sm) {
      cudaGetLastError(); // a hint's failure must not surface as a later launch's
      return;
    }
    int percent =
        carveout_percent(groups, pass.shared + dev.shared_reserved, dev.shared_per_sm, one_pass);
    if (cudaKernelSetAttributeForDevice(pass.kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        percent, dev.index) != cudaSuccess)
      cudaGetLastError();
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

// 72 % of the H200's 228 KiB is its 164 KiB carveout. H200, 4096 points F32
// (44 registers, 5 groups of 35 KiB an SM): a 200 KiB carveout ran 578 us at
// 78 % of DRAM bandwidth, stalled on L1TEX; at 164 KiB (4 groups) 535 us,
// and the same or faster at every other size measured (Nsight Compute, and
// fftmux run in one process per setting).
constexpr size_t kMaxCarveoutPercent = 72;

// The capacities in KiB a multiprocessor's shared memory takes (Hopper all
// of them, Ampere up to 164, Ada and Turing fewer): the driver rounds a
// carveout up to one, which may be the next above what the groups need.
// Where that holds no more of the groups than the least capacity holding
// them, a group alone on its multiprocessor or a plan of one pass asks that
// least one, for the L1 it leaves. H200 (fftmux run, one process per
// setting): a streamed 16384-point group of 195 KiB asked 86 %, 196.1 KiB, which
// became 228 and left 28 KiB of L1: 690-700 us through fftmux run, 647-652
// at 196 KiB (F64 8192 666 -> 651); 2401 points, eight groups of 20 KiB
// (registers allow no ninth): 616-619 us at 196 KiB, 590-598 at 164; 6000
// points 677-689 -> 660-671. In plans of several passes the least capacity
// lost, for a reason not found (the groups the occupancy API counts did not
// change with the carveout it was asked at): 65536 points 1055-1062 ->
// 1086-1101 us, 2^24 1782-1806 -> 1828-1855.
constexpr size_t kCapacitiesKiB[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

// The least capacity in bytes holding `bytes`, or 0 where none does.
static size_t capacity(size_t bytes, size_t shared_per_sm) {
  for (size_t kib : kCapacitiesKiB)
    if (kib * 1024 >= bytes && kib * 1024 <= shared_per_sm)
      return kib * 1024;
  return 0;
}

int carveout_percent(int groups, size_t group_bytes, size_t shared_per_sm, bool one_pass) {
  if (!group_bytes || !shared_per_sm)
    return 0; // no shared memory: all of it L1
  size_t most = size_t(std::max(groups, 1));
  size_t cap = std::max(group_bytes, shared_per_sm * kMaxCarveoutPercent / 100);
  size_t need = std::min(most, cap / group_bytes) * group_bytes;
  size_t percent = std::min<size_t>(100, (need * 100 + shared_per_sm - 1) / shared_per_sm);
  size_t least = capacity(need, shared_per_sm);
  size_t rounded = capacity(percent * shared_per_sm / 100, shared_per_sm);
  auto fit = [&](size_t bytes) { return std::min(most, bytes / group_bytes); };
  if ((one_pass || need == group_bytes) && least && (!rounded || fit(rounded) == fit(least)))
    return int(least * 100 / shared_per_sm);
  return int(percent);
}

codegen::Device native_limits(size_t shared_optin, int major) {
  codegen::Device d;
  d.shared_bytes = uint32_t(shared_optin);
  d.cluster = major >= 9 ? 8 : 0; // portable cluster size from Hopper on
  d.bulk_copy = major >= 9;
  d.max_threads = 1024;
  d.subgroup = 32;
  d.max_binding_bytes = kMaxIndex * 8;
  d.f64 = true;
  return codegen::dialect_limits(d, codegen::Dialect::cuda);
}

std::vector<std::string> native_sources(const fftmux_desc& d, const codegen::Device& limits,
                                        const codegen::Options& options) {
  return native_generated(d, limits, options)->sources();
}

std::string native_declines(const fftmux_desc& d, const codegen::Device& limits,
                            const codegen::Options& options) {
  std::string why = size_limit(d);
  if (!why.empty())
    return why;
  try {
    native_generated(d, limits, options);
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
