// R2C's post step: X[k] from Z[k] and Z[h - k], by shared memory, shuffles,
// mirrored butterflies or pairs in one thread.
#include "emit/emitter.hpp"

#include <numeric>

namespace fftmux::codegen::emission {

// X[k] for k = 0 .. h from Z (the line) in shared memory. A row k1 of
// Z (Kernel::mirror_lines n1) makes X[k1 + n1 k] for k = 0 .. n (its length;
// k = n only in row 0, whose X[h] it is): Z[h - k1 - n1 k] is position
// n - 1 - k of row n1 - k1, which team mate holds, or in row 0 position
// (n - k) mod n of itself.
Layout Emitter::r2c_post(const Step& s, const Layout& cur) {
  int64_t h = s.span, n1 = k_.mirror_lines, n = n1 ? k_.length : h;
  Layout to = linear(n + 1, false);
  if (shared_used_)
    barrier();
  shared_used_ = true;
  write_shared(cur, "xy");
  barrier();
  for (size_t i = 0; i < to.slots.size(); ++i) {
    const std::string& k = to.slots[i].pos;
    std::string mirror = "(" + u(n) + " - " + k + ") % " + u(n), at = k;
    std::string stmt = shared_var("a", false, "(" + k + " % " + u(n) + ")");
    if (n1) {
      mirror = "(dS0 == 0u ? " + mirror + " : (" + u(2 * n - 1) + " - " + k + ") % " + u(n) + ")";
      const Slot& sl = to.slots[i]; // k = n: X[h] in row 0, past the table in others
      at = "(dS0 + " + u(n1) + " * " + k + ")";
      if (sl.lo >= n)
        at = u(h);
      else if (sl.lo < 0 || sl.hi >= n)
        at = "(" + k + " < " + u(n) + " ? " + at + " : " + u(h) + ")";
      stmt += shared_var("b", false, mirror, "mateS");
    } else {
      stmt += shared_var("b", false, mirror);
    }
    guarded(to.slots[i].guard, stmt + reg(i) + " = r2c_post(CPLX(sh[a], sh[a + " + half() +
                                   "]), CPLX(sh[b], sh[b + " + half() + "]), " +
                                   lookup(s.table, at) + ");");
  }
  return to;
}

// R2C's post step s after step `last`, by where the planner found its partners (Step::partners).
Layout Emitter::post_step(const Step& s, const Step* last, const Layout& cur) {
  switch (partners(s)) {
  case Partners::cluster: return cur; // the rows make it (cluster_rows)
  case Partners::mirrored: return r2c_post_mirrored(s, *last);
  case Partners::lanes: return r2c_post_shuffled(s, *last);
  case Partners::shared_half: return r2c_post_shared(s, *last);
  case Partners::shared: break;
  }
  return r2c_post(s, cur);
}

// Where R2C's post step s finds its partners in this dialect.
Partners Emitter::partners(const Step& s) const {
  return x_.shuffle ? s.partners : s.partners_unshuffled;
}

// The slot of Z[t + m P] in natural order: position t + j P + i q is in
// slot j R + i.
size_t Emitter::natural_slot(const Step& last, int64_t m) const {
  int64_t P = k_.threads, q = k_.length / last.radix;
  return size_t(m * P % q / P * last.radix + m * P / q);
}

// z[m] = Z[t + m P], declared where Z is in natural order, in a block the
// caller closes.
int64_t Emitter::natural_values(const Step& last) {
  int64_t M = k_.length / k_.threads;
  std::string z;
  for (int64_t m = 0; m < M; ++m)
    z += (m ? ", " : "") + reg(natural_slot(last, m));
  line("{");
  line("const cplx_t z[" + std::to_string(M) + "] = {" + z + "};");
  return M;
}

// The stage before R2C's post step that leaves each thread its outputs' partners
// (Partners::mirrored), else null.
const Step* Emitter::mirrored() const {
  size_t n = k_.steps.size();
  bool mirrors = n >= 2 && k_.steps[n - 1].kind == Step::r2c_post &&
                 partners(k_.steps[n - 1]) == Partners::mirrored;
  return mirrors ? &k_.steps[n - 2] : nullptr;
}

// R2C's outputs from the mirrored stage's registers: slot j R + i holds
// Z[b_j + i q], its partner Z[h - b_j - i q] is slot (J - 1 - j) R + R -
// 1 - i, and each pair makes both outputs in place (r2c_pair). Thread 0
// holds the two butterflies that are their own mirrors, 0 and q / 2: its
// R + 1 pairs take the R pairs of slots 0 .. R-1 by selected operands
// (first butterfly 0's, X[0] with X[h] at i = 0, then q / 2's: i >= H)
// and one more for X[h / 2], so no branch divides the warp.
Layout Emitter::r2c_post_mirrored(const Step& s, const Step& last) {
  int64_t h = s.span, R = last.radix, q = h / R, J = q / k_.threads, H = (R + 1) / 2;
  auto at = [&](int64_t j, int64_t i) { return size_t(j * R + i); };
  auto z = [](size_t i) { return "z[" + std::to_string(i) + "]"; };
  auto sel = [&](size_t zero, size_t other) {
    return zero == other ? z(zero) : "(tS == 0u ? " + z(zero) + " : " + z(other) + ")";
  };
  Layout to = stage_layout(last, true);
  auto put = [&](size_t i, const std::string& base, int64_t offset) {
    Slot& sl = to.slots[i];
    sl.base = base, sl.offset = offset, sl.pad_folds = false, sl.block = 0;
    sl.pos = "(" + base + " + " + u(offset) + ")";
  };
  std::string lower = "(tS == 0u ? " + u(q / 2) + " : tS + " + u(H * q) + ")";
  std::string upper = "(tS == 0u ? " + u(q / 2 + H * q) + " : " + u(q) + " - tS)";
  for (int64_t i = 0; i < R; ++i) { // X[k] and X[h - k] of thread 0's k
    if (i >= H)
      put(at(0, i), lower, (i - H) * q);
    put(at(J - 1, R - 1 - i), i < H ? "(" + u(q) + " - tS)" : upper, (R - 1 - i) * q);
  }
  size_t top = to.slots.size();
  to.slots.push_back(slot(u(h / 2), "tS == 0u"));
  to.slots.back().lo = to.slots.back().hi = h / 2;
  to = grow(to);
  std::string all;
  for (size_t i = 0; i < top; ++i)
    all += (i ? ", " : "") + reg(i);
  line("{");
  line("const cplx_t z[" + std::to_string(top) + "] = {" + all + "};");
  auto pair = [&](size_t lo, size_t hi, const std::string& a, const std::string& b) {
    line("r2c_pair(" + a + ", " + b + ", " + lookup(s.table, to.slots[lo].pos) + ", " + reg(lo) +
         ", " + reg(hi) + ");");
  };
  for (int64_t i = 0; i < R; ++i) {
    size_t lo = at(0, i), hi = at(J - 1, R - 1 - i);
    if (i < H)
      pair(lo, hi, z(lo), sel(at(0, (R - i) % R), hi));
    else
      pair(lo, hi, sel(at(J - 1, i - H), lo), sel(at(J - 1, R - 1 - i + H), hi));
  }
  for (int64_t j = 1; j < J / 2; ++j)
    for (int64_t i = 0; i < R; ++i)
      pair(at(j, i), at(J - 1 - j, R - 1 - i), z(at(j, i)), z(at(J - 1 - j, R - 1 - i)));
  size_t mid = R % 2 ? at(J - 1, R / 2) : at(0, R / 2);
  guarded("tS == 0u", reg(top) + " = r2c_post(" + z(mid) + ", " + z(mid) + ", " +
                          lookup(s.table, u(h / 2)) + ");");
  line("}");
  return to;
}

// Lines in natural order whose partners are other warps' (or which have
// no shuffles), an even count of values a thread: each thread leaves its
// upper half, Z[t + m P] for m >= M / 2, in shared memory and pairs its
// lower half with them (r2c_post_pairs): a quarter of r2c_post's shared
// accesses. Thread 0's pair of Z[0] is its own.
Layout Emitter::r2c_post_shared(const Step& s, const Step& last) {
  int64_t h = s.span, P = k_.threads, M = h / P;
  if (shared_used_)
    barrier();
  shared_used_ = true;
  std::string at = "sh[a + " + half() + "]";
  for (int64_t m = M / 2; m < M; ++m) {
    size_t i = natural_slot(last, m);
    line("{ " + shared_var("a", false, "(tS + " + u(m * P) + ")") + "sh[a] = " + reg(i) + ".x; " +
         at + " = " + reg(i) + ".y; }");
  }
  barrier();
  natural_values(last);
  return r2c_post_pairs(s, M, [&](int64_t m) -> std::pair<std::string, std::string> {
    std::string stmt = shared_var("a", false, "((" + u(h - m * P) + " - tS) % " + u(h) + ")");
    std::string b = "CPLX(sh[a], " + at + ")";
    return {stmt, m ? b : "tS == 0u ? z[0] : " + b};
  });
}

// Slots 0 .. n-1, with `paired` partners side by side (0, M, M-1, 1, ...): each
// z[m] dies soon after its first read (docs/codegen-rules.md: pair_order).
std::vector<int64_t> Emitter::pair_order(int64_t M, int64_t n, bool paired) {
  if (!paired) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    return order;
  }
  std::vector<int64_t> order{0};
  if (n > M)
    order.push_back(M);
  for (int64_t j = 1; j <= M / 2; ++j) {
    order.push_back(M - j);
    if (j != M - j)
      order.push_back(j);
  }
  return order;
}

