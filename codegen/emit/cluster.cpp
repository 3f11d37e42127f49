// Clusters (CUDA): rows made from the cluster's columns through distributed
// shared memory.
#include "emit/emitter.hpp"

#include <cmath>

namespace fftmux::codegen::emission {

// The rows of a clustered chain (Kernel::cluster, CUDA): each group
// leaves its twiddled columns in shared memory, one after another; after
// the cluster's barrier group d reads positions [d q, (d + 1) q) of every
// column through distributed shared memory, q = length / cluster, and
// writes their rows' outputs. The last barrier keeps every group's
// shared memory until the others have read it.
void Emitter::cluster_rows(const Layout& cur) {
  int64_t c = k_.cluster, columns = k_.cluster_columns, m = k_.length, q = m / c;
  std::string column = columns > 1 ? "teamS * " + u(k_.cluster_column_stride()) + " + " : "";
  shared_used_ = true;
  barrier();
  for (size_t i = 0; i < cur.slots.size(); ++i)
    guarded(join("okS", cur.slots[i].guard),
            "reinterpret_cast<cplx_t*>(sh)[" + column + cur.slots[i].pos + "] = " + reg(i) + ";");
  line(cluster_sync());
  line(x_.sm90->cluster_base);
  for (int64_t d = 0; d < c; ++d)
    line(format(x_.sm90->cluster_map, (long long)d));
  line("#pragma unroll 2");
  line("for (uint i = lid; i < " + u(q) + "; i += " + u(k_.workgroup()) + ") {");
  line("uint k = dS0" + (columns > 1 ? " / " + u(columns) : "") + " * " + u(q) + " + i;");
  std::vector<std::string> rows =
                               columns > 1 ? cluster_columns("k") : cluster_row_values("z", "k", c),
                           out = rows;
  const Step& post = k_.steps.back();
  if (post.kind == Step::r2c_post) {
    // Output k + m r pairs with X[h - k - m r]: position m - k of row c -
    // 1 - r, or for k = 0 position 0 of row (c - r) mod c (X[0]'s own).
    line("uint kk = (" + u(m) + " - k) % " + u(m) + ";");
    auto mates = cluster_row_values("p", "kk", c);
    for (int64_t r = 0; r < c; ++r)
      out[size_t(r)] = "r2c_post(" + rows[size_t(r)] + ", (k == 0u ? " +
                       mates[size_t((c - r) % c)] + " : " + mates[size_t(c - 1 - r)] + "), " +
                       lookup(post.table, "(k + " + u(r * m) + ")") + ")";
    out.push_back("r2c_post(" + rows[0] + ", " + rows[0] + ", " + lookup(post.table, u(c * m)) +
                  ")"); // X[h], from k = 0 alone
  }
  std::string scale = k_.scale != 1.0 ? " * " + literal(k_.scale) : "";
  const Side& side = k_.store;
  for (size_t r = 0; r < out.size(); ++r) {
    std::string l = logical(side, "(k + " + u(int64_t(r) * m) + ")", false), g = "okS";
    if (r == rows.size()) // X[h]
      g = join(g, "k == 0u");
    guarded(join(g, stored(side, l)), store_value(side, l, false, "(" + out[r] + ")" + scale));
  }
  line("}");
  line(cluster_sync());
}

// The c rows' values at position `at` of the cluster's columns: loads
// NAMEd through distributed shared memory, then a DFT of c points, one
// sum a row.
std::vector<std::string> Emitter::cluster_row_values(const std::string& name, const std::string& at,
                                                     int64_t c) {
  for (int64_t d = 0; d < c; ++d) {
    std::string v = name + std::to_string(d);
    line("cplx_t " + v + "; " + cluster_load(v, "za" + std::to_string(d) + " + " + at + " * 8u"));
  }
  std::vector<std::string> v(static_cast<size_t>(c));
  for (int64_t r = 0; r < c; ++r)
    for (int64_t d = 0; d < c; ++d)
      v[size_t(r)] += (d ? " + " : "") + turned(name + std::to_string(d), d * r % c, c);
  return v;
}

// The rows' values at position `at` of a cluster's c g columns (g a
// group's: Kernel::cluster_columns), column i = e + g d being column e of
// group d, after a DFT of c g points: row r's sum is the r-th.
std::vector<std::string> Emitter::cluster_columns(const std::string& at) {
  int64_t c = k_.cluster, g = k_.cluster_columns, m = k_.cluster_column_stride();
  std::vector<std::string> v;
  for (int64_t d = 0; d < c; ++d)
    for (int64_t e = 0; e < g; ++e) {
      v.push_back("z" + std::to_string(v.size()));
      line("cplx_t " + v.back() + "; " +
           cluster_load(v.back(),
                        "za" + std::to_string(d) + " + (" + at + " + " + u(e * m) + ") * 8u"));
    }
  int sign = transform_sign();
  butterflies_.insert({int(c * g), sign});
  std::string call = "bf" + std::to_string(c * g) + (sign < 0 ? "_f(" : "_i(");
  for (size_t i = 0; i < v.size(); ++i)
    call += (i ? ", " : "") + v[i];
  line(call + ");");
  return v;
}

// A barrier of the whole cluster.
std::string Emitter::cluster_sync() const {
  return x_.sm90->cluster_barrier;
}

// v = the complex value at `address` of a cluster's shared memory.
std::string Emitter::cluster_load(const std::string& v, const std::string& address) const {
  return format(x_.sm90->cluster_load, v.c_str(), address.c_str());
}

// The sign of the kernel's transform: its last stage's.
int Emitter::transform_sign() const {
  int sign = -1;
  for (const Step& s : k_.steps)
    if (s.kind == Step::stage)
      sign = s.sign;
  return sign;
}

// z times w^e, w the c-th root of unity of the transform's sign: quarter
// turns exactly.
std::string Emitter::turned(const std::string& z, int64_t e, int64_t c) const {
  int sign = transform_sign();
  if (4 * e % c == 0) {
    const char* quarter[] = {"", "rot_f", "-", "rot_i"};
    int64_t t = 4 * e / c;
    const char* f = quarter[sign < 0 ? t : (4 - t) % 4];
    return *f ? std::string(f) + "(" + z + ")" : z;
  }
  double a = sign * 2 * M_PI * double(e) / double(c);
  return "cmul(" + z + ", CPLX(" + literal(std::cos(a)) + ", " + literal(std::sin(a)) + "))";
}

} // namespace fftmux::codegen::emission
