// Loads and stores: a line from global memory into registers and back, through
// streamed bulk copies, flat runs, mirror pairs and the real accesses.
#include "emit/emitter.hpp"

#include <limits>

namespace fftmux::codegen::emission {

// Streamed lines (Kernel::stream, CUDA): the shared barrier, the copy's place,
// the first line's copy and the loop over lines (Sm90::stream_open).
std::string Emitter::stream_open() const {
  return format(x_.sm90->stream_open, u(k_.stream_offset()).c_str(),
                fetch(x_.sm90->first_group).c_str(), u(int64_t(k_.groups())).c_str());
}

// Thread 0 has line g (< groups) copied to pre, completing on bar.
std::string Emitter::fetch(const std::string& g) const {
  int64_t base = first_element(k_.load);
  std::string from = u(k_.length) + (base ? " + " + u(base) : "");
  return format(x_.sm90->stream_fetch, g.c_str(), u(int64_t(k_.groups())).c_str(),
                u(k_.length * (f64_ ? 16 : 8)).c_str(), from.c_str());
}

// The current line from pre, once its copy has landed.
void Emitter::load_streamed(const Layout& from) {
  line("if (bulk) {");
  line(x_.sm90->stream_wait);
  line("phase ^= 1u;");
  for (size_t i = 0; i < from.slots.size(); ++i)
    guarded(from.slots[i].guard, reg(i) + " = pre[" + from.slots[i].pos + "];");
  line("} else {");
}

// The value at position pos of a side.
std::string Emitter::load_value(const Side& side, const std::string& pos, bool alt) {
  return load_at(side, logical(side, pos, alt), alt);
}

// The value at logical position l of a side.
std::string Emitter::load_at(const Side& side, const std::string& l, bool alt) {
  std::string h = u(side.length), m = "(" + h + " - " + l + ")";
  std::string pair0 = "(2u * " + l + ")", pair1 = "(2u * " + l + " + 1u)";
  const std::string zero = "CPLX(K(0.0), K(0.0))";
  switch (side.access) {
  case Access::complex: return held(side, l, src(address(side, alt, l)), zero);
  case Access::real:
    return held(side, l, "CPLX(" + src_real(address(side, alt, l)) + ", K(0.0))", zero);
  case Access::real_pair:
    if (paired(side) && side.held == std::numeric_limits<int64_t>::max())
      return src(pair_index(side, alt, l));
    return "CPLX(" +
           held(side, pair0, odd_sign(side, pair0, src_real(address(side, alt, pair0))), "K(0.0)") +
           ", " +
           held(side, pair1, odd_sign(side, pair1, src_real(address(side, alt, pair1))), "K(0.0)") +
           ")";
  case Access::hermitian:
    // The imaginary part of X[0] is ignored, as numpy and FFTW do.
    return "(" + l + " == " + u(0) + " ? CPLX(" + src(address(side, alt, l)) +
           ".x, K(0.0)) : " + l + " <= " + u(side.length / 2) + " ? " +
           held(side, l, src(address(side, alt, l)), zero) + " : cconj(" +
           held(side, m, src(address(side, alt, m)), zero) + "))";
  case Access::r2c: // from the packed half spectrum in scratch, which holds it all
    return "r2c_post(" + src(address(side, alt, "(" + l + " % " + h + ")")) + ", " +
           src(address(side, alt, "((" + h + " - " + l + ") % " + h + ")")) + ", " +
           lookup(side.table, l) + ")";
  case Access::c2r:
    return "c2r_pre(" + half_value(side, l, alt) + ", " + half_value(side, m, alt) + ", " +
           lookup(side.table, l) + ", " + l + " == " + u(0) + ")";
  case Access::fold_cos:
  case Access::fold_sin: {
    auto [even, odd] = folded(side, l);
    auto real = [&](const std::string& e) {
      return held(side, e, src_real(address(side, alt, e)), "K(0.0)");
    };
    bool cos = side.access == Access::fold_cos;
    return "CPLX(" + real(cos ? even : odd) + ", " + real(cos ? odd : even) + ")";
  }
  case Access::fold_ends: break; // stored, never loaded (validate.cpp)
  }
  return "";
}

// The two reals that position l of a folded side (Access::fold_cos, fold_sin) holds: 2l and
// length - 1 - 2l; of folded ends (Access::fold_ends): l and length - l.
std::pair<std::string, std::string> Emitter::folded(const Side& side, const std::string& l) const {
  if (side.access == Access::fold_ends)
    return {l, "(" + u(side.length) + " - " + l + ")"};
  return {"(2u * " + l + ")", "(" + u(side.length - 1) + " - 2u * " + l + ")"};
}

// Element e of a C2R's half spectrum: complex, or a real times its weight (Side::weights).
std::string Emitter::half_value(const Side& side, const std::string& e, bool alt) {
  const std::string zero = "CPLX(K(0.0), K(0.0))";
  if (side.weights.offset < 0)
    return held(side, e, src(address(side, alt, e)), zero);
  std::string im = "K(0.0)";
  if (side.ends) // x[2 length - k], none at k = 0
    im = "(" + e + " > 0u ? -" +
         src_real(address(side, alt, "(" + u(2 * side.length) + " - " + e + ")")) + " : K(0.0))";
  return held(side, e,
              "cmul(CPLX(" + src_real(address(side, alt, e)) + ", " + im + "), " +
                  lookup(side.weights, e) + ")",
              zero);
}

// Real v at logical position e of a side, negated where Side::negate_odds takes it.
std::string Emitter::odd_sign(const Side& side, const std::string& e, const std::string& v) const {
  if (!side.negate_odds)
    return v;
  return "(" + e + " < " + u(side.axes[0].zigzag / 2) + " ? " + v + " : -(" + v + "))";
}

// value where element e of a side's axis 0 is one its buffer holds, else
// other (Side::held: a padded input reads zero there, touching no memory; Axis::start: the
// positions before its first element).
std::string Emitter::held(const Side& side, const std::string& e, const std::string& value,
                          const std::string& other) const {
  std::string g;
  if (side.axes[0].start)
    g = e + " >= " + u(side.axes[0].start);
  if (side.held != std::numeric_limits<int64_t>::max())
    g = join(g, e + " < " + u(side.held));
  return g.empty() ? value : "(" + g + " ? " + value + " : " + other + ")";
}

// The guard of a store at logical position l of a side's axis 0: within its start and limit.
std::string Emitter::stored(const Side& side, const std::string& l) const {
  const Axis& a = side.axes[0];
  std::string g = a.start ? l + " >= " + u(a.start) : "";
  if (a.limit != std::numeric_limits<int64_t>::max())
    g = join(g, l + " < " + u(a.limit));
  return g;
}

// The layout a side of `count` positions is accessed in: by its mapping, `own` for direct.
Layout Emitter::accessed(Mapping m, int64_t count, const Layout& own) {
  switch (m) {
  case Mapping::alt: return linear(count, true);
  case Mapping::flat: return flat(count);
  case Mapping::direct: break;
  }
  return own;
}

// The line from memory into the first stage's layout.
Layout Emitter::load() {
  const Side& side = k_.load;
  Layout target = first_layout();
  Layout from = accessed(k_.load_mapping, k_.length, target);
  for (size_t i = 0; i < from.slots.size(); ++i) // what guarded-off slots hold
    line(reg(i) + " = CPLX(K(0.0), K(0.0));");
  if (k_.exchange == Exchange::streamed)
    load_streamed(from);
  auto bases = line_bases(from, side, false);
  for (size_t i = 0; i < from.slots.size(); ++i) {
    const Slot& sl = from.slots[i];
    if (from.flat) {
      guarded(sl.guard, reg(i) + " = " + src(flat_address(side, i, k_.length)) + ";");
      continue;
    }
    std::string g = join(std::string(from.alt ? "okA" : "okS"), sl.guard);
    if (side.axes[0].limit != std::numeric_limits<int64_t>::max())
      g = join(g, logical(side, sl.pos, from.alt) + " < " + u(side.axes[0].limit));
    std::string p = through(bases, sl, side, false);
    guarded(g, reg(i) + " = " + (p.empty() ? load_value(side, sl.pos, from.alt) : p) + ";");
  }
  if (k_.real_step == RealStep::mirror_pairs)
    mirror_pairs(from, side, false, "");
  if (k_.exchange ==
      Exchange::streamed) { // every thread has read pre: the next line may land there
    line("}");
    barrier();
    line(fetch(x_.sm90->next_group));
  }
  return exchange(from, target);
}

// The layout cur to memory (scaled).
void Emitter::store(const Layout& cur) {
  if (k_.cluster > 1)
    return cluster_rows(cur);
  const Side& side = k_.store;
  Layout to = accessed(k_.store_mapping, k_.positions, cur);
  to = exchange(cur, to);
  std::string scale;
  if (k_.scale != 1.0)
    scale = " * " + literal(k_.scale);
  auto bases = line_bases(to, side, true);
  for (size_t i = 0; i < to.slots.size(); ++i) {
    if (!emits(i))
      continue;
    const Slot& sl = to.slots[i];
    if (to.flat) {
      guarded(sl.guard, put(flat_address(side, i, k_.positions), reg(i) + scale));
      continue;
    }
    std::string g = join(std::string(to.alt ? "okA" : "okS"), sl.guard);
    std::string l = logical(side, sl.pos, to.alt);
    g = join(g, stored(side, l));
    std::string v = reg(i) + scale, p = through(bases, sl, side, true);
    guarded(g, p.empty() ? store_value(side, l, to.alt, v) : p + " = " + v + ";");
  }
  if (k_.real_step == RealStep::mirror_pairs)
    mirror_pairs(to, side, true, scale);
}

// Kernel::mirror_pairs: slot i at logical position l has its partner
// output at h - l, kept in register J + i (J slots); loaded (store =
// false) from the same two elements as slot i, or stored.
void Emitter::mirror_pairs(const Layout& lay, const Side& side, bool store,
                           const std::string& scale) {
  size_t J = lay.slots.size();
  registers_ = std::max(registers_, 2 * J);
  for (size_t i = 0; i < J; ++i) {
    const Slot& sl = lay.slots[i];
    std::string l = logical(side, sl.pos, lay.alt);
    std::string m = "(" + u(k_.load.length) + " - " + l + ")";
    std::string g =
        join(join(std::string(lay.alt ? "okA" : "okS"), sl.guard),
             l + " < " + u(side.axes[0].limit) + " && " + m + " < " + u(k_.mirror_pairs));
    if (side.axes[0].start)
      g = join(g, m + " >= " + u(side.axes[0].start));
    if (store) {
      guarded(g, store_value(side, m, lay.alt, reg(J + i) + scale));
      continue;
    }
    line(reg(J + i) + " = CPLX(K(0.0), K(0.0));");
    guarded(g, reg(J + i) + " = " + load_at(side, m, lay.alt) + ";");
  }
}

// The statement that stores value v at logical position l of a side
// (complex, real or real pairs), none past the elements it holds (Side::held).
std::string Emitter::store_value(const Side& side, const std::string& l, bool alt,
                                 const std::string& value) {
  std::string v = value;
  if (k_.store_weights.offset >= 0)
    v = "cmul(" + v + ", " + lookup(k_.store_weights, l) + ")";
  if (side.held == std::numeric_limits<int64_t>::max() || folds(side))
    return store_whole(side, l, alt, v);
  if (side.access != Access::real_pair)
    return "if (" + l + " < " + u(side.held) + ") { " + store_whole(side, l, alt, v) + " }";
  std::string pair0 = "(2u * " + l + ")", pair1 = "(2u * " + l + " + 1u)", held = u(side.held);
  auto real = [&](const std::string& e, const char* part) {
    return "if (" + e + " < " + held + ") { " +
           put_real(address(side, alt, e), odd_sign(side, e, std::string("v.") + part)) + " }";
  };
  return "cplx_t v = " + v + "; " + real(pair0, "x") + " " + real(pair1, "y");
}

// store_value on a side that holds its whole axis (a folded side always does).
std::string Emitter::store_whole(const Side& side, const std::string& l, bool alt,
                                 const std::string& v) {
  if (side.access == Access::complex)
    return put(address(side, alt, l), v);
  if (folds(side)) {
    auto [even, odd] = folded(side, l);
    std::string im = side.access == Access::fold_sin ? "v.y" : "-v.y";
    std::string second = put_real(address(side, alt, odd), im);
    if (side.access == Access::fold_ends) // none at length
      second = "if (" + l + " > 0u) { " + second + " }";
    return "cplx_t v = " + v + "; " + put_real(address(side, alt, even), "v.x") + " " + second;
  }
  if (side.access == Access::real)
    return put_real(address(side, alt, l), "(" + v + ").x");
  if (paired(side))
    return put(pair_index(side, alt, l), v);
  std::string pair0 = "(2u * " + l + ")", pair1 = "(2u * " + l + " + 1u)";
  return "cplx_t v = " + v + "; " +
         put_real(address(side, alt, pair0), odd_sign(side, pair0, "v.x")) + " " +
         put_real(address(side, alt, pair1), odd_sign(side, pair1, "v.y"));
}

} // namespace fftmux::codegen::emission
