#include "r2r.hpp"

#include <fftw3.h>

#include <cmath>
#include <map>
#include <memory>
#include <utility>

namespace fftmux::ref {

namespace {

const long double pi = 3.141592653589793238462643383279502884L;

// The inverse of each kind: II and III swap, I and IV are their own.
uint32_t kind_in(const fftmux_desc& d, uint32_t axis, int direction) {
  const uint32_t inverse[] = {0,           FFTMUX_DCT1, FFTMUX_DCT3, FFTMUX_DCT2, FFTMUX_DCT4,
                              FFTMUX_DST1, FFTMUX_DST3, FFTMUX_DST2, FFTMUX_DST4};
  return direction == FFTMUX_FORWARD ? d.r2r[axis] : inverse[d.r2r[axis]];
}

// The angle of term (j, k) is pi * a * b / d with whole a, b and d, so that
// the sums read one table of the 2d angles pi m / d (FFTW's definitions).
struct Angle {
  int64_t a, b, d;
};

Angle angle(uint32_t kind, int64_t n, int64_t j, int64_t k) {
  switch (kind) {
  case FFTMUX_DCT1: return {j, k, n - 1};
  case FFTMUX_DCT2: return {2 * j + 1, k, 2 * n};
  case FFTMUX_DCT3: return {j, 2 * k + 1, 2 * n};
  case FFTMUX_DST1: return {j + 1, k + 1, n + 1};
  case FFTMUX_DST2: return {2 * j + 1, k + 1, 2 * n};
  case FFTMUX_DST3: return {j + 1, 2 * k + 1, 2 * n};
  default: return {2 * j + 1, 2 * k + 1, 4 * n}; // DCT-IV, DST-IV
  }
}

bool sine(uint32_t kind) {
  return kind >= FFTMUX_DST1;
}
int64_t logical_size(uint32_t kind, int64_t n) {
  return kind == FFTMUX_DCT1 ? 2 * (n - 1) : kind == FFTMUX_DST1 ? 2 * (n + 1) : 2 * n;
}

// scipy's orthogonalizing weight of input element j or output element k.
long double weight(uint32_t kind, int64_t n, int64_t i, bool input) {
  bool first = i == 0 && (kind == FFTMUX_DCT1 || kind == (input ? FFTMUX_DCT3 : FFTMUX_DCT2));
  bool last = i == n - 1 && (kind == FFTMUX_DCT1 || kind == (input ? FFTMUX_DST3 : FFTMUX_DST2));
  long double root2 = std::sqrt(2.0L);
  return first || last ? (input ? root2 : 1 / root2) : 1;
}

// y[k] = sum_j 2 trig(angle) x[j], the boundary terms x[0] of DCT-I and
// III and x[n-1] of DCT-I and DST-III counted once.
void naive_line(std::vector<long double>& line, uint32_t kind) {
  int64_t n = int64_t(line.size()), d = angle(kind, n, 0, 0).d;
  std::vector<long double> table(size_t(2 * d)), y(line.size(), 0);
  for (int64_t m = 0; m < 2 * d; ++m)
    table[m] = 2 * (sine(kind) ? std::sin(pi * m / d) : std::cos(pi * m / d));
  bool first = kind == FFTMUX_DCT1 || kind == FFTMUX_DCT3;
  bool last = kind == FFTMUX_DCT1 || kind == FFTMUX_DST3;
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j) {
      Angle t = angle(kind, n, j, k);
      long double half = (j == 0 && first) || (j == n - 1 && last) ? 0.5L : 1.0L;
      y[k] += half * table[(t.a * t.b) % (2 * d)] * line[j];
    }
  line = std::move(y);
}

// One FFTW plan of each length and kind, kept for the thread's later lines.
void fftw_line(std::vector<long double>& line, uint32_t kind) {
  struct Plan {
    double* buf = nullptr;
    fftw_plan plan = nullptr;
    ~Plan() {
      fftw_destroy_plan(plan);
      fftw_free(buf);
    }
  };
  thread_local std::map<std::pair<size_t, uint32_t>, std::unique_ptr<Plan>> plans;
  auto& p = plans[{line.size(), kind}];
  if (!p) {
    p = std::make_unique<Plan>();
    p->buf = fftw_alloc_real(line.size());
    p->plan = fftw_plan_r2r_1d(int(line.size()), p->buf, p->buf, fftw_kind(kind), FFTW_ESTIMATE);
  }
  std::copy(line.begin(), line.end(), p->buf);
  fftw_execute(p->plan);
  std::copy(p->buf, p->buf + line.size(), line.begin());
}

} // namespace

std::vector<long double> r2r_expected(const fftmux_desc& d, int direction,
                                      std::vector<long double> x, bool naive) {
  bool ortho = d.norm == FFTMUX_NORM_ORTHO;
  long double logical = 1;
  int64_t step = 1;
  for (int axis = int(d.rank) - 1; axis >= 0; step *= d.n[axis--]) {
    uint32_t kind = kind_in(d, uint32_t(axis), direction);
    int64_t n = d.n[axis];
    logical *= logical_size(kind, n);
    std::vector<long double> line(static_cast<size_t>(n));
    for (int64_t e = 0; e < int64_t(x.size()); ++e) {
      if ((e / step) % n != 0)
        continue; // e is the first element of a line along axis
      for (int64_t j = 0; j < n; ++j)
        line[j] = x[e + j * step] * (ortho ? weight(kind, n, j, true) : 1);
      naive ? naive_line(line, kind) : fftw_line(line, kind);
      for (int64_t k = 0; k < n; ++k)
        x[e + k * step] = line[k] * (ortho ? weight(kind, n, k, false) : 1);
    }
  }
  long double scale = 1;
  if (ortho)
    scale = 1 / std::sqrt(logical);
  else if ((d.norm == FFTMUX_NORM_BACKWARD && direction == FFTMUX_INVERSE) ||
           (d.norm == FFTMUX_NORM_FORWARD && direction == FFTMUX_FORWARD))
    scale = 1 / logical;
  for (long double& v : x)
    v *= scale;
  return x;
}

fftw_r2r_kind fftw_kind(uint32_t kind) {
  static const fftw_r2r_kind kinds[] = {FFTW_REDFT00, FFTW_REDFT10, FFTW_REDFT01, FFTW_REDFT11,
                                        FFTW_RODFT00, FFTW_RODFT10, FFTW_RODFT01, FFTW_RODFT11};
  return kinds[kind - 1];
}

} // namespace fftmux::ref
