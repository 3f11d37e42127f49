// Exchanges through shared memory: the padded indices, chunks and split
// components that move values from one layout to another.
#include "emit/emitter.hpp"

namespace fftmux::codegen::emission {

// Declares v as the shared-memory index of pos (padded: one spare word
// per 32), as a statement prefix: the index is written once per slot.
std::string Emitter::shared_var(const char* v, bool alt, const std::string& pos,
                                const std::string& slot_team) const {
  std::string team = !slot_team.empty() ? slot_team : alt ? "teamA" : "teamS", i = pos;
  if (k_.staggered()) {
    // Positions padded alone: fewer conflicts than a padded pitch, less shared
    // memory than swizzled rows (docs/codegen-rules.md: shared_var).
    std::string p = k_.pad_shared ? "(" + pos + " + (" + pos + " >> 5u))" : "(" + pos + ")";
    return "uint " + std::string(v) + " = " + team + " * " + u(k_.line_scalars()) + " + " + p +
           "; ";
  }
  if (k_.teams > 1 && k_.team_major)
    i = team + " * " + u(k_.line_scalars()) + " + " + pos;
  else if (k_.teams > 1)
    i = pos + " * " + u(k_.teams) + " + " + team;
  std::string d = "uint " + std::string(v) + " = " + i + "; ";
  return k_.pad_shared ? d + v + " += " + v + " >> 5u; " : d;
}

// The offset of the imaginary parts in shared memory.
std::string Emitter::half() const {
  return u(k_.component_scalars());
}

// The padded base index of each run of slots whose padding folds, declared once:
// not i + (i >> 5) again for every slot (docs/codegen-rules.md: padded_bases).
std::map<std::string, std::string> Emitter::padded_bases(const Layout& l) {
  bool whole = k_.teams > 1 && !k_.staggered();
  if (!k_.pad_shared || (whole && !(k_.team_major && k_.line_scalars() % 32 == 0)))
    return {};
  std::string line_start = (l.alt ? "teamA" : "teamS") + std::string(" * ") + u(k_.line_scalars());
  return per_base(
      l, "ix", [](const Slot& sl) { return sl.pad_folds && sl.team.empty(); },
      [&](const std::string& n, const Slot& sl) {
        std::string d = "uint " + n + " = " + (whole ? line_start + " + " : "") + sl.base + "; " +
                        n + " += " + n + " >> 5u;";
        return k_.staggered() ? d + " " + n + " += " + line_start + ";" : d;
      });
}

// Declares i as slot sl's shared index: from its padded base where declared.
std::string Emitter::slot_index(const std::map<std::string, std::string>& bases, bool alt,
                                const Slot& sl) const {
  auto it = sl.pad_folds && sl.team.empty() ? bases.find(sl.base) : bases.end();
  if (it == bases.end())
    return shared_var("i", alt, sl.pos, sl.team);
  return "uint i = " + it->second + " + " + u(sl.offset + sl.offset / 32) + "; ";
}

// A workgroup barrier.
void Emitter::barrier() {
  line(x_.barrier);
}

// Which slots take part in chunk c's round: false to leave the slot out,
// else its guard with the chunk's bounds where they are not known to hold.
bool Emitter::in_chunk(const Slot& sl, int c, std::string& guard) const {
  guard = sl.guard;
  if (k_.exchange != Exchange::chunked)
    return true;
  int64_t C = k_.chunk(), from = c * C, to = from + C;
  int64_t lo = sl.lo < 0 ? 0 : sl.lo, hi = sl.lo < 0 ? k_.chunks * C - 1 : sl.hi;
  if (hi < from || lo >= to)
    return false;
  // Bounds on base where they hold for pos alike: a butterfly's slots
  // then share one guard (one if around their run).
  std::string p = sl.block && C % sl.block == 0 ? "(" + sl.base + ")" : sl.pos;
  if (lo < from)
    guard = join(guard, p + " >= " + u(from));
  if (hi >= to)
    guard = join(guard, p + " < " + u(to));
  return true;
}

// The shared index of a chunk c position: its padded index less the
// chunk's start (padding folds: a chunk is a multiple of 32 positions).
std::string Emitter::chunk_index(int c) const {
  int64_t start = c * k_.chunk();
  return start ? "i - " + u(start + start / 32) : "i";
}

// Layout from's components comps into shared memory, of chunk `chunk`.
void Emitter::write_shared(const Layout& from, const char* comps, int chunk) {
  auto bases = padded_bases(from);
  std::string at = chunk_index(chunk), guard;
  for (size_t s = 0; s < from.slots.size(); ++s) {
    const Slot& sl = from.slots[s];
    if (!in_chunk(sl, chunk, guard))
      continue;
    std::string stmt = slot_index(bases, from.alt, sl);
    for (const char* c = comps; *c; ++c)
      stmt += "sh[" + at + (*c == 'y' && k_.exchange == Exchange::whole ? " + " + half() : "") +
              "] = r[" + std::to_string(s) + "]." + *c + "; ";
    guarded(guard, stmt);
  }
}

// Whether values in layout from must pass through shared memory to reach
// layout to; if so, after a barrier where shared memory was in use.
bool Emitter::enter_exchange(const Layout& from, const Layout& to) {
  if (same(from, to))
    return false;
  if (shared_used_)
    barrier();
  shared_used_ = true;
  return true;
}

// Values in layout from, rearranged into layout to (through shared memory).
Layout Emitter::exchange(const Layout& from, const Layout& to) {
  if (!enter_exchange(from, to))
    return to;
  if (k_.exchange == Exchange::whole) {
    write_shared(from, "xy");
    barrier();
    read_shared(to, "xy", 0);
    return to;
  }
  // One component at a time, a round a chunk. In one chunk the real parts
  // land in r directly, since the y round reads only r's imaginary parts;
  // with several chunks r is read until the last round, so both
  // components wait in xs and ys.
  bool chunked = k_.exchange == Exchange::chunked;
  int chunks = int(k_.chunks);
  for (int round = 0; round < 2 * chunks; ++round) {
    bool y = round >= chunks;
    if (round)
      barrier();
    write_shared(from, y ? "y" : "x", round % chunks);
    barrier();
    read_shared(to, !chunked ? (y ? "y" : "x") : y ? "ys" : "xs", round % chunks);
  }
  if (chunked)
    for (size_t s = 0; s < to.slots.size(); ++s)
      guarded(to.slots[s].guard, "r[" + std::to_string(s) + "] = CPLX(xs[" + std::to_string(s) +
                                     "], ys[" + std::to_string(s) + "]);");
  return to;
}

// The slots of `to` from shared memory: both components ("xy"), one into
// r ("x", "y") or into the arrays xs or ys, of one chunk's round.
void Emitter::read_shared(const Layout& to, const std::string& what, int chunk) {
  auto bases = padded_bases(to);
  std::string at = chunk_index(chunk), guard;
  for (size_t s = 0; s < to.slots.size(); ++s) {
    if (!emits(s) || !in_chunk(to.slots[s], chunk, guard))
      continue;
    std::string r = std::to_string(s), v = "sh[" + at + "]";
    std::string stmt = slot_index(bases, to.alt, to.slots[s]) +
                       (what == "xy"       ? "r[" + r + "] = CPLX(sh[i], sh[i + " + half() + "]);"
                        : what.size() == 1 ? "r[" + r + "]." + what + " = " + v + ";"
                                           : what + "[" + r + "] = " + v + ";");
    guarded(guard, stmt);
  }
}

} // namespace fftmux::codegen::emission
