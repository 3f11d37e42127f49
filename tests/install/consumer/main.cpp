// Runs a forward and inverse transform through an installed fftmux and
// checks the round trip: the plugins must be found beside the library.
#include <fftmux/fftmux.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

int main() {
  fftmux::context ctx;
  fftmux_desc d = fftmux::make_desc({64}, FFTMUX_C2C, FFTMUX_F64);
  fftmux::plan p = ctx.make_plan(d);
  std::vector<std::complex<double>> x(64), y(64), z(64);
  for (int i = 0; i < 64; ++i)
    x[i] = {std::sin(0.3 * i), std::cos(0.7 * i)};
  p.forward(x.data(), y.data());
  p.inverse(y.data(), z.data());
  double err = 0;
  for (int i = 0; i < 64; ++i)
    err = std::max(err, std::abs(z[i] - x[i]));
  std::printf("backend %s, round-trip error %g\n", p.backend().c_str(), err);
  return err < 1e-12 ? 0 : 1;
}
