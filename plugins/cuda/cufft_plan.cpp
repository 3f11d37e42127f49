// The "cufft" variant: cuFFT plans for every layout it can address, with
// numpy shifts and normalization fused into cuFFT's LTO callbacks or done by
// generated elementwise kernels (route.hpp decides which).
#include "backend.hpp"
#include "check.hpp"
#include "route.hpp"

#include <cufftXt.h>

#include <algorithm>
#include <array>

namespace fftmux::cuda {

namespace {

using plugin::fail;

struct Types {
  cudaDataType in, out, exec;
};

Types cufft_types(uint32_t kind, bool f64) {
  cudaDataType c = f64 ? CUDA_C_64F : CUDA_C_32F, r = f64 ? CUDA_R_64F : CUDA_R_32F;
  if (kind == FFTMUX_R2C)
    return {r, c, c};
  if (kind == FFTMUX_C2R)
    return {c, r, c};
  return {c, c, c};
}

cufftXtCallbackType callback_type(bool load, bool complex, bool f64) {
  static const cufftXtCallbackType table[2][2][2] = {
      {{CUFFT_CB_ST_REAL, CUFFT_CB_ST_REAL_DOUBLE},
       {CUFFT_CB_ST_COMPLEX, CUFFT_CB_ST_COMPLEX_DOUBLE}},
      {{CUFFT_CB_LD_REAL, CUFFT_CB_LD_REAL_DOUBLE},
       {CUFFT_CB_LD_COMPLEX, CUFFT_CB_LD_COMPLEX_DOUBLE}}};
  return table[load][complex][f64];
}

class CufftPlan final : public Plan {
public:
  CufftPlan(Backend& b, const fftmux_desc& d, bool callbacks) : Plan(b, d) {
    route_ = plan_route(d, callbacks);
    compile_kernels();
    if (!route_.identity())
      make_handles();
    int64_t elem_in = route_.engine_in.element_bytes(f64()),
            elem_out = route_.engine_out.element_bytes(f64());
    if (route_.in_stage && !route_.identity())
      scratch_in_ = DeviceMemory(size_t(route_.engine_in.span() * elem_in));
    if (route_.out_stage)
      scratch_out_ = DeviceMemory(size_t(route_.engine_out.span() * elem_out));
  }

  ~CufftPlan() override {
    for (cufftHandle h : handles_)
      if (h)
        cufftDestroy(h);
  }

  void enqueue(int direction, const void* in, void* out) override {
    backend().use();
    int s = Route::slot(direction);
    const Route::Ops& o = route_.ops[s];
    void* src = const_cast<void*>(in);
    if (route_.identity()) { // every length is 1: a scaled copy
      copy(gather_[s], src, out, route_.user_in.count(), "copy kernel");
      return;
    }
    if (route_.in_stage) {
      copy(gather_[s], src, scratch_in_.get(), route_.engine_in.count(), "gather kernel");
      src = scratch_in_.get();
    }
    void* dst = route_.out_stage ? scratch_out_.get() : out;
    check(cufftXtExec(handle(s), src, dst, direction), "cufftXtExec");
    if (route_.out_stage)
      copy(scatter_[s], dst, out, route_.engine_out.count(), "scatter kernel");
    else if (o.post_pass)
      copy(post_[s], out, out, route_.user_out.count(), "scaling kernel");
  }

  const Route& route() const { return route_; }

private:
  bool f64() const { return desc().precision == FFTMUX_F64; }
  cufftHandle handle(int slot) const { return handles_[handles_[1] ? slot : 0]; }

  void on_stream_change() override {
    for (cufftHandle h : handles_)
      if (h)
        check(cufftSetStream(h, stream()), "cufftSetStream");
  }

  void copy(cudaKernel_t k, const void* src, void* dst, int64_t count, const char* what) {
    int64_t blocks = std::min<int64_t>((count + kCopyThreads - 1) / kCopyThreads, 1 << 20);
    void* args[] = {&src, &dst};
    launch(k, dim3(unsigned(blocks)), dim3(kCopyThreads), 0, stream(), args, what);
  }

