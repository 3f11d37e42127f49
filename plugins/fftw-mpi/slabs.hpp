// What each rank holds under FFTW-MPI's slab decompositions: its box of each
// side (fftmux_box, the batch interleaved innermost as FFTW's howmany) and
// the elements its buffers need.
#pragma once

#include <fftmux/fftmux.h>

#include <mpi.h>

#include <cstdint>
#include <string>

namespace fftmux::fftw_mpi {

struct Local {
  fftmux_box in{}, out{};
  int64_t alloc = 1; // complex elements of each side's buffer (FFTW's local size), at least 1
};

// The boxes of decomposition (SLABS or a TRANSPOSED one) on this rank of comm.
Local slabs(const fftmux_desc& d, uint32_t decomposition, MPI_Comm comm);

// Whether a caller's box holds the same elements at the same places as the
// engine's (strides 0: C order, the real side's rows padded).
bool same_box(const fftmux_desc& d, bool input, const fftmux_box& given, const fftmux_box& engine);

// "[0, 4) x [0, 8) strides {8, 1}", for messages.
std::string box_text(const fftmux_box& box, uint32_t rank);

} // namespace fftmux::fftw_mpi
