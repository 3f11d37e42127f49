// emit(): a Kernel as straight-line source. Every thread holds the values of
// its slots in registers r0..; a layout says which line position each slot
// holds; exchanges between layouts go through shared memory.
#include "dialect.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>

namespace fftmux::codegen {

namespace {

std::string format(const char* f, ...) {
  va_list a, b;
  va_start(a, f);
  va_copy(b, a);
  int n = std::vsnprintf(nullptr, 0, f, a);
  va_end(a);
  std::string s(size_t(n) + 1, '\0');
  std::vsnprintf(s.data(), s.size(), f, b);
  va_end(b);
  s.resize(size_t(n));
  return s;
}

std::string u(int64_t v) {
  return std::to_string(v) + "u";
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// K(literal) -> the literal with the precision's suffix: GLSL reads an
// unsuffixed literal as float, and its preprocessor cannot paste one.
std::string typed_literals(const std::string& s, const char* suffix) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    size_t at = s.find("K(", i);
    bool word = at != std::string::npos && at > 0 && (std::isalnum(s[at - 1]) || s[at - 1] == '_');
    if (at == std::string::npos) {
      out.append(s, i, std::string::npos);
      break;
    }
    size_t end = s.find(')', at);
    out.append(s, i, at - i);
    if (word || end == std::string::npos) {
      out += "K(";
      i = at + 2;
      continue;
    }
    out.append(s, at + 2, end - at - 2);
    out += suffix;
    i = end + 1;
  }
  return out;
}

// Which slot holds which position: per slot a position expression and a
// guard (empty when always valid), for one of the two thread mappings.
struct Slot {
  std::string pos, guard;
  std::string team; // flat layouts: the slot's line in the workgroup
  // pos = base + offset, offset a constant (< 0: no such split). pad_folds:
  // adding offset to base never carries into bit 5 (offset a multiple of 32,
  // or base aligned to a power of two above offset), so the padded index is
  // base's padded index + offset + offset / 32.
  std::string base;
  int64_t offset = -1;
  bool pad_folds = false;
  int64_t lo = -1, hi = -1; // bounds of pos where known (lo < 0: anywhere on the line)
  // pos and base share their block of `block` positions (0: not known), so
  // a bound that is a multiple of it holds for pos where it holds for base.
  int64_t block = 0;
};
Slot slot(std::string pos, std::string guard, std::string team = "") {
  Slot s;
  s.pos = std::move(pos);
  s.guard = std::move(guard);
  s.team = std::move(team);
  return s;
}
struct Layout {
  bool alt = false;
  bool flat = false; // the workgroup's lines as one run: guards include the line check
  std::vector<Slot> slots;
};

class Emitter {
public:
  Emitter(const Kernel& k, Dialect d) : k_(k), x_(syntax(d)), f64_(k.precision == Precision::f64) {}

  std::string run() {
    body();
    flush();
    std::ostringstream o;
    int p = f64_ ? 1 : 0;
    o << format(x_.prelude, x_.real_type[p], x_.complex_type[p]);

    if (x_.dialect != Dialect::cuda)
      o << format(x_.globals, k_.workgroup());
    o << shader_complex << shader_real;
    // Ascending radix: a composite's parts (and the power-of-two text with
    // its eighth turns) come before it.
    std::set<std::pair<int, int>> all = butterflies_;
    for (auto& [radix, sign] : butterflies_)
      if (auto [a, b] = composite_parts(radix); a)
        all.insert({{a, sign}, {b, sign}});
    std::set<int> pow2_signs;
    for (auto& [radix, sign] : all) {
      const char* sfx = sign < 0 ? "_f" : "_i";
      if (composite_parts(radix).first)
        o << composite_butterfly(radix, sign, sfx);
      else if (radix % 2)
        o << odd_butterfly(radix, sign, sfx);
      else if (pow2_signs.insert(sign).second)
        o << pow2_butterflies(sign);
    }
    // CUDA declares shared memory inside the kernel, GLSL outside.
    bool inside = x_.dialect == Dialect::cuda;
    std::string shared = shared_used_ ? format(x_.shared_decl, k_.shared_scalars()) : "";
    o << (inside ? "" : shared)
      << format(x_.entry_open, entry().c_str(), k_.workgroup(), resident_groups().c_str(),
                restrict_table() ? "__restrict__ " : "", cluster_dims().c_str())
      << (inside ? shared : "");
    o << "  uint lid = " << x_.local_id << ";\n";
    if (!k_.stream)
      o << "  uint group = " << x_.group_id << ";\n";
    o << "  cplx_t r[" << std::max<size_t>(1, registers_) << "];\n";
    if (k_.chunks > 1 && shared_used_) {
      o << "  real_t xs[" << std::max<size_t>(1, registers_) << "];\n";
      o << "  real_t ys[" << std::max<size_t>(1, registers_) << "];\n";
    }
    std::string code = without_unread_indices(code_.str());
    if (k_.stream)
      o << stream_open() << code << "  }\n";
    else
      o << code;
    o << x_.entry_close;
    return typed_literals(o.str(), x_.literal_suffix[p]);
  }

  std::string entry() const { return x_.dialect == Dialect::cuda ? k_.name : "main"; }

  // A restricted table lets the compiler hoist its reads: 3-8 % faster on the
  // H200 for one transform a kernel, but a Bluestein kernel (two transforms,
  // three table products) then spills (4097 points: 159 GB/s, 375 without).
  bool restrict_table() const {
    std::set<int> signs;
    for (const Step& s : k_.steps)
      if (s.kind == Step::stage)
        signs.insert(s.sign);
    return signs.size() < 2;
  }

  // CUDA's launch bound names the groups only when asked: even ", 1" lets
  // ptxas spend registers freely (H200: 1000 points took 156 registers and
  // ran 1.6x slower than with 70).
  std::string resident_groups() const {
    return k_.resident_groups ? ", " + std::to_string(k_.resident_groups) : "";
  }