// r2c_post with the partners from their lanes: z[m] = Z[t + m P].
Layout Emitter::r2c_post_shuffled(const Step& s, const Step& last) {
  int64_t h = s.span, P = k_.threads, M = natural_values(last);
  Layout to = linear(h + 1, false);
  std::string lane = "(" + u(P) + " - tS) % " + u(P);
  auto from = [&](const std::string& v) {
    return format(x_.shuffle, v.c_str(), lane.c_str(), std::to_string(P).c_str());
  };
  if (M % 2 == 0 && M < 32)
    return r2c_post_pairs(s, M, [&](int64_t m) -> std::pair<std::string, std::string> {
      std::string own = "z[" + std::to_string((M - m) % M) + "]";
      if (P == 1)
        return {"", own};
      std::string other = "z[" + std::to_string(M - 1 - m) + "]";
      return {"cplx_t s = CPLX(" + from(other + ".x") + ", " + from(other + ".y") + "); ",
              "tS == 0u ? " + own + " : s"};
    });
  // Lane 0 holds both of its pairs, but takes part in every shuffle; a
  // line of one thread needs none.
  for (int64_t m : pair_order(M, int64_t(to.slots.size()), P > 1 && M >= 32)) {
    size_t i = size_t(m);
    std::string a = "z[" + std::to_string(m % M) + "]", b = a, stmt;
    if (m < M && P == 1) {
      b = "z[" + std::to_string((M - m) % M) + "]";
    } else if (m < M) {
      std::string other = "z[" + std::to_string(M - 1 - m) + "]";
      stmt = "cplx_t s = CPLX(" + from(other + ".x") + ", " + from(other + ".y") + "); ";
      b = "tS == 0u ? z[" + std::to_string((M - m) % M) + "] : s";
    }
    guarded(to.slots[i].guard, stmt + reg(i) + " = r2c_post(" + a + ", " + b + ", " +
                                   lookup(s.table, to.slots[i].pos) + ");");
  }
  line("}");
  return to;
}

