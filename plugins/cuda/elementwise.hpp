// CUDA C++ for what cuFFT does not do itself: moving a side between the
// caller's layout and a packed one (with numpy's shifts as index rolls),
// modulations that shift the spectrum without moving memory, and scaling.
// The same element operations are emitted as standalone kernels (compiled to
// cubins) and as cuFFT load/store callbacks (compiled to LTO IR), with every
// extent and stride a literal so that divisions become multiplications.
#pragma once

#include "layout.hpp"

#include <string>

namespace fftmux::cuda {

// The factor exp(sign 2 pi i sum_a ((mul_a i_a + add_a) mod period_a) / period_a)
// on the element with indices i of a side.
struct Modulation {
  int64_t mul[kAxes] = {}, add[kAxes] = {}, period[kAxes] = {1, 1, 1, 1};
  int sign = -1;

  bool any() const;
  // Every term is a whole or a half turn: the factor is +-1, valid on reals.
  bool half_turns() const;
};

// fftshift of the transform's output along axes, as a modulation of its
// input (engine input indices): x[n] w^(ceil(P/2) n), w = exp(sign 2 pi i / P).
Modulation output_shift_modulation(const Side& engine_in, unsigned axes, int sign);

// ifftshift of the transform's input along axes, as a modulation of its
// output: X[k] w^(-(k + s) floor(P/2)), with s = ceil(P/2) on the axes whose
// output shift is itself done by modulation (modulated_output_axes).
Modulation input_shift_modulation(const Side& engine_out, unsigned axes,
                                  unsigned modulated_output_axes, int sign);

struct ElementOps {
  Modulation mod; // indexed like the side cuFFT reads or writes
  double scale = 1;
  bool identity() const { return !mod.any() && scale == 1; }
};

// A kernel that moves every logical element of a side from src to dst:
// reading src at (i + floor(n/2)) mod n along src_roll (ifftshift) and
// writing dst there along dst_roll (fftshift). src and dst may be the same
// memory when both layouts and rolls agree (in-place scaling).
struct CopyKernel {
  std::string name;
  Side src, dst;
  unsigned src_roll = 0, dst_roll = 0;
  ElementOps ops;
};

// A cuFFT LTO callback: load (reads side at offset) or store.
struct Callback {
  std::string name;
  Side side;
  bool load = true;
  ElementOps ops;
};

constexpr unsigned kCopyThreads = 256;

class Emitter {
public:
  explicit Emitter(bool f64) : f64_(f64) {}

  std::string prelude() const;
  std::string copy_kernel(const CopyKernel& k) const;
  std::string callback(const Callback& c) const;

private:
  std::string apply_ops(const ElementOps& ops, bool complex, const char* value) const;
  bool f64_;
};

// Whether a kernel's indices fit 32 bits (cheaper division).
bool fits_32(const CopyKernel& k);

} // namespace fftmux::cuda