  std::string cluster_dims() const {
    return k_.cluster > 1 ? format("__cluster_dims__(%u, 1, 1) ", k_.cluster) : "";
  }

private:
  // ---- streamed lines (Kernel::stream, CUDA) ----

  // The shared barrier, the copy's place, the first line's copy and the
  // loop over lines. A source not 16-byte aligned (a caller's pointer) is
  // read directly instead: the copy needs that alignment.
  std::string stream_open() const {
    std::string groups = u(int64_t(k_.groups()));
    return "  __shared__ __align__(8) unsigned long long bar;\n"
           "  uint bar_at = (uint)__cvta_generic_to_shared(&bar), phase = 0u;\n"
           "  uint pre_at = (uint)__cvta_generic_to_shared(sh + " +
           u(k_.stream_offset()) +
           ");\n"
           "  const cplx_t* pre = (const cplx_t*)(sh + " +
           u(k_.stream_offset()) +
           ");\n"
           "  bool bulk = ((size_t)src & 15u) == 0u;\n"
           "  if (lid == 0u) {\n"
           "    asm volatile(\"mbarrier.init.shared::cta.b64 [%0], 1;\" :: \"r\"(bar_at) : "
           "\"memory\");\n"
           "    asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\");\n"
           "  }\n"
           "  __syncthreads();\n  " +
           fetch("blockIdx.x") + "\n  for (uint group = blockIdx.x; group < " + groups +
           "; group += gridDim.x) {\n";
  }

  // Thread 0 has line g (< groups) copied to pre, completing on bar.
  std::string fetch(const std::string& g) const {
    int64_t base = first_element(k_.load);
    std::string bytes = u(k_.length * (f64_ ? 16 : 8));
    return "if (bulk && lid == 0u && " + g + " < " + u(int64_t(k_.groups())) +
           ") { "
           "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\"); "
           "asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: "
           "\"r\"(bar_at), \"r\"(" +
           bytes +
           ") : \"memory\"); "
           "asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
           "[%0], [%1], %2, [%3];\" :: \"r\"(pre_at), \"l\"(src + (size_t)(" +
           g + ") * " + u(k_.length) + (base ? " + " + u(base) : "") + "), \"r\"(" + bytes +
           "), \"r\"(bar_at) : \"memory\"); }";
  }

  // The current line from pre, once its copy has landed.
  void load_streamed(const Layout& from) {
    line("if (bulk) {");
    line("asm volatile(\"{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], "
         "%1; @!p bra W; }\" :: \"r\"(bar_at), \"r\"(phase) : \"memory\");");
    line("phase ^= 1u;");
    for (size_t i = 0; i < from.slots.size(); ++i)
      guarded(from.slots[i].guard, reg(i) + " = pre[" + from.slots[i].pos + "];");
    line("} else {");
  }

  // ---- the program ----

  void body() {
    mapping(false);
    if (k_.load_alt || k_.store_alt)
      mapping(true);
    Layout cur = load();
    mirrored_ = mirrored();
    const Step* prev = nullptr;
    size_t tail = tail_stage();
    for (const Step& s : k_.steps) {
      if (&s - k_.steps.data() == std::ptrdiff_t(tail))
        return butterfly_tail(s, cur);
      if (k_.cluster > 1 && s.kind == Step::r2c_post)
        break; // the rows' (cluster_rows)
      if (s.kind == Step::stage)
        cur = stage(s, cur);
      else if (s.kind == Step::multiply)
        multiply(s, cur);
      else if (k_.mirror_lines)
        cur = r2c_post(s, cur);
      else if (prev && prev == mirrored_)
        cur = r2c_post_mirrored(s, *prev);
      else if (prev && shuffled(*prev))
        cur = r2c_post_shuffled(s, *prev);
      else if (prev && natural(*prev) && k_.length / k_.threads % 2 == 0)
        cur = r2c_post_shared(s, *prev);
      else
        cur = r2c_post(s, cur);
      prev = &s;
    }
    store(cur);
  }

  // Kernel::butterfly_tail: the last stage where only multiplications
  // follow it and the store takes its layout, else steps.size().
  size_t tail_stage() const {
    size_t n = k_.steps.size(), last = n;
    for (size_t i = 0; i < n; ++i)
      if (k_.steps[i].kind == Step::stage)
        last = i;
      else if (k_.steps[i].kind != Step::multiply)
        return n;
    bool plain = !k_.split_exchange && k_.chunks == 1 && k_.cluster == 1 && !k_.stream &&
                 !k_.store_flat && !k_.store_alt;
    if (!k_.butterfly_tail || !plain || last == n)
      return n;
    return per_thread(k_.steps[last]) > 1 ? last : n;
  }

  // A thread's butterflies in stage s (the last one guarded where the
  // stage's do not divide evenly among the threads).
  int64_t per_thread(const Step& s) const {
    return (k_.length / s.radix + int64_t(k_.threads) - 1) / int64_t(k_.threads);
  }

