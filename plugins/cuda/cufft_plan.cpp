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

// The classic type of a kind and precision: plans made through the int API,
// as direct cuFFT callers make them, get the same kernels.
cufftType classic_type(uint32_t kind, bool f64) {
  if (kind == FFTMUX_R2C)
    return f64 ? CUFFT_D2Z : CUFFT_R2C;
  if (kind == FFTMUX_C2R)
    return f64 ? CUFFT_Z2D : CUFFT_C2R;
  return f64 ? CUFFT_Z2Z : CUFFT_C2C;
}

cufftResult exec(cufftHandle h, cufftType t, void* in, void* out, int direction) {
  switch (t) {
  case CUFFT_R2C:
    return cufftExecR2C(h, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out));
  case CUFFT_C2R:
    return cufftExecC2R(h, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out));
  case CUFFT_D2Z:
    return cufftExecD2Z(h, static_cast<cufftDoubleReal*>(in),
                        static_cast<cufftDoubleComplex*>(out));
  case CUFFT_Z2D:
    return cufftExecZ2D(h, static_cast<cufftDoubleComplex*>(in),
                        static_cast<cufftDoubleReal*>(out));
  case CUFFT_Z2Z:
    return cufftExecZ2Z(h, static_cast<cufftDoubleComplex*>(in),
                        static_cast<cufftDoubleComplex*>(out), direction);
  default:
    return cufftExecC2C(h, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out),
                        direction);
  }
}

bool fits_int(const long long* values, int count) {
  for (int i = 0; i < count; ++i)
    if (values[i] > 0x7fffffffll)
      return false;
  return true;
}

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
    check(exec(handle(s), type_, src, dst, direction), "cufftExec");
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
      for (auto [slot, name] : {std::pair{&gather_[s], &k.gather},
                                std::pair{&scatter_[s], &k.scatter}, std::pair{&post_[s], &k.post}})
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

  bool packed_sides() const {
    if (route_.engine_in_place || route_.engine_axes.size() != size_t(desc().rank))
      return false;
    auto same = [](const Side& a, const Side& b) {
      for (int i = 0; i < kAxes; ++i)
        if (a.extent[i] > 1 && a.stride[i] != b.stride[i])
          return false;
      return true;
    };
    return same(route_.engine_in, packed(route_.engine_in)) &&
           same(route_.engine_out, packed(route_.engine_out));
  }

  // The int API where every number fits (the plans direct callers get),
  // the 64-bit one beyond.
  void make_plan(cufftHandle h, int rank, long long* n, Embed& in, Embed& out, Types t,
                 long long batch, size_t* size) {
    long long all[] = {n[0],
                       n[rank - 1],
                       in.embed[0],
                       in.embed[rank - 1],
                       in.stride,
                       in.distance,
                       out.embed[0],
                       out.embed[rank - 1],
                       out.stride,
                       out.distance,
                       batch,
                       n[rank > 1 ? 1 : 0],
                       in.embed[rank > 1 ? 1 : 0],
                       out.embed[rank > 1 ? 1 : 0]};
    if (!fits_int(all, int(sizeof all / sizeof *all))) {
      check(cufftXtMakePlanMany(h, rank, n, in.embed, in.stride, in.distance, t.in, out.embed,
                                out.stride, out.distance, t.out, batch, size, t.exec),
            "cufftXtMakePlanMany");
      return;
    }
    int ni[3], ie[3], oe[3];
    for (int j = 0; j < rank; ++j)
      ni[j] = int(n[j]), ie[j] = int(in.embed[j]), oe[j] = int(out.embed[j]);
    // Packed sides go through cuFFT's basic layout (no embeds), as direct
    // callers' plans do: the advanced one can pick other kernels.
    bool basic = packed_sides();
    check(cufftMakePlanMany(h, rank, ni, basic ? nullptr : ie, int(in.stride), int(in.distance),
                            basic ? nullptr : oe, int(out.stride), int(out.distance), type_,
                            int(batch), size),
          "cufftMakePlanMany");
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
    type_ = classic_type(route_.engine_kind, f64());
    size_t work = 0;
    for (int s = 0; s < (per_direction ? 2 : 1); ++s) {
      int cb_slot = d.kind == FFTMUX_C2R ? 1 : s;
      check(cufftCreate(&handles_[s]), "cufftCreate");
      check(cufftSetAutoAllocation(handles_[s], 0), "cufftSetAutoAllocation");
      if (route_.callbacks(cb_slot))
        set_callbacks(handles_[s], cb_slot);
      size_t size = 0;
      make_plan(handles_[s], rank, n, in, out, t, d.batch, &size);
      work = std::max(work, size);
    }
    work_ = DeviceMemory(work);
    for (cufftHandle h : handles_)
      if (h)
        check(cufftSetWorkArea(h, work_.get()), "cufftSetWorkArea");
    on_stream_change();
  }

  Route route_;
  cufftType type_ = CUFFT_C2C;
  std::array<cufftHandle, 2> handles_{};
  std::string ltoir_[2];
  std::unique_ptr<Module> module_;
  cudaKernel_t gather_[2] = {}, scatter_[2] = {}, post_[2] = {};
  DeviceMemory work_, scratch_in_, scratch_out_;
};

} // namespace

// With cufft_fusion = "callback-experimental" a plan that needs callbacks
// fails when cuFFT cannot make them, so that their cost and correctness are
// measured, never silently replaced by passes (docs/cuda.md: on cuFFT
// 12.0.0.61 most fail to plan, some give wrong results, all run slower).
std::unique_ptr<Plan> make_cufft_plan(Backend& b, const fftmux_desc& d) {
  return std::make_unique<CufftPlan>(b, d, b.cufft_fusion == "callback-experimental");
}

} // namespace fftmux::cuda
