// Real-to-real kinds on FFTW: its r2r kinds (ORTHO's weights are geometry::ortho_planes).
#pragma once

#include <fftmux/desc_geometry.hpp>
#include <fftmux/fftmux.h>

#include <fftw3.h>

#include <cstdint>

namespace fftmux::fftw {

// FFTW's kind of an fftmux_r2r_kind (FFTW_REDFT00 is DCT-I, and so on).
inline fftw_r2r_kind fftw_kind(uint32_t k) {
  static const fftw_r2r_kind kinds[] = {FFTW_REDFT00, FFTW_REDFT00, FFTW_REDFT10,
                                        FFTW_REDFT01, FFTW_REDFT11, FFTW_RODFT00,
                                        FFTW_RODFT10, FFTW_RODFT01, FFTW_RODFT11};
  return kinds[k < 9 ? k : 0];
}

using geometry::ortho_planes;
using geometry::Plane;

} // namespace fftmux::fftw
