// Layouts: which line position each register slot holds, by mapping, stage and
// flat run.
#include "emit/emitter.hpp"

#include <algorithm>

namespace fftmux::codegen::emission {

// The thread index of a mapping.
std::string Emitter::t(bool alt) const {
  return alt ? "tA" : "tS";
}

// count positions a line, slot j of thread t holding position t + j P.
Layout Emitter::linear(int64_t count, bool alt) {
  Layout l;
  l.alt = alt;
  int64_t P = k_.threads;
  for (int64_t j = 0; j * P < count; ++j) {
    std::string pos = "(" + t(alt) + " + " + u(j * P) + ")";
    l.slots.push_back(slot(pos, (j + 1) * P > count ? pos + " < " + u(count) : ""));
    l.slots.back().lo = j * P;
    l.slots.back().hi = std::min((j + 1) * P, count) - 1;
  }
  return grow(l);
}

// Inputs (out = false) or outputs of a radix stage: butterfly b = t + jP
// reads b + i L/r and writes (b / span) span r + b % span + i span.
Layout Emitter::stage_layout(const Step& s, bool out) {
  Layout l;
  int64_t P = k_.threads, q = k_.length / s.radix;
  for (int64_t j = 0; j < per_thread(s); ++j) {
    auto [b, lo, hi] = butterfly(s, j);
    std::string guard = (j + 1) * P > q ? b + " < " + u(q) : "";
    for (int i = 0; i < s.radix; ++i) {
      Slot sl = slot("", guard);
      if (!out) {
        sl.base = b, sl.offset = i * q;
        sl.pad_folds = i * q % 32 == 0;
        sl.lo = lo + i * q;
        sl.hi = hi + i * q;
      } else if (&s == mirrored_) { // b < q = span
        sl.base = b, sl.offset = i * q;
        sl.pad_folds = q % 32 == 0 || (32 % q == 0 && q * s.radix % 32 == 0);
        sl.block = q * s.radix;
      } else if (s.span == 1) {
        sl.base = b + " * " + u(s.radix), sl.offset = i;
        sl.pad_folds = 32 % s.radix == 0;
        sl.block = s.radix;
      } else {
        sl.base =
            b + " / " + u(s.span) + " * " + u(s.span * s.radix) + " + " + b + " % " + u(s.span);
        sl.offset = i * s.span;
        sl.block = s.span * s.radix;
        // base's first term is a multiple of 32 and its second below span
        sl.pad_folds = s.span % 32 == 0 || (32 % s.span == 0 && s.span * s.radix % 32 == 0);
      }
      sl.pos = "(" + sl.base + " + " + u(sl.offset) + ")";
      l.slots.push_back(sl);
    }
  }
  return grow(l);
}

// Element e = lid + j W of the workgroup's run of teams lines of L
// positions: line e / L, position e % L.
Layout Emitter::flat(int64_t L) {
  Layout l;
  l.flat = true;
  int64_t W = k_.workgroup(), run = L * k_.teams;
  for (int64_t j = 0; j * W < run; ++j) {
    std::string e = "(lid + " + u(j * W) + ")", team = "(" + e + " / " + u(L) + ")";
    std::string guard = "group * " + u(k_.teams) + " + " + team + " < " + u(k_.transforms());
    if ((j + 1) * W > run)
      guard = e + " < " + u(run) + " && " + guard;
    l.slots.push_back(slot("(" + e + " % " + u(L) + ")", guard, team));
  }
  return grow(l);
}

// l, with the register array grown to hold its slots.
Layout Emitter::grow(Layout l) {
  registers_ = std::max(registers_, l.slots.size());
  return l;
}

// Whether two layouts put the same positions in the same slots.
bool Emitter::same(const Layout& a, const Layout& b) {
  if (a.alt != b.alt || a.flat != b.flat || a.slots.size() != b.slots.size())
    return false;
  for (size_t i = 0; i < a.slots.size(); ++i)
    if (a.slots[i].pos != b.slots[i].pos || a.slots[i].guard != b.slots[i].guard)
      return false;
  return true;
}

// The layout the program starts from: the first stage's inputs.
Layout Emitter::first_layout() {
  for (const Step& s : k_.steps)
    if (s.kind == Step::stage)
      return stage_layout(s, false);
  return linear(k_.positions, false);
}

} // namespace fftmux::codegen::emission