  // The last stage, the multiplications after it and the store, one
  // butterfly at a time: its inputs are read from shared memory only once
  // the previous butterfly's outputs are stored, so a thread holds one
  // butterfly's values there instead of all of them (NVRTC, C2C 2^20's
  // columns of 1024 under 64 registers: 20 bytes spilled -> 4).
  void butterfly_tail(const Step& s, const Layout& cur) {
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
  bool emits(size_t slot) const { return slot >= only_.first && slot < only_.second; }

  // Thread and line indices of one mapping: the stage mapping or the other.
  void mapping(bool alt) {
    bool major = k_.team_major != alt;
    std::string m = alt ? "A" : "S", P = u(k_.threads), M = u(k_.teams);
    line("uint team" + m + " = " + (major ? "lid / " + P : "lid % " + M) + ";");
    line("uint t" + m + " = " + (major ? "lid % " + P : "lid / " + M) + ";");
    line("uint g" + m + " = group * " + M + " + team" + m + ";");
    line("bool ok" + m + " = g" + m + " < " + u(k_.transforms()) + ";");
    int64_t step = 1;
    for (size_t i = 0; i < k_.digits.size(); ++i) {
      std::string v = "g" + m + (step > 1 ? " / " + u(step) : "");
      line("uint d" + m + std::to_string(i) + " = " +
           (i + 1 < k_.digits.size() ? "(" + v + ") % " + u(k_.digits[i]) : v) + ";");
      step *= k_.digits[i];
    }
    if (k_.mirror_lines)
      mirror_lines(m, k_.mirror_lines);
  }
  // The mapping declares every index a kernel may use; one that nothing
  // reads (a kernel whose loads and stores are flat never reads okS or
  // dS0) is dropped, with what only it read, so NVRTC warns of none. Each
  // index's uses are counted once in the whole code, then only in the
  // lines dropped: emission is part of every plan's creation.
  static std::string without_unread_indices(const std::string& code) {
    struct Decl {
      size_t at, end;
      std::string_view name; // empty once dropped
      int64_t uses;
    };
    auto uses = [&](std::string_view v, size_t from, size_t to) { // whole words
      auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
      std::string_view s(code.data() + from, to - from);
      int64_t n = 0;
      for (size_t at = s.find(v); at != s.npos; at = s.find(v, at + 1))
        n +=
            (at == 0 || !word(s[at - 1])) && (at + v.size() == s.size() || !word(s[at + v.size()]));
      return n;
    };
    std::vector<Decl> decls;
    for (size_t at = 0, end; at < code.size(); at = end) {
      size_t nl = code.find('\n', at);
      end = nl == std::string::npos ? code.size() : nl + 1;
      std::string_view l(code.data() + at, end - at);
      size_t eq = l.find(" = ");
      if ((l.substr(0, 7) != "  uint " && l.substr(0, 7) != "  bool ") || eq == l.npos)
        continue;
      std::string_view name = l.substr(7, eq - 7);
      if (mapping_index(name))
        decls.push_back({at, end, name, uses(name, 0, code.size())});
    }
    for (bool dropped = true; dropped;) {
      dropped = false;
      for (Decl& d : decls)
        if (!d.name.empty() && d.uses == 1) {
          for (Decl& e : decls)
            if (!e.name.empty())
              e.uses -= uses(e.name, d.at, d.end);
          d.name = {};
          dropped = true;
        }
    }
    std::string out;
    size_t from = 0;
    for (const Decl& d : decls)
      if (d.name.empty()) {
        out.append(code, from, d.at - from);
        from = d.end;
      }
    return out.append(code, from);
  }
  // team, t, g, ok, c or mate of the stage (S) or the other (A) mapping, or
  // a digit dS0, dA1, ...
  static bool mapping_index(std::string_view v) {
    if (v.size() > 2 && v[0] == 'd' && (v[1] == 'S' || v[1] == 'A'))
      return v.find_first_not_of("0123456789", 2) == v.npos;
    if (v.empty() || (v.back() != 'S' && v.back() != 'A'))
      return false;
    v.remove_suffix(1);
    return v == "team" || v == "t" || v == "g" || v == "ok" || v == "c" || v == "mate";
  }

  // Lines in mirror pairs (Kernel::mirror_lines): lines 2 p and 2 p + 1 of
  // digit 0 become p and n - p (0 and n / 2 for p = 0, each its own
  // mirror); mate is the team that holds a row's mirror (R2C's rows). The
  // other digits count pairs as they counted lines.
  void mirror_lines(const std::string& m, int64_t n) {
    std::string c = "c" + m, d = "d" + m + "0";
    line("uint " + c + " = g" + m + " % " + u(n) + ";");
    line(d + " = (" + c + " & 1u) == 0u ? " + c + " >> 1u : " + c + " == 1u ? " + u(n / 2) + " : " +
         u(n) + " - (" + c + " >> 1u);");
    if (k_.steps.back().kind == Step::r2c_post && m == "S") // the post step's mapping
      line("uint mate" + m + " = " + c + " < 2u ? team" + m + " : team" + m + " ^ 1u;");
  }

  // ---- layouts ----

  std::string t(bool alt) const { return alt ? "tA" : "tS"; }

  Layout linear(int64_t count, bool alt) {
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
  Layout stage_layout(const Step& s, bool out) {
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
  Layout flat(int64_t L) {
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

  // The memory index of flat slot e of a contiguous side of L positions a
  // line (planner's rule), in complex elements (a real side's are pairs).
  std::string flat_address(const Side& side, size_t slot, int64_t L) const {
    int64_t base = first_element(side) / (side.access == Access::real_pair ? 2 : 1);
    return "group * " + u(L * k_.teams) + " + lid + " + u(int64_t(slot) * k_.workgroup()) +
           (base ? " + " + u(base) : "");
  }

  Layout grow(Layout l) {
    registers_ = std::max(registers_, l.slots.size());
    return l;
  }

  static bool same(const Layout& a, const Layout& b) {
    if (a.alt != b.alt || a.flat != b.flat || a.slots.size() != b.slots.size())
      return false;
    for (size_t i = 0; i < a.slots.size(); ++i)
      if (a.slots[i].pos != b.slots[i].pos || a.slots[i].guard != b.slots[i].guard)
        return false;
    return true;
  }

  // The layout the program starts from: the first stage's inputs.
  Layout first_layout() {
    for (const Step& s : k_.steps)
      if (s.kind == Step::stage)
        return stage_layout(s, false);
    return linear(k_.positions, false);
  }

  // ---- shared memory ----

  // Declares v as the shared-memory index of pos (padded: one spare word
  // per 32), as a statement prefix: the index is written once per slot.
  std::string shared_var(const char* v, bool alt, const std::string& pos,
                         const std::string& slot_team = "") const {
    std::string team = !slot_team.empty() ? slot_team : alt ? "teamA" : "teamS", i = pos;
    if (k_.staggered()) {
      // Counted on the generated F32 kernels (warp 0, every exchange): 1.2-1.6
      // wavefronts an access at 32-256 points, 1.7-2.0 with a pitch of
      // length + 1 padded as a whole. Rows aligned to 32 words and
      // XOR-swizzled did as well but took up to twice the shared memory,
      // which cost the H200 35-45 % at 32-128 points.
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
  std::string half() const { return u(k_.component_scalars()); }

  // The padded base index of every slot of l whose padding folds, declared
  // once (a run of slots shares it): NVIDIA's OpenGL compiler computed each
  // slot's i + (i >> 5) anew (four integer operations an access).
  // (shared_var's cases: a staggered line pads its positions alone, a
  // team-major one its whole index, which folds where lines start at
  // multiples of 32 words.)
  std::map<std::string, std::string> padded_bases(const Layout& l) {
    bool whole = k_.teams > 1 && !k_.staggered();
    if (k_.slot_addresses || !k_.pad_shared ||
        (whole && !(k_.team_major && k_.line_scalars() % 32 == 0)))
      return {};
    std::string line_start =
        (l.alt ? "teamA" : "teamS") + std::string(" * ") + u(k_.line_scalars());
    return per_base(
        l, "ix", [](const Slot& sl) { return sl.pad_folds && sl.team.empty(); },
        [&](const std::string& n, const Slot& sl) {
          std::string d = "uint " + n + " = " + (whole ? line_start + " + " : "") + sl.base + "; " +
                          n + " += " + n + " >> 5u;";
          return k_.staggered() ? d + " " + n + " += " + line_start + ";" : d;
        });
  }
  // A name declared once (by decl's statement) for each distinct base among
  // l's slots that use accepts.
  template <class Use, class Decl>
  std::map<std::string, std::string> per_base(const Layout& l, const char* prefix, Use use,
                                              Decl decl) {
    std::map<std::string, std::string> names;
    for (size_t i = 0; i < l.slots.size(); ++i)
      if (const Slot& sl = l.slots[i]; emits(i) && use(sl) && !names.count(sl.base)) {
        std::string n = prefix + std::to_string(declared_++);
        line(decl(n, sl));
        names[sl.base] = n;
      }
    return names;
  }
  std::string slot_index(const std::map<std::string, std::string>& bases, bool alt,
                         const Slot& sl) const {
    auto it = sl.pad_folds && sl.team.empty() ? bases.find(sl.base) : bases.end();
    if (it == bases.end())
      return shared_var("i", alt, sl.pos, sl.team);
    return "uint i = " + it->second + " + " + u(sl.offset + sl.offset / 32) + "; ";
  }

  void barrier() { line(x_.barrier); }

  // Which slots take part in chunk c's round: false to leave the slot out,
  // else its guard with the chunk's bounds where they are not known to hold.
  bool in_chunk(const Slot& sl, int c, std::string& guard) const {
    guard = sl.guard;
    if (k_.chunks < 2)
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
  std::string chunk_index(int c) const {
    int64_t start = c * k_.chunk();
    return start ? "i - " + u(start + start / 32) : "i";
  }

  void write_shared(const Layout& from, const char* comps, int chunk = 0) {
    auto bases = padded_bases(from);
    std::string at = chunk_index(chunk), guard;
    for (size_t s = 0; s < from.slots.size(); ++s) {
      const Slot& sl = from.slots[s];
      if (!in_chunk(sl, chunk, guard))
        continue;
      std::string stmt = slot_index(bases, from.alt, sl);
      for (const char* c = comps; *c; ++c)
        stmt += "sh[" + at + (*c == 'y' && !k_.split_exchange ? " + " + half() : "") + "] = r[" +
                std::to_string(s) + "]." + *c + "; ";
      guarded(guard, stmt);
    }
  }

  // Whether values in layout from must pass through shared memory to reach
  // layout to; if so, after a barrier where shared memory was in use.
  bool enter_exchange(const Layout& from, const Layout& to) {
    if (same(from, to))
      return false;
    if (shared_used_)
      barrier();
    shared_used_ = true;
    return true;
  }

  Layout exchange(const Layout& from, const Layout& to) {
    if (!enter_exchange(from, to))
      return to;
    if (!k_.split_exchange) {
      write_shared(from, "xy");
      barrier();
      read_shared(to, "xy", 0);
      return to;
    }
    // One component at a time, a round a chunk. In one chunk the real parts
    // land in r directly, since the y round reads only r's imaginary parts;
    // with several chunks r is read until the last round, so both
    // components wait in xs and ys.
    int chunks = int(k_.chunks);
    for (int round = 0; round < 2 * chunks; ++round) {
      bool y = round >= chunks;
      if (round)
        barrier();
      write_shared(from, y ? "y" : "x", round % chunks);
      barrier();
      read_shared(to, chunks == 1 ? (y ? "y" : "x") : y ? "ys" : "xs", round % chunks);
    }
    if (chunks > 1)
      for (size_t s = 0; s < to.slots.size(); ++s)
        guarded(to.slots[s].guard, "r[" + std::to_string(s) + "] = CPLX(xs[" + std::to_string(s) +
                                       "], ys[" + std::to_string(s) + "]);");
    return to;
  }

  // The slots of `to` from shared memory: both components ("xy"), one into
  // r ("x", "y") or into the arrays xs or ys, of one chunk's round.
  void read_shared(const Layout& to, const std::string& what, int chunk) {
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

  // ---- steps ----

  Layout stage(const Step& s, const Layout& cur) {
    exchange(cur, stage_layout(s, false));
    for (int64_t j = 0; j < per_thread(s); ++j)
      butterfly_step(s, j);
    return stage_layout(s, true);
  }

  // Butterfly j of a thread in stage s: its twiddles, then the radix.
  void butterfly_step(const Step& s, int64_t j) {
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

  void multiply(const Step& s, const Layout& cur) {
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

  static bool on_row(const Step& s, const Slot& sl) {
    return s.rows >= 0 && s.limit == std::numeric_limits<int64_t>::max() && sl.offset >= 0 &&
           sl.offset % s.row_step == 0 && sl.offset / s.row_step < s.row_count;
  }

  // Slots from i on that share slot i's base and guard, by Step::rows: one
  // lookup of the base's twiddle, then a row value each. Returns the end.
  size_t by_rows(const Step& s, const Layout& cur, size_t i, const std::string& g) {
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

  // X[k] for k = 0 .. h from Z (the line) in shared memory. A row k1 of
  // Z (Kernel::mirror_lines n1) makes X[k1 + n1 k] for k = 0 .. n (its length;
  // k = n only in row 0, whose X[h] it is): Z[h - k1 - n1 k] is position
  // n - 1 - k of row n1 - k1, which team mate holds, or in row 0 position
  // (n - k) mod n of itself.
  Layout r2c_post(const Step& s, const Layout& cur) {
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

  // Whether the step after `last` can take Z[h - k] from registers: the
  // last stage left Z in natural order (position t + j P + i q in slot
  // j R + i, q = h / R a multiple of P), so the partner of every position
  // thread t holds is in thread (P - t) mod P; that is the thread itself
  // where a line has one, else a lane of the same run where the dialect
  // has shuffles and a line's threads are a run of lanes (a power of two
  // up to 32, in whole warps). H200, R2C 1024 (32 threads a line): 317 ->
  // 276 us, cuFFT 266.
  bool shuffled(const Step& last) const {
    int64_t P = k_.threads;
    return natural(last) &&
           (P == 1 || (x_.shuffle && P <= 32 && 32 % P == 0 && k_.workgroup() % 32 == 0 &&
                       (k_.team_major || k_.teams == 1)));
  }
  bool natural(const Step& last) const {
    if (last.kind != Step::stage)
      return false;
    int64_t q = k_.length / last.radix;
    return last.span == q && q % k_.threads == 0;
  }
  // The slot of Z[t + m P] in natural order: position t + j P + i q is in
  // slot j R + i.
  size_t natural_slot(const Step& last, int64_t m) const {
    int64_t P = k_.threads, q = k_.length / last.radix;
    return size_t(m * P % q / P * last.radix + m * P / q);
  }
  // z[m] = Z[t + m P], declared where Z is in natural order, in a block the
  // caller closes.
  int64_t natural_values(const Step& last) {
    int64_t M = k_.length / k_.threads;
    std::string z;
    for (int64_t m = 0; m < M; ++m)
      z += (m ? ", " : "") + reg(natural_slot(last, m));
    line("{");
    line("const cplx_t z[" + std::to_string(M) + "] = {" + z + "};");
    return M;
  }

  // The last stage before R2C's post step, where it can leave each
  // thread the partners of its own outputs: natural order, an even count J
  // of butterflies a thread, several threads a line (one thread holds them
  // all already). Butterfly b's outputs b + i q pair with those of q - b
  // (mod q), so the upper half of a thread's butterflies are the mirrors of
  // its lower half (butterfly), and no partner crosses a thread. Only
  // where the dialect has no shuffles: H200, R2C against partners through
  // shared memory, OpenGL 2048
  // 526 -> 381 us, 4096 499 -> 469, Vulkan 2048 296 -> 281, 4096 319 ->
  // 286; CUDA against its shuffles and shared memory lost at 128-4096
  // (4096 288 -> 291, 2048 277 -> 286, 256 278 -> 295, F64 4096 553 ->
  // 574) and won only at 64 (327 -> 314) and 16384 (333 -> 322).
  const Step* mirrored() const {
    size_t n = k_.steps.size();
    if (x_.shuffle || n < 2 || k_.steps[n - 1].kind != Step::r2c_post || k_.threads < 2 ||
        k_.mirror_lines)
      return nullptr;
    const Step& last = k_.steps[n - 2];
    return natural(last) && k_.length / last.radix / k_.threads % 2 == 0 ? &last : nullptr;
  }
  // Butterfly j of thread t: t + j P; in the mirrored stage the upper half
  // holds the lower half's mirrors q - (t + (J - 1 - j) P), thread 0's last
  // the other one that is its own mirror, q / 2. With its least and
  // greatest value over the threads.
  struct Butterfly {
    std::string b;
    int64_t lo, hi;
  };
  Butterfly butterfly(const Step& s, int64_t j) const {
    int64_t P = k_.threads, q = k_.length / s.radix, J = q / P, back = (J - 1 - j) * P;
    if (&s != mirrored_ || j < J / 2)
      return {"(tS + " + u(j * P) + ")", j * P, std::min((j + 1) * P, q) - 1};
    if (back)
      return {"(" + u(q - back) + " - tS)", q - back - (P - 1), q - back};
    return {"(tS == 0u ? " + u(q / 2) + " : " + u(q) + " - tS)", q / 2, q - 1};
  }

  // R2C's outputs from the mirrored stage's registers: slot j R + i holds
  // Z[b_j + i q], its partner Z[h - b_j - i q] is slot (J - 1 - j) R + R -
  // 1 - i, and each pair makes both outputs in place (r2c_pair). Thread 0
  // holds the two butterflies that are their own mirrors, 0 and q / 2: its
  // R + 1 pairs take the R pairs of slots 0 .. R-1 by selected operands
  // (first butterfly 0's, X[0] with X[h] at i = 0, then q / 2's: i >= H)
  // and one more for X[h / 2], so no branch divides the warp.
  Layout r2c_post_mirrored(const Step& s, const Step& last) {
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
  Layout r2c_post_shared(const Step& s, const Step& last) {
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

  // Slots 0 .. n-1, with `paired` those of partners side by side: 0, M,
  // M-1, 1, M-2, 2, ... Each z[m] then dies a statement or two after it is
  // first read, so the outputs reuse its registers; in slot order half of
  // the z stay live beside half of the outputs. For the lines of 32 values
  // a thread that keep one output a slot: H200, R2C 2048 (130 -> 108
  // registers) 307-309 -> 292-296 us, cuFFT 272-278. (Before the pairs of
  // r2c_post_pairs, this order at 16 values ran slower: R2C 128 307-310 ->
  // 318-319, F64 256 565-570 -> 667.)
  static std::vector<int64_t> pair_order(int64_t M, int64_t n, bool paired) {
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
  Layout r2c_post_shuffled(const Step& s, const Step& last) {
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

  // Both outputs of each pair from one thread: X[k] and X[h - k] for its
  // k = t + m P below h / 2 (M / 2 slots), then h - t - m P (M / 2 more),
  // and X[h / 2] from lane 0. They share one product (r2c_pair), so a
  // thread makes half the shuffles and table reads of one output a slot.
  // H200: F32 R2C 16-1024 and F64 16-512
  // ran 0.5-7 % faster (1024 278-280 -> 271-273 us, cuFFT 266-268; 128
  // 306-310 -> 287), but 2048, 32 values a thread, 291-293 -> 299: it keeps
  // one output a slot.
  template <class Partner> Layout r2c_post_pairs(const Step& s, int64_t M, const Partner& partner) {
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

  // ---- global memory ----

  // The memory index of axis a with the element at logical position e.
  std::string axis_index(const Axis& a, const std::string& e, bool alt,
                         const std::string& logical = "") const {
    std::string l = logical.empty() ? terms(a.terms, e, alt, a.offset) : logical;
    if (a.shift)
      l = "((" + l + " + " + u(a.shift) + ") % " + u(a.extent) + ")";
    return a.stride == 1 ? l : "(" + l + ") * " + u(a.stride);
  }

  std::string terms(const std::vector<Term>& ts, const std::string& e, bool alt,
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

  std::string index(const Index& ix, const std::string& pos, bool alt) const {
    std::string s = terms(ix.terms, pos, alt, ix.offset);
    if (ix.product != kNone)
      s += " * " + (ix.product == kElement
                        ? pos
                        : std::string(alt ? "dA" : "dS") + std::to_string(ix.product));
    return s;
  }

  // The address of side's element with logical line index l (an expression).
  std::string address(const Side& side, bool alt, const std::string& logical) const {
    std::string a = axis_index(side.axes[0], "", alt, logical);
    for (size_t i = 1; i < side.axes.size(); ++i)
      a += " + " + axis_index(side.axes[i], "", alt);
    return a;
  }

  std::string logical(const Side& side, const std::string& pos, bool alt) const {
    const Axis& a = side.axes[0];
    return terms(a.terms, pos, alt, a.offset);
  }

  std::string src(const std::string& ix) const { return format(x_.src, ix.c_str()); }
  std::string src_real(const std::string& ix) const { return format(x_.src_real, ix.c_str()); }

  std::string load_value(const Side& side, const std::string& pos, bool alt) {
    return load_at(side, logical(side, pos, alt), alt);
  }
  // The value at logical position l of a side.
  std::string load_at(const Side& side, const std::string& l, bool alt) {
    std::string h = u(side.length);
    switch (side.access) {
    case Access::complex: return src(address(side, alt, l));
    case Access::real: return "CPLX(" + src_real(address(side, alt, l)) + ", K(0.0))";
    case Access::real_pair:
      if (paired(side))
        return src(pair_index(side, alt, l));
      return "CPLX(" + src_real(address(side, alt, "(2u * " + l + ")")) + ", " +
             src_real(address(side, alt, "(2u * " + l + " + 1u)")) + ")";
    case Access::hermitian:
      // The imaginary part of X[0] is ignored, as numpy and FFTW do.
      return "(" + l + " == " + u(0) + " ? CPLX(" + src(address(side, alt, l)) +
             ".x, K(0.0)) : " + l + " <= " + u(side.length / 2) + " ? " +
             src(address(side, alt, l)) + " : cconj(" +
             src(address(side, alt, "(" + h + " - " + l + ")")) + "))";
    case Access::r2c:
      return "r2c_post(" + src(address(side, alt, "(" + l + " % " + h + ")")) + ", " +
             src(address(side, alt, "((" + h + " - " + l + ") % " + h + ")")) + ", " +
             lookup(side.table, l) + ")";
    case Access::c2r:
      return "c2r_pre(" + src(address(side, alt, l)) + ", " +
             src(address(side, alt, "(" + h + " - " + l + ")")) + ", " + lookup(side.table, l) +
             ", " + l + " == " + u(0) + ")";
    }
    return "";
  }

  // The complex element holding pair l of a paired side.
  std::string pair_index(const Side& side, bool alt, const std::string& l) const {
    return "(" + address(side, alt, "(2u * " + l + ")") + ") >> 1u";
  }

  // A butterfly's slots reach memory through one base and constant offsets
  // (CUDA: a pointer), along contiguous and strided axes alike. Computed per
  // slot in 32 bits, each address cost NVRTC a widening multiply and a 64-bit
  // add (8192 points: 1872 SASS instructions, 1744 through pointers).
  std::map<std::string, std::string> line_bases(const Layout& l, const Side& side, bool store) {
    const Axis& a = side.axes[0];
    bool plain = element_coef(a) && !a.shift && a.limit == std::numeric_limits<int64_t>::max();
    if (k_.slot_addresses || side.access != Access::complex || !plain || l.flat)
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
  static int64_t element_coef(const Axis& a) {
    int64_t c = 0, n = 0;
    for (const Term& t : a.terms)
      if (t.coord == kElement)
        c = t.coef, ++n;
    return n == 1 ? c : 0;
  }
  // Slot sl's element through its base, "" where it has none.
  std::string through(const std::map<std::string, std::string>& bases, const Slot& sl,
                      const Side& side, bool store) const {
    auto it = sl.offset >= 0 ? bases.find(sl.base) : bases.end();
    if (it == bases.end())
      return "";
    std::string at = u(sl.offset * element_coef(side.axes[0]) * side.axes[0].stride);
    if (x_.dialect == Dialect::cuda)
      return it->second + "[" + at + "]";
    return format(store ? x_.dst : x_.src, (it->second + " + " + at).c_str());
  }

  Layout load() {
    const Side& side = k_.load;
    Layout target = first_layout();
    Layout from = k_.load_flat ? flat(k_.length) : k_.load_alt ? linear(k_.length, true) : target;
    for (size_t i = 0; i < from.slots.size(); ++i) // what guarded-off slots hold
      line(reg(i) + " = CPLX(K(0.0), K(0.0));");
    if (k_.stream)
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
    if (k_.mirror_pairs)
      mirror_pairs(from, side, false, "");
    if (k_.stream) { // every thread has read pre: the next line may land there
      line("}");
      barrier();
      line(fetch("group + gridDim.x"));
    }
    return exchange(from, target);
  }

  void store(const Layout& cur) {
    if (k_.cluster > 1)
      return cluster_rows(cur);
    const Side& side = k_.store;
    Layout to = k_.store_flat  ? flat(k_.positions)
                : k_.store_alt ? linear(k_.positions, true)
                               : cur;
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
        guarded(sl.guard, format(x_.dst, flat_address(side, i, k_.positions).c_str()) + " = " +
                              reg(i) + scale + ";");
        continue;
      }
      std::string g = join(std::string(to.alt ? "okA" : "okS"), sl.guard);
      std::string l = logical(side, sl.pos, to.alt);
      if (side.axes[0].limit != std::numeric_limits<int64_t>::max())
        g = join(g, l + " < " + u(side.axes[0].limit));
      std::string v = reg(i) + scale, p = through(bases, sl, side, true);
      guarded(g, p.empty() ? store_value(side, l, to.alt, v) : p + " = " + v + ";");
    }
    if (k_.mirror_pairs)
      mirror_pairs(to, side, true, scale);
  }

  // Kernel::mirror_pairs: slot i at logical position l has its partner
  // output at h - l, kept in register J + i (J slots); loaded (store =
  // false) from the same two elements as slot i, or stored.
  void mirror_pairs(const Layout& lay, const Side& side, bool store, const std::string& scale) {
    size_t J = lay.slots.size();
    registers_ = std::max(registers_, 2 * J);
    for (size_t i = 0; i < J; ++i) {
      const Slot& sl = lay.slots[i];
      std::string l = logical(side, sl.pos, lay.alt);
      std::string m = "(" + u(k_.load.length) + " - " + l + ")";
      std::string g =
          join(join(std::string(lay.alt ? "okA" : "okS"), sl.guard),
               l + " < " + u(side.axes[0].limit) + " && " + m + " < " + u(k_.mirror_pairs));
      if (store) {
        guarded(g, store_value(side, m, lay.alt, reg(J + i) + scale));
        continue;
      }
      line(reg(J + i) + " = CPLX(K(0.0), K(0.0));");
      guarded(g, reg(J + i) + " = " + load_at(side, m, lay.alt) + ";");
    }
  }

  // The statement that stores value v at logical position l of a side
  // (complex, real or real pairs).
  std::string store_value(const Side& side, const std::string& l, bool alt, const std::string& v) {
    if (side.access == Access::complex)
      return format(x_.dst, address(side, alt, l).c_str()) + " = " + v + ";";
    if (side.access == Access::real)
      return format(x_.dst_real, address(side, alt, l).c_str()) + " = (" + v + ").x;";
    if (paired(side))
      return format(x_.dst, pair_index(side, alt, l).c_str()) + " = " + v + ";";
    return "cplx_t v = " + v + "; " +
           format(x_.dst_real, address(side, alt, "(2u * " + l + ")").c_str()) + " = v.x; " +
           format(x_.dst_real, address(side, alt, "(2u * " + l + " + 1u)").c_str()) + " = v.y;";
  }

  // The rows of a clustered chain (Kernel::cluster, CUDA): each group
  // leaves its twiddled columns in shared memory, one after another; after
  // the cluster's barrier group d reads positions [d q, (d + 1) q) of every
  // column through distributed shared memory, q = length / cluster, and
  // writes their rows' outputs. The last barrier keeps every group's
  // shared memory until the others have read it.
  void cluster_rows(const Layout& cur) {
    int64_t c = k_.cluster, columns = k_.cluster_columns, m = k_.length, q = m / c;
    std::string column = columns > 1 ? "teamS * " + u(k_.cluster_column_stride()) + " + " : "";
    shared_used_ = true;
    barrier();
    for (size_t i = 0; i < cur.slots.size(); ++i)
      guarded(join("okS", cur.slots[i].guard),
              "reinterpret_cast<cplx_t*>(sh)[" + column + cur.slots[i].pos + "] = " + reg(i) + ";");
    line(cluster_sync());
    line("uint zs = uint(__cvta_generic_to_shared(sh));");
    for (int64_t d = 0; d < c; ++d)
      line(format(
          "uint za%1$lld; asm(\"mapa.shared::cluster.u32 %%0, %%1, %%2;\" : \"=r\"(za%1$lld) "
          ": \"r\"(zs), \"r\"(%1$lldu));",
          (long long)d));
    line("#pragma unroll 2");
    line("for (uint i = lid; i < " + u(q) + "; i += " + u(k_.workgroup()) + ") {");
    line("uint k = dS0" + (columns > 1 ? " / " + u(columns) : "") + " * " + u(q) + " + i;");
    std::vector<std::string> rows = columns > 1 ? cluster_columns("k")
                                                : cluster_row_values("z", "k", c),
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
      if (side.axes[0].limit != std::numeric_limits<int64_t>::max())
        g = join(g, l + " < " + u(side.axes[0].limit));
      guarded(g, store_value(side, l, false, "(" + out[r] + ")" + scale));
    }
    line("}");
    line(cluster_sync());
  }

  // The c rows' values at position `at` of the cluster's columns: loads
  // NAMEd through distributed shared memory, then a DFT of c points, one
  // sum a row.
  std::vector<std::string> cluster_row_values(const std::string& name, const std::string& at,
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
  std::vector<std::string> cluster_columns(const std::string& at) {
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

  static std::string cluster_sync() {
    return "asm volatile(\"barrier.cluster.arrive.release.aligned;\\n\\t"
           "barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");";
  }
  // v = the complex value at `address` of a cluster's shared memory.
  static std::string cluster_load(const std::string& v, const std::string& address) {
    return "asm volatile(\"ld.shared::cluster.v2.f32 {%0, %1}, [%2];\" : \"=f\"(" + v +
           ".x), \"=f\"(" + v + ".y) : \"r\"(" + address + "));";
  }

  int transform_sign() const {
    int sign = -1;
    for (const Step& s : k_.steps)
      if (s.kind == Step::stage)
        sign = s.sign;
    return sign;
  }

  // z times w^e, w the c-th root of unity of the transform's sign: quarter
  // turns exactly.
  std::string turned(const std::string& z, int64_t e, int64_t c) const {
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

  // ---- tables ----

  std::string table(int64_t offset, const std::string& m, bool conj) const {
    std::string v = format(x_.tab, (u(offset) + " + " + m).c_str());
    return conj ? "cconj(" + v + ")" : v;
  }

  std::string lookup(const Table& t, const std::string& m) const {
    if (!t.split_bits)
      return table(t.offset, m, t.conj);
    std::string hi = table(t.hi_offset, "((" + m + ") >> " + u(t.split_bits) + ")", false);
    std::string lo =
        table(t.offset, "((" + m + ") & " + u((int64_t(1) << t.split_bits) - 1) + ")", false);
    std::string v = "cmul(" + hi + ", " + lo + ")";
    return t.conj ? "cconj(" + v + ")" : v;
  }

  std::string literal(double v) const {
    char b[64];
    std::snprintf(b, sizeof b, "K(%.17g)", v);
    std::string s = b;
    if (s.find_first_of(".e") == std::string::npos)
      s.insert(s.size() - 1, ".0");
    return s;
  }

  // shaders/butterflies.glsl for one sign.
  static std::string pow2_butterflies(int sign) {
    std::string text = shader_butterflies;
    replace_all(text, "$D", sign < 0 ? "_f" : "_i");
    replace_all(text, "$S", sign < 0 ? "K(-1.0)" : "K(1.0)");
    return text;
  }

  // ---- text ----

  static std::string reg(size_t i) { return "r[" + std::to_string(i) + "]"; }
  static std::string reg(int64_t i) { return reg(size_t(i)); }
  static std::string join(const std::string& a, const std::string& b) {
    return a.empty() ? b : b.empty() ? a : a + " && " + b;
  }
  void line(const std::string& s) {
    flush();
    code_ << "  " << s << "\n";
  }
  // Statements under one guard share one if: NVIDIA's OpenGL compiler kept
  // an IF/ENDIF around each load of a run (its NV assembly, H200).
  void guarded(const std::string& guard, const std::string& stmt) {
    if (guard.empty())
      line("{ " + stmt + " }");
    else if (!held_.empty() && guard == held_guard_)
      held_.push_back(stmt);
    else {
      flush();
      held_guard_ = guard;
      held_.push_back(stmt);
    }
  }
  void flush() {
    if (held_.empty())
      return;
    if (held_.size() == 1)
      code_ << "  if (" << held_guard_ << ") { " << held_[0] << " }\n";
    else {
      code_ << "  if (" << held_guard_ << ") {\n";
      for (const std::string& stmt : held_)
        code_ << "    { " << stmt << " }\n";
      code_ << "  }\n";
    }
    held_.clear();
  }

  const Kernel& k_;
  const Syntax& x_;
  bool f64_;
  std::ostringstream code_;
  std::string held_guard_; // guarded statements not yet written
  std::vector<std::string> held_;
  int declared_ = 0; // per_base's names so far (ix0, gp1, ...)
  size_t registers_ = 0;
  bool shared_used_ = false;
  const Step* mirrored_ = nullptr; // the stage butterfly pairs for R2C (mirrored())
  // The slots the steps emit (butterfly_tail's butterfly), all by default.
  std::pair<size_t, size_t> only_{0, SIZE_MAX};
  std::set<std::pair<int, int>> butterflies_;
};

} // namespace

std::string emit(const Kernel& kernel, Dialect dialect) {
  return Emitter(kernel, dialect).run();
}

std::string empty_shader(Dialect dialect) {
  const Syntax& x = syntax(dialect);
  return format(x.prelude, x.real_type[0], x.complex_type[0]) +
         "layout(local_size_x = 1) in;\nvoid main() {}\n";
}

std::string entry_point(const Kernel& kernel, Dialect dialect) {
  return dialect == Dialect::cuda ? kernel.name : "main";
}

} // namespace fftmux::codegen
