// Convolutions on device buffers (fftmux_convolution_execute_buffers: the
// filter's product fused into the forward plan, the inverse writing the
// window alone) against the two FFTs the same problem takes as separate
// calls on the same backend: a forward plan of the padded signals (the user
// has padded them) and an inverse plan of the whole FFT size. The separate
// side leaves out its product pass, its padding and its window copy, so its
// time is a floor of three separate calls. Each repeat times one call of
// each, in turn; every call ends with a read of the output's first element,
// which waits for the work. Verifies the fused result on the first signal
// against FFTW's convolution of it on the host (the worst difference over the
// largest magnitude). Writes CSV: the medians in microseconds, their ratio.
//
//   build/bin/conv_device_bench [--backends cuda,vulkan,opengl] [--repeat 15] [--small] [--explain]
#include <fftmux/fftmux.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using cd = std::complex<double>;

struct Problem {
  const char* name;
  std::vector<int64_t> n, m;
  int64_t batch;
  uint32_t kind, mode;
};

// The set: an image through a small and a large filter, a 3D volume
// padded to twice its size, a batch of matched filters; --small: the same
// shapes at sizes a software device runs in seconds.
std::vector<Problem> problems(bool small) {
  if (small)
    return {{"image 256^2, filter 31^2", {256, 256}, {31, 31}, 1, FFTMUX_R2C, FFTMUX_CONV_SAME},
            {"volume 32^3 to 64^3", {32, 32, 32}, {32, 32, 32}, 1, FFTMUX_R2C, FFTMUX_CONV_FULL},
            {"matched filter 4096 x16", {4096}, {256}, 16, FFTMUX_C2C, FFTMUX_CONV_VALID}};
  return {
      {"image 4096^2, filter 31^2", {4096, 4096}, {31, 31}, 1, FFTMUX_R2C, FFTMUX_CONV_SAME},
      {"image 4096^2, filter 1024^2", {4096, 4096}, {1024, 1024}, 1, FFTMUX_R2C, FFTMUX_CONV_SAME},
      {"volume 128^3 to 256^3", {128, 128, 128}, {128, 128, 128}, 1, FFTMUX_R2C, FFTMUX_CONV_FULL},
      {"matched filter 65536 x256", {65536}, {1024}, 256, FFTMUX_C2C, FFTMUX_CONV_VALID}};
}

void check(fftmux_status s, const char* what) {
  if (s != FFTMUX_OK)
    throw std::runtime_error(std::string(what) + ": " + fftmux_last_error());
}

