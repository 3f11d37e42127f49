// One table of FFTW entry points per precision, so the backend is written once.
#pragma once

#include <fftw3.h>

#include <mutex>

namespace fftmux::fftw {

// FFTW's planner, thread setup and wisdom are the process's, shared by the
// backends of every context: one lock for all of them, not one each (plan
// destruction takes it too).
extern std::mutex planner;

template <class T> struct Api;

#define FFTMUX_FFTW_API(T, P)                                                                      \
  template <> struct Api<T> {                                                                      \
    using complex = P##complex;                                                                    \
    using plan = P##plan;                                                                          \
    static constexpr auto dft = P##plan_guru64_dft;                                                \
    static constexpr auto r2c = P##plan_guru64_dft_r2c;                                            \
    static constexpr auto c2r = P##plan_guru64_dft_c2r;                                            \
    static constexpr auto r2r = P##plan_guru64_r2r;                                                \
    static constexpr auto run_dft = P##execute_dft;                                                \
    static constexpr auto run_r2c = P##execute_dft_r2c;                                            \
    static constexpr auto run_c2r = P##execute_dft_c2r;                                            \
    static constexpr auto run_r2r = P##execute_r2r;                                                \
    static constexpr auto destroy = P##destroy_plan;                                               \
    static constexpr auto execute = P##execute;                                                    \
    static constexpr auto malloc = P##malloc;                                                      \
    static constexpr auto free = P##free;                                                          \
    static constexpr auto alignment_of = P##alignment_of;                                          \
    static constexpr auto init_threads = P##init_threads;                                          \
    static constexpr auto make_planner_thread_safe = P##make_planner_thread_safe;                  \
    static constexpr auto plan_with_nthreads = P##plan_with_nthreads;                              \
    static constexpr auto set_timelimit = P##set_timelimit;                                        \
    static constexpr auto import_wisdom = P##import_wisdom_from_string;                            \
    static constexpr auto import_system_wisdom = P##import_system_wisdom;                          \
    static constexpr auto export_wisdom = P##export_wisdom_to_string;                              \
    static constexpr const char* wisdom_file = #P "wisdom";                                        \
  };

FFTMUX_FFTW_API(double, fftw_)
FFTMUX_FFTW_API(float, fftwf_)

#undef FFTMUX_FFTW_API

} // namespace fftmux::fftw
