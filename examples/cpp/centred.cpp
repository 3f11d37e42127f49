// fftmux from C++ with the RAII header: a centred 2-D spectrum computed by one fused
// transform (SHIFT_INPUT | SHIFT_OUTPUT), checked against its closed form, then a batched
// single-precision round trip on device buffers. Exits non-zero when a result is wrong.
#include <fftmux/fftmux.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using c64 = std::complex<double>;
using c32 = std::complex<float>;

// A point source at the centre of the image transforms, centred, to a flat spectrum:
// ifftshift moves it to index 0, whose transform is 1 everywhere.
bool centred_spectrum(const fftmux::context& ctx) {
  const int64_t rows = 48, cols = 63; // odd and even axes shift differently
  fftmux_desc desc = fftmux::make_desc({rows, cols}, FFTMUX_C2C, FFTMUX_F64);
  desc.flags = FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
  fftmux::plan plan = ctx.make_plan(desc);
  std::printf("centred plan: %s\n", plan.explain().c_str());

  std::vector<c64> image(rows * cols), spectrum(rows * cols);
  image[(rows / 2) * cols + cols / 2] = 1.0;
  plan.forward(image.data(), spectrum.data());
  double worst = 0;
  for (const c64& v : spectrum)
    worst = std::max(worst, std::abs(v - 1.0));
  std::printf("centred spectrum of a centred point: max |X - 1| = %.3g\n", worst);
  return worst < 1e-12;
}

// Round trip through backend memory: upload, forward, inverse, download.
bool device_round_trip(const fftmux::context& ctx) {
  const int64_t n = 1000, batch = 8;
  fftmux_desc desc = fftmux::make_desc({n}, FFTMUX_C2C, FFTMUX_F32, batch);
  desc.placement = FFTMUX_DEVICE;
  fftmux::plan plan = ctx.make_plan(desc);
  fftmux_layout bytes = fftmux::layout(desc);

  std::vector<c32> x(n * batch), back(n * batch);
  std::mt19937 gen(7);
  std::normal_distribution<float> normal;
  for (c32& v : x)
    v = {normal(gen), normal(gen)};
  fftmux::buffer a = plan.make_buffer(bytes.in_bytes), b = plan.make_buffer(bytes.out_bytes);
  a.write(x.data(), bytes.in_bytes);
  plan.execute(FFTMUX_FORWARD, a, b);
  plan.execute(FFTMUX_INVERSE, b, a); // BACKWARD norm: the inverse divides by n
  plan.synchronize();
  a.read(back.data(), bytes.in_bytes);
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, double(std::abs(back[i] - x[i])));
  std::printf("%s round trip of %lld x %lld complex64: max error %.3g\n", plan.backend().c_str(),
              (long long)batch, (long long)n, worst);
  return worst < 1e-4;
}

// Failures arrive as fftmux::error with the library's message.
void show_error() {
  try {
    fftmux::context ctx;
    ctx.make_plan(fftmux::make_desc({16}), "no-such-backend");
  } catch (const fftmux::error& e) {
    std::printf("refused as expected (%s): %s\n", fftmux_status_name(e.status()), e.what());
  }
}

} // namespace

int main() {
  try {
    fftmux::context ctx;
    for (const fftmux_backend_info& b : ctx.backends())
      std::printf("backend %-8s %s\n", b.name,
                  b.state == FFTMUX_BACKEND_READY ? b.devices : b.reason);
    bool ok = centred_spectrum(ctx);
    ok = device_round_trip(ctx) && ok;
    show_error();
    std::puts(ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
  } catch (const fftmux::error& e) {
    std::fprintf(stderr, "fftmux error: %s\n", e.what());
    return 1;
  }
}
