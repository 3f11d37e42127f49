#include "plan.hpp"

namespace fftmux::fftw_mpi {

std::string unsupported(const fftmux_desc& d, uint32_t decomposition) {
  if (d.kind == FFTMUX_R2R)
    return "fftw-mpi distributes the DFT kinds (C2C, R2C, C2R): real-to-real (DCT, DST) "
           "transforms are not distributed";
  if (d.rank < 2)
    return "FFTW-MPI distributes 2D and 3D transforms here: a rank-1 problem has no slabs";
  if (d.kind == FFTMUX_R2C && decomposition == FFTMUX_SLABS_TRANSPOSED_IN)
    return "FFTW-MPI transposes only the complex side: an R2C's output "
           "(FFTMUX_SLABS_TRANSPOSED_OUT), not its real input";
  if (d.kind == FFTMUX_C2R && decomposition == FFTMUX_SLABS_TRANSPOSED_OUT)
    return "FFTW-MPI transposes only the complex side: a C2R's input "
           "(FFTMUX_SLABS_TRANSPOSED_IN), not its real output";
  // A shift of the complex side of R2C (C2R) is a phase on the real input
  // (output), real only for even lengths.
  uint32_t shift = d.kind == FFTMUX_R2C ? FFTMUX_SHIFT_OUTPUT : FFTMUX_SHIFT_INPUT;
  for (uint32_t i = 0; d.kind != FFTMUX_C2C && (d.flags & shift) && i + 1 < d.rank; ++i)
    if (d.n[i] % 2)
      return std::string(shift == FFTMUX_SHIFT_OUTPUT ? "SHIFT_OUTPUT of an R2C"
                                                      : "SHIFT_INPUT of a C2R") +
             " along axis " + std::to_string(i) + " of odd length " + std::to_string(d.n[i]) +
             " moves data between ranks; distributed shifts of the complex side of R2C and C2R "
             "need even lengths";
  return "";
}

uint32_t decomposition_of(const fftmux_desc& d, const fftmux_distribution& dist, const Comm& comm) {
  if (dist.decomposition != FFTMUX_GIVEN)
    return dist.decomposition;
  const uint32_t engine[] = {FFTMUX_SLABS, FFTMUX_SLABS_TRANSPOSED_OUT, FFTMUX_SLABS_TRANSPOSED_IN};
  int mine = 0;
  for (int k = 0; k < 3; ++k) {
    if (!unsupported(d, engine[k]).empty())
      continue;
    Local l = slabs(d, engine[k], comm.get());
    if (same_box(d, true, dist.in_box, l.in) && same_box(d, false, dist.out_box, l.out))
      mine |= 1 << k;
  }
  int common = mine;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &common, 1, MPI_INT, MPI_BAND, comm.get()),
            "MPI_Allreduce");
  for (int k = 0; k < 3; ++k)
    if (common >> k & 1)
      return engine[k];
  Local slab = slabs(d, FFTMUX_SLABS, comm.get());
  together(comm, [&] {
    if (!mine)
      fail(FFTMUX_ERROR_UNSUPPORTED,
           "its boxes, in " + box_text(dist.in_box, d.rank) + " and out " +
               box_text(dist.out_box, d.rank) + ", are none of FFTW-MPI's: its slabs are in " +
               box_text(slab.in, d.rank) + " and out " + box_text(slab.out, d.rank) +
               " (boxes that overlap, leave gaps or differ from the slabs cannot run)");
  });
  fail(FFTMUX_ERROR_UNSUPPORTED, "the ranks' boxes match different FFTW-MPI "
                                 "decompositions: give every rank the boxes of one");
}

} // namespace fftmux::fftw_mpi
