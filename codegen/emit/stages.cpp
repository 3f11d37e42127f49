// Butterflies and stages: radix steps with their twiddles, table products, and
// the butterfly tail that stores as it goes.
#include "emit/emitter.hpp"

#include <limits>

namespace fftmux::codegen::emission {

// Kernel::butterfly_tail: its last stage (the planner's tail_fits), else steps.size().
size_t Emitter::tail_stage() const {
  size_t n = k_.steps.size(), last = n;
  for (size_t i = 0; k_.butterfly_tail && i < n; ++i)
    if (k_.steps[i].kind == Step::stage)
      last = i;
  return last;
}

// A thread's butterflies in stage s (the last one guarded where the
// stage's do not divide evenly among the threads).
int64_t Emitter::per_thread(const Step& s) const {
  return (k_.length / s.radix + int64_t(k_.threads) - 1) / int64_t(k_.threads);
}

// The last stage, the multiplications after it and the store, a butterfly at a
// time: a thread holds one butterfly's values (docs/codegen-rules.md: butterfly_tail).
void Emitter::butterfly_tail(const Step& s, const Layout& cur) {
  Layout in = stage_layout(s, false), out = stage_layout(s, true);
  bool shared = enter_exchange(cur, in);
  if (shared) {
    write_shared(cur, "xy");
    barrier();
  }
  size_t R = size_t(s.radix);
  for (int64_t j = 0; j < per_thread(s); ++j) {
    only_ = {size_t(j) * R, size_t(j + 1) * R};
    if (shared)
      read_shared(in, "xy", 0);
    butterfly_step(s, j);
    for (const Step* m = &s + 1; m != k_.steps.data() + k_.steps.size(); ++m)
      multiply(*m, out);
    store(out);
  }
  only_ = {0, SIZE_MAX};
}

// Whether the steps emit this slot (butterfly_tail's butterfly alone).
bool Emitter::emits(size_t slot) const {
  return slot >= only_.first && slot < only_.second;
}

// A radix stage: its inputs' exchange, then each butterfly of the thread.
Layout Emitter::stage(const Step& s, const Layout& cur) {
  exchange(cur, stage_layout(s, false));
  for (int64_t j = 0; j < per_thread(s); ++j)
    butterfly_step(s, j);
  return stage_layout(s, true);
}

// Butterfly j of a thread in stage s: its twiddles, then the radix.
void Emitter::butterfly_step(const Step& s, int64_t j) {
  const char* sfx = s.sign < 0 ? "_f" : "_i";
  butterflies_.insert({s.radix, s.sign});
  int64_t P = k_.threads, q = k_.length / s.radix;
  std::string b = butterfly(s, j).b, stmt;
  if (s.span > 1) {
    stmt += "uint k = " + b + (&s == mirrored_ ? "" : " % " + u(s.span)) + "; ";
    for (int i = 1; i < s.radix; ++i) {
      std::string w = table(s.twiddles, u((i - 1) * s.span) + " + k", s.sign > 0);
      stmt += reg(j * s.radix + i) + " = cmul(" + reg(j * s.radix + i) + ", " + w + "); ";
    }
  }
  stmt += "bf" + std::to_string(s.radix) + sfx + "(";
  for (int i = 0; i < s.radix; ++i)
    stmt += (i ? ", " : "") + reg(j * s.radix + i);
  stmt += ");";
  guarded((j + 1) * P > q ? b + " < " + u(q) : "", stmt);
}

// Each slot of cur times its table value (Step::multiply).
void Emitter::multiply(const Step& s, const Layout& cur) {
  for (size_t i = 0; i < cur.slots.size(); ++i) {
    if (!emits(i))
      continue;
    const Slot& sl = cur.slots[i];
    std::string g = sl.guard;
    if (s.limit != std::numeric_limits<int64_t>::max())
      g = join(g, sl.pos + " < " + u(s.limit));
    if (on_row(s, sl)) {
      i = by_rows(s, cur, i, g) - 1;
      continue;
    }
    std::string m = index(s.index, sl.pos, cur.alt);
    guarded(g, reg(i) + " = cmul(" + reg(i) + ", " + lookup(s.table, m) + ");");
  }
}

// Whether slot sl takes its twiddle by rows (Step::rows).
bool Emitter::on_row(const Step& s, const Slot& sl) {
  return s.rows >= 0 && s.limit == std::numeric_limits<int64_t>::max() && sl.offset >= 0 &&
         sl.offset % s.row_step == 0 && sl.offset / s.row_step < s.row_count;
}

// Slots from i on that share slot i's base and guard, by Step::rows: one
// lookup of the base's twiddle, then a row value each. Returns the end.
size_t Emitter::by_rows(const Step& s, const Layout& cur, size_t i, const std::string& g) {
  const Slot& first = cur.slots[i];
  std::string d = std::string(cur.alt ? "dA" : "dS") + std::to_string(s.index.product);
  std::string w = "tw" + std::to_string(i);
  std::string stmt =
      "cplx_t " + w + " = " + lookup(s.table, index(s.index, first.base, cur.alt)) + ";";
  int64_t extent = k_.digits[size_t(s.index.product)];
  size_t j = i;
  for (; j < cur.slots.size() && emits(j) && cur.slots[j].base == first.base &&
         cur.slots[j].guard == first.guard && on_row(s, cur.slots[j]);
       ++j) {
    int64_t row = cur.slots[j].offset / s.row_step; // row 0 holds ones
    std::string f =
        row ? "cmul(" + w + ", " + table(s.rows + row * extent, d, s.table.conj) + ")" : w;
    stmt += " " + reg(j) + " = cmul(" + reg(j) + ", " + f + ");";
  }
  guarded(g, stmt);
  return j;
}

// Butterfly j of thread t: t + j P; in the mirrored stage the upper half
// holds the lower half's mirrors q - (t + (J - 1 - j) P), thread 0's last
// the other one that is its own mirror, q / 2. With its least and
// greatest value over the threads.
Emitter::Butterfly Emitter::butterfly(const Step& s, int64_t j) const {
  int64_t P = k_.threads, q = k_.length / s.radix, J = q / P, back = (J - 1 - j) * P;
  if (&s != mirrored_ || j < J / 2)
    return {"(tS + " + u(j * P) + ")", j * P, std::min((j + 1) * P, q) - 1};
  if (back)
    return {"(" + u(q - back) + " - tS)", q - back - (P - 1), q - back};
  return {"(tS == 0u ? " + u(q / 2) + " : " + u(q) + " - tS)", q / 2, q - 1};
}

// Table entry offset + m, conjugated where asked.
std::string Emitter::table(int64_t offset, const std::string& m, bool conj) const {
  std::string v = format(x_.tab, (u(offset) + " + " + m).c_str());
  return conj ? "cconj(" + v + ")" : v;
}

// Table t's entry m, a product of two where it is split.
std::string Emitter::lookup(const Table& t, const std::string& m) const {
  if (!t.split_bits)
    return table(t.offset, m, t.conj);
  std::string hi = table(t.hi_offset, "((" + m + ") >> " + u(t.split_bits) + ")", false);
  std::string lo =
      table(t.offset, "((" + m + ") & " + u((int64_t(1) << t.split_bits) - 1) + ")", false);
  std::string v = "cmul(" + hi + ", " + lo + ")";
  return t.conj ? "cconj(" + v + ")" : v;
}

// shaders/butterflies.glsl for one sign.
std::string Emitter::pow2_butterflies(int sign) {
  std::string text = shader_butterflies;
  replace_all(text, "$D", sign < 0 ? "_f" : "_i");
  replace_all(text, "$S", sign < 0 ? "K(-1.0)" : "K(1.0)");
  return text;
}

} // namespace fftmux::codegen::emission