// Both outputs of a pair, X[k] and X[h - k], from one thread and one product
// (r2c_pair), X[h / 2] from lane 0 (docs/codegen-rules.md: r2c_post_pairs).
template <class Partner>
Layout Emitter::r2c_post_pairs(const Step& s, int64_t M, const Partner& partner) {
  int64_t h = s.span, P = k_.threads, lower = M / 2;
  Layout to;
  for (int64_t m = 0; m < lower; ++m) {
    to.slots.push_back(slot("(tS + " + u(m * P) + ")", ""));
    to.slots.back().lo = m * P, to.slots.back().hi = m * P + P - 1;
  }
  for (int64_t m = 0; m < lower; ++m) {
    to.slots.push_back(slot("(" + u(h - m * P) + " - tS)", ""));
    to.slots.back().lo = h - m * P - (P - 1), to.slots.back().hi = h - m * P;
  }
  std::string mid = "(tS + " + u(h / 2) + ")";
  to.slots.push_back(slot(mid, mid + " < " + u(h / 2 + 1)));
  to.slots.back().lo = to.slots.back().hi = h / 2;
  to = grow(to);
  for (int64_t m = 0; m < lower; ++m) {
    auto [stmt, b] = partner(m);
    line("{ " + stmt + "r2c_pair(z[" + std::to_string(m) + "], " + b + ", " +
         lookup(s.table, to.slots[size_t(m)].pos) + ", " + reg(size_t(m)) + ", " +
         reg(size_t(lower + m)) + "); }");
  }
  guarded(to.slots[size_t(M)].guard, reg(size_t(M)) + " = r2c_post(z[" + std::to_string(lower) +
                                         "], z[" + std::to_string(lower) + "], " +
                                         lookup(s.table, mid) + ");");
  line("}");
  return to;
}

} // namespace fftmux::codegen::emission
