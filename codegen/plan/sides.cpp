// Sides of a pass: axes, substitutions of the element coordinate, the packed scratch layout, and
// the public questions a side answers (paired, first_element, stride).
#include "plan/planner.hpp"

namespace fftmux::codegen::planning {

Axis axis(std::vector<Term> terms, int64_t stride) {
  Axis a;
  a.terms = std::move(terms);
  a.stride = stride;
  return a;
}

std::vector<Term> substitute(const std::vector<Term>& terms, const std::vector<Term>& expr,
                             int shift) {
  std::vector<Term> out;
  for (const Term& t : terms) {
    if (t.coord != kElement) {
      out.push_back({t.coord + shift, t.coef});
      continue;
    }
    for (const Term& e : expr)
      out.push_back({e.coord, e.coef * t.coef});
  }
  return out;
}

Side substitute(Side s, const std::vector<Term>& expr, int shift) {
  for (Axis& a : s.axes)
    a.terms = substitute(a.terms, expr, shift);
  return s;
}

// The scratch layout (see the declaration).
Side packed(int64_t base, int64_t n, const std::vector<int64_t>& digits, std::vector<Term> line,
            int first, int unit) {
  Side s;
  s.buffer = Binding::scratch;
  int64_t step = unit >= 0 ? digits[size_t(unit)] : 1;
  s.axes.push_back(axis(std::move(line), step)); // axes[0]: the line
  if (unit >= 0)
    s.axes.push_back(axis({{first + unit, 1}}, 1));
  step *= n;
  for (size_t i = 0; i < digits.size(); ++i)
    if (int(i) != unit) {
      s.axes.push_back(axis({{first + int(i), 1}}, step));
      step *= digits[i];
    }
  if (base) {
    Axis b;
    b.offset = base;
    b.stride = 1;
    s.axes.push_back(b);
  }
  return s;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

} // namespace fftmux::codegen::planning

namespace fftmux::codegen {

// Whether a real side loads a pair as one value: unit stride on the line, whose own term 2 l is
// even, and an even stride on every other axis (docs/codegen-rules.md: paired).
bool paired(const Side& side) {
  if (remapped(side.axes[0]) || side.axes[0].stride != 1)
    return false;
  for (size_t i = 1; i < side.axes.size(); ++i)
    if (side.axes[i].stride % 2)
      return false;
  return true;
}

bool remapped(const Axis& a) {
  return a.shift || a.start || a.zigzag || a.reverse || a.reflect;
}

bool folds(const Side& side) {
  return side.access == Access::fold_cos || side.access == Access::fold_sin ||
         side.access == Access::fold_ends;
}

bool half_side(const Kernel& k, const Side& side) {
  return k.storage != Storage::arithmetic && side.buffer != Binding::scratch;
}

int64_t first_element(const Side& side) {
  int64_t e = 0;
  for (const Axis& a : side.axes)
    e += a.offset * a.stride;
  return e;
}

int64_t stride(const Side& s, int coord) {
  int64_t st = 0;
  for (const Axis& a : s.axes)
    for (const Term& t : a.terms)
      if (t.coord == coord)
        st += t.coef * a.stride;
  return st;
}

} // namespace fftmux::codegen
