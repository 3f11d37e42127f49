// Counts what fftmux adds to an FFTW execution in instructions, which a
// busy machine cannot blur: run under callgrind with two repeat counts, the
// difference divided by the extra repeats is one call's cost.
//   overhead_count <direct|fftmux> <f32|f64> <n> <repeats>
// benchmarks/overhead_count.sh drives it.
#include <fftmux/fftmux.hpp>

#include <fftw3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

template <class T, class Plan, class Make, class Exec>
int run(bool through_fftmux, int64_t n, long repeats, Make make, Exec exec) {
  std::vector<T> in(size_t(2 * n), T(0.5)), out(size_t(2 * n));
  fftmux::context ctx;
  fftmux::plan p = ctx.make_plan(
      fftmux::make_desc({n}, FFTMUX_C2C, sizeof(T) == 8 ? FFTMUX_F64 : FFTMUX_F32), "fftw");
  Plan direct = make(in.data(), out.data()); // after fftmux: same wisdom, same plan
  for (long i = 0; i < repeats; ++i)
    if (through_fftmux)
      p.forward(in.data(), out.data());
    else
      exec(direct, in.data(), out.data());
  return out[1] == T(12345) ? 1 : 0; // keeps the work observable
}

fftw_iodim64 dim(int64_t n) {
  return {n, 1, 1};
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: overhead_count <direct|fftmux> <f32|f64> <n> <repeats>\n");
    return 2;
  }
  bool mux = std::strcmp(argv[1], "fftmux") == 0;
  int64_t n = std::atoll(argv[3]);
  long repeats = std::atol(argv[4]);
  fftw_iodim64 d = dim(n), b = {1, n, n};
  if (std::strcmp(argv[2], "f64") == 0)
    return run<double, fftw_plan>(
        mux, n, repeats,
        [&](double* i, double* o) {
          return fftw_plan_guru64_dft(1, &d, 1, &b, reinterpret_cast<fftw_complex*>(i),
                                      reinterpret_cast<fftw_complex*>(o), FFTW_FORWARD,
                                      FFTW_ESTIMATE);
        },
        [](fftw_plan p, double* i, double* o) {
          fftw_execute_dft(p, reinterpret_cast<fftw_complex*>(i),
                           reinterpret_cast<fftw_complex*>(o));
        });
  return run<float, fftwf_plan>(
      mux, n, repeats,
      [&](float* i, float* o) {
        return fftwf_plan_guru64_dft(1, &d, 1, &b, reinterpret_cast<fftwf_complex*>(i),
                                     reinterpret_cast<fftwf_complex*>(o), FFTW_FORWARD,
                                     FFTW_ESTIMATE);
      },
      [](fftwf_plan p, float* i, float* o) {
        fftwf_execute_dft(p, reinterpret_cast<fftwf_complex*>(i),
                          reinterpret_cast<fftwf_complex*>(o));
      });
}
