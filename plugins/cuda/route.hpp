// How the "cufft" variant runs a problem: which sides go through a packed
// scratch buffer (layouts cuFFT cannot address, a C2R input it would
// overwrite), and where shifts and normalization happen: as index rolls in
// those copies, as modulations (a fftshift of the output is a modulation of
// the input, and the other way round), in cuFFT load/store callbacks, or in
// a separate scaling pass. Pure logic, tested on machines without a GPU.
#pragma once

#include "elementwise.hpp"

namespace fftmux::cuda {

struct Route {
  int rank = 1;
  // What cuFFT runs: the axes of length > 1 (none: the transform is a
  // scaled copy), as a C2C where the halved axis of R2C/C2R has length 1.
  std::vector<int> engine_axes;
  uint32_t engine_kind = FFTMUX_C2C;
  bool identity() const { return engine_axes.empty(); }
  Side user_in, user_out;     // the caller's layouts
  Side engine_in, engine_out; // what cuFFT reads and writes
  bool in_stage = false;      // gather user_in -> packed engine_in first
  bool out_stage = false;     // scatter packed engine_out -> user_out after
  bool engine_in_place = false;
  unsigned in_roll = 0;  // ifftshift axes applied by the gather
  unsigned out_roll = 0; // fftshift axes applied by the scatter

  struct Ops {
    ElementOps gather, scatter, load, store, post;
    bool post_pass = false; // a separate in-place scaling kernel on the output
  };
  Ops ops[2]; // by direction: [0] forward, [1] inverse

  static int slot(int direction) { return direction == FFTMUX_FORWARD ? 0 : 1; }
  bool callbacks(int s) const { return !ops[s].load.identity() || !ops[s].store.identity(); }
  bool any_callbacks() const { return callbacks(0) || callbacks(1); }
  // One line for logs and reports.
  std::string describe() const;
};

// The directions a kind runs.
bool runs(const fftmux_desc& d, int direction);

// callbacks: whether cuFFT callbacks may carry modulations and scaling.
Route plan_route(const fftmux_desc& d, bool callbacks);

// Names of the generated functions a direction slot runs, empty for those
// it does not.
struct KernelNames {
  std::string gather, scatter, post; // kernels
  std::string load, store;           // cuFFT callbacks
};
KernelNames kernel_names(const Route& r, const fftmux_desc& d, int slot);

// CUDA C++ of every copy kernel of the route (for a cubin), and of one
// slot's callbacks (for LTO IR); empty when there are none.
std::string kernels_source(const Route& r, const fftmux_desc& d);
std::string callbacks_source(const Route& r, const fftmux_desc& d, int slot);

// cuFFT transforms in place only when both sides address the same elements.
bool in_place_compatible(const Side& in, const Side& out, uint32_t kind);

} // namespace fftmux::cuda
