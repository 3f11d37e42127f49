#include "route.hpp"

namespace fftmux::cuda {

bool runs(const fftmux_desc& d, int direction) {
  return d.kind == FFTMUX_C2C || (d.kind == FFTMUX_R2C) == (direction == FFTMUX_FORWARD);
}

bool in_place_compatible(const Side& in, const Side& out, uint32_t kind) {
  if (kind == FFTMUX_C2C) {
    for (int a = 0; a < kAxes; ++a)
      if (in.extent[a] > 1 && in.stride[a] != out.stride[a])
        return false;
    return true;
  }
  // The real side, counted in reals, is the complex side padded to pairs.
  const Side& real = kind == FFTMUX_R2C ? in : out;
  const Side& cplx = kind == FFTMUX_R2C ? out : in;
  if (real.stride[kAxes - 1] != 1 || cplx.stride[kAxes - 1] != 1)
    return false;
  for (int a = 0; a < kAxes - 1; ++a)
    if (real.extent[a] > 1 && real.stride[a] != 2 * cplx.stride[a])
      return false;
  return true;
}

namespace {

// Decides which sides are staged and how each shift is done. The shift
// decisions can force staging, never the other way round.
struct Shifts {
  unsigned in_axes = 0, out_axes = 0;
  unsigned out_by_modulation = 0;
  bool in_by_modulation = false;
};

Shifts place_shifts(const fftmux_desc& d, Route& r, bool callbacks) {
  Shifts s;
  s.in_axes = (d.flags & FFTMUX_SHIFT_INPUT) ? r.user_in.shift_axes : 0;
  s.out_axes = (d.flags & FFTMUX_SHIFT_OUTPUT) ? r.user_out.shift_axes : 0;
  // A modulation of a real side must be a sign (+-1), so only even lengths.
  bool load_ok =
      r.user_in.complex || output_shift_modulation(r.user_in, s.out_axes, -1).half_turns();
  bool store_ok =
      r.user_out.complex || input_shift_modulation(r.user_out, s.in_axes, 0, -1).half_turns();
  if (s.out_axes) {
    if (r.out_stage)
      r.out_roll = s.out_axes;
    else if (load_ok && (r.in_stage || callbacks))
      s.out_by_modulation = s.out_axes;
    else
      r.out_stage = true, r.out_roll = s.out_axes;
  }
  if (s.in_axes) {
    if (r.in_stage)
      r.in_roll = s.in_axes;
    else if (store_ok && (r.out_stage || callbacks))
      s.in_by_modulation = true;
    else
      r.in_stage = true, r.in_roll = s.in_axes;
  }
  return s;
}

void place_ops(const fftmux_desc& d, const Shifts& s, Route& r, bool callbacks) {
  for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE}) {
    if (!runs(d, dir))
      continue;
    Route::Ops& o = r.ops[Route::slot(dir)];
    ElementOps load, store;
    if (s.out_by_modulation)
      load.mod = output_shift_modulation(r.engine_in, s.out_by_modulation, dir);
    if (s.in_by_modulation)
      store.mod = input_shift_modulation(r.engine_out, s.in_axes, s.out_by_modulation, dir);
    // The scale rides on a pass or callback that runs anyway, if one does.
    double scale = plugin::scale(d, dir);
    if (r.in_stage)
      load.scale = scale;
    else if (r.out_stage || callbacks)
      store.scale = scale;
    else if (scale != 1)
      o.post.scale = scale, o.post_pass = true;
    (r.in_stage ? o.gather : o.load) = load;
    (r.out_stage ? o.scatter : o.store) = store;
  }
}

// The rolled axes in the descriptor's numbering.
std::string roll_text(unsigned axes, int rank) {
  std::string t;
  for (int a = kAxes - rank; a < kAxes; ++a)
    if (axes >> a & 1u)
      t += (t.empty() ? "" : ",") + std::to_string(a - (kAxes - rank));
  return t;
}

} // namespace

