// Global memory indices: a side's axes, its table indices and the per-run bases
// that carry a butterfly's slots.
#include "emit/emitter.hpp"

#include <limits>

namespace fftmux::codegen::emission {

// The memory index of flat slot e of a contiguous side of L positions a
// line (planner's rule), in complex elements (a real side's are pairs).
std::string Emitter::flat_address(const Side& side, size_t slot, int64_t L) const {
  int64_t base = first_element(side) / (side.access == Access::real_pair ? 2 : 1);
  return "group * " + u(L * k_.teams) + " + lid + " + u(int64_t(slot) * k_.workgroup()) +
         (base ? " + " + u(base) : "");
}

// The memory index of axis a with the element at logical position e.
std::string Emitter::axis_index(const Axis& a, const std::string& e, bool alt,
                                const std::string& logical) const {
  std::string l = logical.empty() ? terms(a.terms, e, alt, a.offset) : logical;
  if (a.start)
    l = "(" + l + " - " + u(a.start) + ")";
  if (a.zigzag)
    l = "(" + l + " < " + u(a.zigzag / 2) + " ? 2u * " + l + " : " + u(2 * a.zigzag - 1) +
        " - 2u * " + l + ")";
  if (a.reverse)
    l = "(" + u(a.reverse - 1) + " - " + l + ")";
  if (a.reflect)
    l = "(" + l + " < " + u(a.reflect) + " ? " + l + " : " + u(2 * a.reflect - 2) + " - " + l + ")";
  if (a.shift)
    l = "((" + l + " + " + u(a.shift) + ") % " + u(a.extent) + ")";
  return a.stride == 1 ? l : "(" + l + ") * " + u(a.stride);
}

// The sum of terms at position e, plus offset.
std::string Emitter::terms(const std::vector<Term>& ts, const std::string& e, bool alt,
                           int64_t offset) const {
  std::string s;
  for (const Term& t : ts) {
    std::string c =
        t.coord == kElement ? e : std::string(alt ? "dA" : "dS") + std::to_string(t.coord);
    s += (s.empty() ? "" : " + ") + (t.coef == 1 ? c : c + " * " + u(t.coef));
  }
  if (offset || s.empty())
    s += (s.empty() ? "" : " + ") + u(offset);
  return "(" + s + ")";
}

// A table index at position pos (Index: terms times a product).
std::string Emitter::index(const Index& ix, const std::string& pos, bool alt) const {
  std::string s = terms(ix.terms, pos, alt, ix.offset);
  if (ix.product != kNone)
    s += " * " + (ix.product == kElement
                      ? pos
                      : std::string(alt ? "dA" : "dS") + std::to_string(ix.product));
  return s;
}

// The address of side's element with logical line index l (an expression).
std::string Emitter::address(const Side& side, bool alt, const std::string& logical) const {
  std::string a = axis_index(side.axes[0], "", alt, logical);
  for (size_t i = 1; i < side.axes.size(); ++i)
    a += " + " + axis_index(side.axes[i], "", alt);
  return a;
}

// The logical line index of position pos in side's first axis.
std::string Emitter::logical(const Side& side, const std::string& pos, bool alt) const {
  const Axis& a = side.axes[0];
  return terms(a.terms, pos, alt, a.offset);
}

// Reading the source at index ix (16-bit storage: converted to F32 at once).
std::string Emitter::src(const std::string& ix) const {
  std::string v = format(x_.src, ix.c_str());
  return half_load_ ? "ld16(" + v + ")" : v;
}

// Reading the real source at index ix (16-bit storage: half of a word).
std::string Emitter::src_real(const std::string& ix) const {
  if (half_load_)
    return "ld16r(" + format(x_.src, ("(" + ix + ") >> 1u").c_str()) + ", (" + ix + ") & 1u)";
  return format(x_.src_real, ix.c_str());
}

// The statement writing complex value v at index ix of the destination
// (16-bit storage: converted from F32 right before).
// With a product of F spectra (Kernel::product_count), F stores of v times each.
std::string Emitter::put(const std::string& ix, const std::string& v) const {
  auto one = [&](const std::string& at, const std::string& value) {
    return format(x_.dst, at.c_str()) + " = " + (half_store_ ? "st16(" + value + ")" : value) + ";";
  };
  if (k_.product < 0)
    return one(ix, v);
  std::string S = u(k_.product_points),
              k = "((" + ix + ") % " + u(k_.product_points * k_.product_count) + ")";
  if (k_.product_count == 1)
    return one(ix, "cmul(" + v + ", " + table(k_.product, k, false) + ")");
  return "for (uint pf = 0u; pf < " + u(k_.product_count) + "; ++pf) " +
         one("(" + ix + ") + pf * " + S,
             "cmul(" + v + ", " + table(k_.product, "pf * " + S + " + " + k, false) + ")");
}

// The statement writing real value v at real index ix of a 16-bit destination.
std::string Emitter::put_real16(const std::string& ix, const std::string& v) const {
  std::string word = format(x_.dst, ("(" + ix + ") >> 1u").c_str());
  std::string odd = "((" + ix + ") & 1u)";
  return format(x_.store16, word.c_str(), ("(" + odd + " == 0u ? 0xffff0000u : 0xffffu)").c_str(),
                ("(st16r(" + v + ") << (" + odd + " * 16u))").c_str());
}

// The statement writing real value v at real index ix of the destination, 16-bit or not.
std::string Emitter::put_real(const std::string& ix, const std::string& v) const {
  return half_store_ ? put_real16(ix, v) : format(x_.dst_real, ix.c_str()) + " = " + v + ";";
}

// The element type of a buffer: a 32-bit word where it holds 16-bit values.
const char* Emitter::element_type(bool half) const {
  return half ? "uint" : "cplx_t";
}

// The complex element holding pair l of a paired side.
std::string Emitter::pair_index(const Side& side, bool alt, const std::string& l) const {
  return "(" + address(side, alt, "(2u * " + l + ")") + ") >> 1u";
}

// A butterfly's slots reach memory through one base and constant offsets (CUDA:
// a pointer), not an address each (docs/codegen-rules.md: line_bases).
std::map<std::string, std::string> Emitter::line_bases(const Layout& l, const Side& side,
                                                       bool store) {
  const Axis& a = side.axes[0];
  bool plain = element_coef(a) && !remapped(a) && a.limit == std::numeric_limits<int64_t>::max() &&
               side.held == std::numeric_limits<int64_t>::max();
  if (side.access != Access::complex || !plain || l.flat || half_side(k_, side) ||
      (store && k_.product >= 0)) // a product indexes by each store's address
    return {};
  bool cuda = x_.dialect == Dialect::cuda;
  return per_base(
      l, "gp", [](const Slot& sl) { return sl.offset >= 0; },
      [&](const std::string& n, const Slot& sl) {
        std::string at = address(side, l.alt, logical(side, "(" + sl.base + ")", l.alt));
        std::string type = !cuda ? "uint " : store ? "cplx_t* " : "const cplx_t* ";
        return type + n + " = " + (cuda ? store ? "dst + " : "src + " : "") + "(" + at + ");";
      });
}

// The coefficient of the position in an axis' index where it appears once
// (the index is then linear in it), else 0.
int64_t Emitter::element_coef(const Axis& a) {
  int64_t c = 0, n = 0;
  for (const Term& t : a.terms)
    if (t.coord == kElement)
      c = t.coef, ++n;
  return n == 1 ? c : 0;
}

// Slot sl's element through its base, "" where it has none.
std::string Emitter::through(const std::map<std::string, std::string>& bases, const Slot& sl,
                             const Side& side, bool store) const {
  auto it = sl.offset >= 0 ? bases.find(sl.base) : bases.end();
  if (it == bases.end())
    return "";
  std::string at = u(sl.offset * element_coef(side.axes[0]) * side.axes[0].stride);
  if (x_.dialect == Dialect::cuda)
    return it->second + "[" + at + "]";
  return format(store ? x_.dst : x_.src, (it->second + " + " + at).c_str());
}

} // namespace fftmux::codegen::emission