  // The gather, scatter and scaling kernels this route needs, one module.
  void compile_kernels() {
    std::string source = kernels_source(route_, desc());
    if (source.empty())
      return;
    module_ = std::make_unique<Module>(backend().compiler->compile(source, Output::cubin));
    for (int s = 0; s < 2; ++s) {
      KernelNames k = kernel_names(route_, desc(), s);
      for (auto [slot, name] : {std::pair{&gather_[s], &k.gather}, std::pair{&scatter_[s], &k.scatter},
                                std::pair{&post_[s], &k.post}})
        if (!name->empty())
          *slot = module_->kernel(*name);
    }
  }

  void set_callbacks(cufftHandle h, int s) {
    ltoir_[s] = backend().compiler->compile(callbacks_source(route_, desc(), s), Output::ltoir);
    KernelNames k = kernel_names(route_, desc(), s);
    for (auto [name, load] : {std::pair{&k.load, true}, std::pair{&k.store, false}}) {
      if (name->empty())
        continue;
      const Side& side = load ? route_.engine_in : route_.engine_out;
      void* no_info = nullptr; // the callbacks carry their constants in their code
      check(cufftXtSetJITCallback(h, name->c_str(), ltoir_[s].data(), ltoir_[s].size(),
                                  callback_type(load, side.complex, f64()), &no_info),
            "cufftXtSetJITCallback");
    }
  }

  // One cuFFT plan, or one per direction when their callbacks differ; they
  // share one work area.
  void make_handles() {
    const fftmux_desc& d = desc();
    const std::vector<int>& axes = route_.engine_axes;
    int rank = int(axes.size());
    bool per_direction = d.kind == FFTMUX_C2C && route_.any_callbacks();
    auto in = *cufft_embed(route_.engine_in, axes);
    auto out = *cufft_embed(route_.engine_out, axes);
    long long n[FFTMUX_MAX_RANK];
    for (int j = 0; j < rank; ++j)
      n[j] = route_.user_in.period[axes[j]];
    Types t = cufft_types(route_.engine_kind, f64());
    size_t work = 0;
    for (int s = 0; s < (per_direction ? 2 : 1); ++s) {
      int cb_slot = d.kind == FFTMUX_C2R ? 1 : s;
      check(cufftCreate(&handles_[s]), "cufftCreate");
      check(cufftSetAutoAllocation(handles_[s], 0), "cufftSetAutoAllocation");
      if (route_.callbacks(cb_slot))
        set_callbacks(handles_[s], cb_slot);
      size_t size = 0;
      check(cufftXtMakePlanMany(handles_[s], rank, n, in.embed, in.stride, in.distance, t.in,
                                out.embed, out.stride, out.distance, t.out, d.batch, &size,
                                t.exec),
            "cufftXtMakePlanMany");
      work = std::max(work, size);
    }
    work_ = DeviceMemory(work);
    for (cufftHandle h : handles_)
      if (h)
        check(cufftSetWorkArea(h, work_.get()), "cufftSetWorkArea");
    on_stream_change();
  }

  Route route_;
  std::array<cufftHandle, 2> handles_{};
  std::string ltoir_[2];
  std::unique_ptr<Module> module_;
  cudaKernel_t gather_[2] = {}, scatter_[2] = {}, post_[2] = {};
  DeviceMemory work_, scratch_in_, scratch_out_;
};

} // namespace

// Callbacks first; where cuFFT cannot plan with them (some sizes, some
// layouts), the same problem with elementwise passes instead.
std::unique_ptr<Plan> make_cufft_plan(Backend& b, const fftmux_desc& d) {
  bool callbacks = b.cufft_fusion != "pass";
  if (callbacks && plan_route(d, true).any_callbacks()) {
    try {
      return std::make_unique<CufftPlan>(b, d, true);
    } catch (const plugin::Failure& f) {
      if (f.status == FFTMUX_ERROR_OUT_OF_MEMORY)
        throw;
    }
  }
  return std::make_unique<CufftPlan>(b, d, false);
}

} // namespace fftmux::cuda