Route plan_route(const fftmux_desc& d, bool callbacks) {
  Route r;
  r.rank = int(d.rank);
  r.user_in = user_side(d, true);
  r.user_out = user_side(d, false);
  for (int a = 1; a < kAxes; ++a)
    if (r.user_in.period[a] > 1)
      r.engine_axes.push_back(a);
  // A halved axis of length 1 leaves a full complex transform of the others.
  bool trivial_halving = d.kind != FFTMUX_C2C && d.n[d.rank - 1] == 1;
  r.engine_kind = trivial_halving ? uint32_t(FFTMUX_C2C) : d.kind;
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  bool mismatch = in_place && !in_place_compatible(r.user_in, r.user_out, d.kind);
  r.in_stage = !cufft_embed(r.user_in, r.engine_axes) || mismatch || r.identity() ||
               (d.kind == FFTMUX_C2R && !in_place) || (trivial_halving && d.kind == FFTMUX_R2C);
  r.out_stage = !r.identity() && (!cufft_embed(r.user_out, r.engine_axes) || mismatch ||
                                  (trivial_halving && d.kind == FFTMUX_C2R));
  Shifts s = place_shifts(d, r, callbacks);
  // The identity's one copy goes straight from the caller's input to output.
  r.engine_in = r.identity() ? r.user_out : r.in_stage ? packed(r.user_in) : r.user_in;
  r.engine_out = r.out_stage ? packed(r.user_out) : r.user_out;
  r.engine_in.complex = r.identity() ? r.user_out.complex : r.engine_kind != FFTMUX_R2C;
  r.engine_out.complex = r.engine_kind != FFTMUX_C2R;
  r.engine_in_place = in_place && !r.in_stage && !r.out_stage;
  place_ops(d, s, r, callbacks);
  return r;
}

KernelNames kernel_names(const Route& r, const fftmux_desc& d, int slot) {
  KernelNames k;
  if (!runs(d, slot == 0 ? FFTMUX_FORWARD : FFTMUX_INVERSE))
    return k;
  const char* suffix = slot == 0 ? "_fwd" : "_inv";
  const Route::Ops& o = r.ops[slot];
  if (r.in_stage)
    k.gather = std::string("fftmux_gather") + suffix; // the whole transform when identity()
  if (r.out_stage)
    k.scatter = std::string("fftmux_scatter") + suffix;
  else if (o.post_pass)
    k.post = std::string("fftmux_scale") + suffix;
  if (!o.load.identity())
    k.load = std::string("fftmux_load") + suffix;
  if (!o.store.identity())
    k.store = std::string("fftmux_store") + suffix;
  return k;
}

std::string kernels_source(const Route& r, const fftmux_desc& d) {
  Emitter emit(d.precision == FFTMUX_F64);
  std::string source;
  for (int s = 0; s < 2; ++s) {
    KernelNames k = kernel_names(r, d, s);
    const Route::Ops& o = r.ops[s];
    if (!k.gather.empty())
      source += emit.copy_kernel({k.gather, r.user_in, r.engine_in, r.in_roll, 0, o.gather});
    if (!k.scatter.empty())
      source += emit.copy_kernel({k.scatter, r.engine_out, r.user_out, 0, r.out_roll, o.scatter});
    if (!k.post.empty())
      source += emit.copy_kernel({k.post, r.user_out, r.user_out, 0, 0, o.post});
  }
  return source.empty() ? source : emit.prelude() + source;
}

std::string callbacks_source(const Route& r, const fftmux_desc& d, int slot) {
  Emitter emit(d.precision == FFTMUX_F64);
  KernelNames k = kernel_names(r, d, slot);
  std::string source;
  if (!k.load.empty())
    source += emit.callback({k.load, r.engine_in, true, r.ops[slot].load});
  if (!k.store.empty())
    source += emit.callback({k.store, r.engine_out, false, r.ops[slot].store});
  return source.empty() ? source : emit.prelude() + source;
}

std::string Route::describe() const {
  std::string t;
  auto add = [&](const std::string& part) { t += (t.empty() ? "" : ", ") + part; };
  if (in_stage)
    add("gather input" + (in_roll ? " rolling axes " + roll_text(in_roll, rank) : std::string()));
  if (out_stage)
    add("scatter output" +
        (out_roll ? " rolling axes " + roll_text(out_roll, rank) : std::string()));
  if (any_callbacks())
    add("cuFFT callbacks");
  if (ops[0].post_pass || ops[1].post_pass)
    add("scaling pass");
  if (engine_in_place)
    add("in place");
  if (identity())
    add("no cuFFT (every length is 1)");
  else if (engine_kind == FFTMUX_C2C && user_in.complex != user_out.complex)
    add("cuFFT C2C (the halved axis has length 1)");
  return t.empty() ? "cuFFT alone" : t;
}

} // namespace fftmux::cuda
