// Prototype input: the generator's one-pass CUDA kernel of an M-point F32
// line (as the CUDA backend plans it on the H200) and its table, plus the
// twiddles a cluster of C such kernels needs to make N = C M points:
// w_N^(c k) for c = 1..C-1, k < M, appended to the table (double, rounded).
// Usage: gen M C OUTDIR -> OUTDIR/k{M}.cu, OUTDIR/k{M}c{C}.tab, OUTDIR/k{M}.launch
#include <fftmux/codegen.hpp>
#include <fftmux/gpu_support.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  using namespace fftmux::codegen;
  long m = std::atol(argv[1]), c = std::atol(argv[2]);
  std::string dir = argv[3];
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = 1;
  d.n[0] = m;
  d.batch = (1L << 27) / m;
  d.kind = FFTMUX_C2C;
  d.precision = FFTMUX_F32;
  fftmux_layout l;
  l.struct_size = sizeof l;
  fftmux_desc_layout(&d, &l);
  std::memcpy(d.in_strides, l.in_strides, sizeof d.in_strides);
  std::memcpy(d.out_strides, l.out_strides, sizeof d.out_strides);
  d.in_distance = l.in_distance;
  d.out_distance = l.out_distance;
  Device dev;
  dev.shared_bytes = 232448;
  dev = dialect_limits(dev, Dialect::cuda);
  Options opt = device_defaults(Options{}, false);
  Plan p = plan(d, FFTMUX_FORWARD, dev, opt);
  if (p.passes.size() != 1) {
    std::fprintf(stderr, "%ld points take %zu passes\n", m, p.passes.size());
    return 1;
  }
  const Kernel& k = p.passes[0].kernel;
  std::ofstream(dir + "/k" + std::to_string(m) + ".cu") << emit(k, Dialect::cuda);
  std::ofstream(dir + "/k" + std::to_string(m) + ".launch")
      << k.name << " " << k.workgroup() << " " << k.shared_scalars() * 4 << "\n";
  std::vector<unsigned char> t = table_bytes(p, Precision::f32);
  long n = m * c;
  for (long j = 1; j < c; ++j)
    for (long q = 0; q < m; ++q) {
      long e = (j * q) % n;
      long double a = -2.0L * 3.14159265358979323846264338327950288L * e / n;
      float v[2] = {float(cosl(a)), float(sinl(a))};
      t.insert(t.end(), (unsigned char*)v, (unsigned char*)v + 8);
    }
  std::ofstream(dir + "/k" + std::to_string(m) + "c" + std::to_string(c) + ".tab", std::ios::binary)
      .write((const char*)t.data(), t.size());
  std::printf("%s: %s, table %zu entries (%u base)\n", argv[1], p.summary.c_str(), t.size() / 8,
              (unsigned)p.table_size);
}