int64_t count(const std::vector<int64_t>& v) {
  int64_t c = 1;
  for (int64_t x : v)
    c *= x;
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One call and the read that waits for it, in seconds.
template <class F> double timed(F&& call, fftmux_buffer waited) {
  float first[2];
  auto t = std::chrono::steady_clock::now();
  call();
  check(fftmux_buffer_read(waited, 0, first, sizeof first), "fftmux_buffer_read");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Buffer {
  fftmux_buffer b = nullptr;
  Buffer(fftmux_context ctx, const char* backend, uint64_t bytes) {
    check(fftmux_buffer_create(ctx, backend, bytes, &b), "fftmux_buffer_create");
  }
  ~Buffer() { fftmux_buffer_destroy(b); }
};

struct Convolution {
  fftmux_convolution c = nullptr;
  Convolution(fftmux_context ctx, const fftmux_conv_desc& d, const float* filter,
              const char* backend) {
    fftmux_convolution_options o;
    fftmux_convolution_options_init(&o);
    o.backend = backend;
    check(fftmux_convolution_create(ctx, &d, filter, FFTMUX_FILTER_SIGNAL, &o, &c),
          "fftmux_convolution_create");
  }
  ~Convolution() { fftmux_convolution_destroy(c); }
};

struct Plan {
  fftmux_plan p = nullptr;
  Plan(fftmux_context ctx, const fftmux_desc& d, const char* backend) {
    fftmux_plan_options o;
    fftmux_plan_options_init(&o);
    o.backend = backend;
    check(fftmux_plan_create(ctx, &d, &o, &p), "fftmux_plan_create");
  }
  ~Plan() { fftmux_plan_destroy(p); }
};

void run(fftmux_context ctx, const char* backend, const Problem& p, int repeat, bool explain) {
  bool real = p.kind == FFTMUX_R2C;
  int comps = real ? 1 : 2;
  uint32_t rank = uint32_t(p.n.size());
  fftmux_conv_desc cd;
  fftmux_conv_desc_init(&cd);
  cd.rank = rank;
  std::copy(p.n.begin(), p.n.end(), cd.n);
  std::copy(p.m.begin(), p.m.end(), cd.m);
  cd.batch = p.batch;
  cd.kind = p.kind;
  cd.mode = p.mode;
  cd.placement = FFTMUX_DEVICE;
  int64_t out_n[3], fft_n[3];
  check(fftmux_convolution_sizes(&cd, out_n, fft_n), "fftmux_convolution_sizes");
  std::vector<int64_t> out(out_n, out_n + rank), L(fft_n, fft_n + rank);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> x(size_t(p.batch * count(p.n) * comps)), h(size_t(count(p.m) * comps));
  for (float& v : x)
    v = u(rng);
  for (float& v : h)
    v = u(rng);
  Convolution conv(ctx, cd, h.data(), backend);
  // The separate calls: the signals padded to L, forward, the inverse of the whole L.
  fftmux_desc f;
  fftmux_desc_init(&f);
  f.rank = rank;
  std::copy(L.begin(), L.end(), f.n);
  f.batch = p.batch;
  f.kind = p.kind;
  f.placement = FFTMUX_DEVICE;
  f.norm = FFTMUX_NORM_NONE;
  fftmux_desc i = f;
  i.kind = real ? FFTMUX_C2R : FFTMUX_C2C;
  i.norm = FFTMUX_NORM_BACKWARD;
  Plan fwd(ctx, f, backend), inv(ctx, i, backend);
  int64_t spectrum = count(L) / L.back() * (real ? L.back() / 2 + 1 : L.back());
  Buffer xs(ctx, backend, x.size() * 4), ys(ctx, backend, size_t(p.batch * count(out) * comps) * 4);
  Buffer padded(ctx, backend, size_t(p.batch * count(L) * comps) * 4);
  Buffer spectra(ctx, backend, size_t(p.batch * spectrum) * 8);
  Buffer whole(ctx, backend, size_t(p.batch * count(L) * comps) * 4);
  check(fftmux_buffer_write(xs.b, 0, x.data(), x.size() * 4), "fftmux_buffer_write");
  auto fused = [&] { check(fftmux_convolution_execute_buffers(conv.c, xs.b, ys.b), "execute"); };
  auto separate = [&] {
    check(fftmux_execute_buffers(fwd.p, FFTMUX_FORWARD, padded.b, spectra.b), "forward");
    check(fftmux_plan_synchronize(fwd.p), "fftmux_plan_synchronize"); // as the convolution does
    check(fftmux_execute_buffers(inv.p, FFTMUX_INVERSE, spectra.b, whole.b), "inverse");
  };
  fused();
  separate();
  std::vector<double> tf, ts;
  for (int r = 0; r < repeat; ++r) {
    tf.push_back(timed(fused, ys.b));
    ts.push_back(timed(separate, whole.b));
  }
  // Verification: the first signal's output against the same convolution on the host by FFTW.
  fftmux_conv_desc hd = cd;
  hd.batch = 1;
  hd.placement = FFTMUX_HOST;
  std::vector<float> want(size_t(count(out) * comps)), got(want.size());
  std::string verified = "no FFTW to verify with";
  try {
    Convolution host(ctx, hd, h.data(), "fftw");
    check(fftmux_convolution_execute(host.c, x.data(), want.data()), "host convolution");
    check(fftmux_buffer_read(ys.b, 0, got.data(), got.size() * 4), "fftmux_buffer_read");
    double worst = 0, scale = 0;
    for (size_t e = 0; e < want.size(); ++e) {
      worst = std::max(worst, double(std::abs(got[e] - want[e])));
      scale = std::max(scale, double(std::abs(want[e])));
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", worst / std::max(scale, 1e-30));
    verified = text;
  } catch (const std::exception& e) {
    verified += std::string(": ") + e.what();
  }
  const char *used = nullptr, *variant = nullptr, *fv1 = nullptr, *iv1 = nullptr;
  check(fftmux_convolution_backend(conv.c, &used, &variant), "fftmux_convolution_backend");
  check(fftmux_plan_backend(fwd.p, nullptr, &fv1), "fftmux_plan_backend");
  check(fftmux_plan_backend(inv.p, nullptr, &iv1), "fftmux_plan_backend");
  if (explain) {
    size_t needed = 0;
    fftmux_convolution_explain(conv.c, nullptr, 0, &needed);
    std::string text(needed, '\0');
    fftmux_convolution_explain(conv.c, text.data(), needed, nullptr);
    std::fprintf(stderr, "== %s on %s\n%s\n", p.name, backend, text.c_str());
  }
  double fu = median(tf) * 1e6, se = median(ts) * 1e6;
  std::printf("\"%s\",%s/%s,%s+%s,%.1f,%.1f,%.3f,%s\n", p.name, used, variant, fv1, iv1, fu, se,
              fu / se, verified.c_str());
  std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
  std::string backends = "cuda,vulkan,opengl";
  int repeat = 15;
  bool small = false, explain = false;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--backends" && a + 1 < argc)
      backends = argv[++a];
    else if (arg == "--repeat" && a + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++a]));
    else if (arg == "--small")
      small = true;
    else if (arg == "--explain") // each convolution's explain text on stderr
      explain = true;
    else {
      std::fprintf(
          stderr, "usage: conv_device_bench [--backends a,b] [--repeat N] [--small] [--explain]\n");
      return 2;
    }
  }
  fftmux_context ctx = nullptr;
  check(fftmux_context_create(nullptr, &ctx), "fftmux_context_create");
  std::printf("problem,fused by,separate FFTs by,fused us,two FFTs us,fused / two FFTs,"
              "error against FFTW\n");
  std::stringstream list(backends);
  for (std::string b; std::getline(list, b, ',');)
    for (const Problem& p : problems(small)) {
      try {
        run(ctx, b.c_str(), p, repeat, explain);
      } catch (const std::exception& e) {
        std::printf("\"%s\",%s,,,,,skipped: %s\n", p.name, b.c_str(), e.what());
      }
    }
  fftmux_context_destroy(ctx);
}
