// Convolutions on device buffers (fftmux_convolution_execute_buffers: the
// filter's product fused into the forward plan, the inverse writing the
// window alone) against the two FFTs the same problem takes as separate
// calls on the same backend: a forward plan of the padded signals (the user
// has padded them) and an inverse plan of the whole FFT size. The separate
// side leaves out its product pass, its padding and its window copy, so its
// time is a floor of three separate calls. Each repeat times one call of
// each, in turn; every call ends with a read of the output's first element,
// which waits for the work. Verifies the fused result on the first signal
// against the separate path's (the filter's spectrum multiplied on the host
// in double). Writes CSV: the medians in microseconds and their ratio.
//
//   build/bin/conv_device_bench [--backends cuda,vulkan,opengl] [--repeat 15] [--small]
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

// The worst difference between the fused output's first signal and the separate path's (its
// inverse's window, read from the same FFT sizes), over the largest magnitude.
double difference(const std::vector<float>& fused, const std::vector<float>& whole,
                  const std::vector<int64_t>& out, const std::vector<int64_t>& L,
                  const std::vector<int64_t>& start, int comps) {
  double worst = 0, scale = 0;
  size_t rank = out.size(), i = 0;
  std::vector<int64_t> k(rank, 0);
  for (; i < fused.size() / size_t(comps) && i < size_t(count(out)); ++i) {
    int64_t at = 0;
    for (size_t a = 0; a < rank; ++a)
      at = at * L[a] + (k[a] + start[a]) % L[a];
    for (int c = 0; c < comps; ++c) {
      worst = std::max(worst, std::abs(double(fused[i * comps + c]) - whole[at * comps + c]));
      scale = std::max(scale, std::abs(double(whole[at * comps + c])));
    }
    for (size_t a = rank; a-- > 0;) // the next index, last axis fastest
      if (++k[a] < out[a])
        break;
      else
        k[a] = 0;
  }
  return worst / std::max(scale, 1e-30);
}

void run(fftmux_context ctx, const char* backend, const Problem& p, int repeat) {
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
    check(fftmux_execute_buffers(inv.p, FFTMUX_INVERSE, spectra.b, whole.b), "inverse");
  };
  fused();
  separate();
  std::vector<double> tf, ts;
  for (int r = 0; r < repeat; ++r) {
    tf.push_back(timed(fused, ys.b));
    ts.push_back(timed(separate, whole.b));
  }
  // Verification: the separate path run on the padded first signal, the filter's spectrum
  // multiplied on the host; then the window of its inverse against the fused output.
  std::vector<float> pad(size_t(count(L) * comps), 0.0f), hp(pad.size(), 0.0f);
  auto place = [&](const std::vector<float>& from, const std::vector<int64_t>& n,
                   std::vector<float>& to) {
    std::vector<int64_t> k(rank, 0);
    for (int64_t e = 0; e < count(n); ++e) {
      int64_t at = 0;
      for (size_t a = 0; a < rank; ++a)
        at = at * L[a] + k[a];
      for (int c = 0; c < comps; ++c)
        to[size_t(at * comps + c)] = from[size_t(e * comps + c)];
      for (size_t a = rank; a-- > 0;)
        if (++k[a] < n[a])
          break;
        else
          k[a] = 0;
    }
  };
  place(x, p.n, pad);
  place(h, p.m, hp);
  fftmux_desc one = f;
  one.batch = 1;
  Plan f1(ctx, one, backend);
  fftmux_desc back1 = i;
  back1.batch = 1;
  Plan i1(ctx, back1, backend);
  Buffer a(ctx, backend, pad.size() * 4), s(ctx, backend, size_t(spectrum) * 8),
      sh(ctx, backend, size_t(spectrum) * 8), w(ctx, backend, pad.size() * 4);
  std::vector<std::complex<float>> X(static_cast<size_t>(spectrum)), H(static_cast<size_t>(spectrum));
  check(fftmux_buffer_write(a.b, 0, hp.data(), hp.size() * 4), "write");
  check(fftmux_execute_buffers(f1.p, FFTMUX_FORWARD, a.b, sh.b), "filter forward");
  check(fftmux_buffer_read(sh.b, 0, H.data(), H.size() * 8), "read");
  check(fftmux_buffer_write(a.b, 0, pad.data(), pad.size() * 4), "write");
  check(fftmux_execute_buffers(f1.p, FFTMUX_FORWARD, a.b, s.b), "signal forward");
  check(fftmux_buffer_read(s.b, 0, X.data(), X.size() * 8), "read");
  for (size_t k = 0; k < X.size(); ++k)
    X[k] *= H[k];
  check(fftmux_buffer_write(s.b, 0, X.data(), X.size() * 8), "write");
  check(fftmux_execute_buffers(i1.p, FFTMUX_INVERSE, s.b, w.b), "inverse");
  std::vector<float> wv(pad.size()), fv(size_t(count(out) * comps));
  check(fftmux_buffer_read(w.b, 0, wv.data(), wv.size() * 4), "read");
  check(fftmux_buffer_read(ys.b, 0, fv.data(), fv.size() * 4), "read");
  std::vector<int64_t> start(rank);
  for (size_t a = 0; a < rank; ++a)
    start[a] = p.mode == FFTMUX_CONV_SAME    ? (p.m[a] - 1) / 2
               : p.mode == FFTMUX_CONV_VALID ? p.m[a] - 1
                                             : 0;
  double err = difference(fv, wv, out, L, start, comps);
  const char* used = nullptr;
  check(fftmux_convolution_backend(conv.c, &used, nullptr), "fftmux_convolution_backend");
  double fu = median(tf) * 1e6, se = median(ts) * 1e6;
  std::printf("%s,%s,%.1f,%.1f,%.3f,%.1e\n", p.name, used, fu, se, fu / se, err);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
  std::string backends = "cuda,vulkan,opengl";
  int repeat = 15;
  bool small = false;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--backends" && a + 1 < argc)
      backends = argv[++a];
    else if (arg == "--repeat" && a + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++a]));
    else if (arg == "--small")
      small = true;
    else {
      std::fprintf(stderr, "usage: conv_device_bench [--backends a,b] [--repeat N] [--small]\n");
      return 2;
    }
  }
  fftmux_context ctx = nullptr;
  check(fftmux_context_create(nullptr, &ctx), "fftmux_context_create");
  std::printf("problem,backend,fused us,two FFTs us,fused / two FFTs,fused vs separate error\n");
  std::stringstream list(backends);
  for (std::string b; std::getline(list, b, ',');)
    for (const Problem& p : problems(small)) {
      try {
        run(ctx, b.c_str(), p, repeat);
      } catch (const std::exception& e) {
        std::printf("%s,%s,,,,skipped: %s\n", p.name, b.c_str(), e.what());
      }
    }
  fftmux_context_destroy(ctx);
}
