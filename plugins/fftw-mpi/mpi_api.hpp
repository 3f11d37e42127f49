// One table of FFTW-MPI entry points per precision, so the backend is written once.
#pragma once

#include <fftw3-mpi.h>

namespace fftmux::fftw_mpi {

template <class T> struct Api;

#define FFTMUX_FFTW_MPI_API(T, P)                                                                  \
  template <> struct Api<T> {                                                                      \
    using complex = P##complex;                                                                    \
    using plan = P##plan;                                                                          \
    static constexpr auto local_size = P##mpi_local_size_many_transposed;                          \
    static constexpr auto dft = P##mpi_plan_many_dft;                                              \
    static constexpr auto r2c = P##mpi_plan_many_dft_r2c;                                          \
    static constexpr auto c2r = P##mpi_plan_many_dft_c2r;                                          \
    static constexpr auto run_dft = P##mpi_execute_dft;                                            \
    static constexpr auto run_r2c = P##mpi_execute_dft_r2c;                                        \
    static constexpr auto run_c2r = P##mpi_execute_dft_c2r;                                        \
    static constexpr auto destroy = P##destroy_plan;                                               \
    static constexpr auto malloc = P##malloc;                                                      \
    static constexpr auto free = P##free;                                                          \
    static constexpr auto alignment_of = P##alignment_of;                                          \
    static constexpr auto init_threads = P##init_threads;                                          \
    static constexpr auto make_planner_thread_safe = P##make_planner_thread_safe;                  \
    static constexpr auto plan_with_nthreads = P##plan_with_nthreads;                              \
    static constexpr auto mpi_init = P##mpi_init;                                                  \
  };

FFTMUX_FFTW_MPI_API(double, fftw_)
FFTMUX_FFTW_MPI_API(float, fftwf_)

#undef FFTMUX_FFTW_MPI_API

} // namespace fftmux::fftw_mpi
