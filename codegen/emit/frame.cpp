// The kernel's frame: the entry point and its signature, the prelude and the
// butterflies it defines, the thread and line indices, the program's order.
#include "emit/emitter.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <string_view>

namespace fftmux::codegen::emission {

// The kernel's whole source: the body, then the frame around it.
std::string Emitter::run() {
  body();
  flush();
  std::ostringstream o;
  int p = f64_ ? 1 : 0;
  o << format(x_.prelude, x_.real_type[p], x_.complex_type[p]);

  const char *src_t = element_type(half_load_), *dst_t = element_type(half_store_);
  if (x_.dialect != Dialect::cuda)
    o << format(x_.globals, k_.workgroup(), src_t, dst_t, half_store_ ? "" : "writeonly ");
  if (half_load_ || half_store_)
    o << x_.half_functions[k_.storage == Storage::bf16];
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
              restrict_table() ? "__restrict__ " : "", cluster_dims().c_str(), src_t, dst_t)
    << (inside ? shared : "");
  o << "  uint lid = " << x_.local_id << ";\n";
  if (k_.exchange != Exchange::streamed)
    o << "  uint group = " << x_.group_id << ";\n";
  o << "  cplx_t r[" << std::max<size_t>(1, registers_) << "];\n";
  if (k_.exchange == Exchange::chunked && shared_used_) {
    o << "  real_t xs[" << std::max<size_t>(1, registers_) << "];\n";
    o << "  real_t ys[" << std::max<size_t>(1, registers_) << "];\n";
  }
  std::string code = without_unread_indices(code_.str());
  if (k_.exchange == Exchange::streamed)
    o << stream_open() << code << "  }\n";
  else
    o << code;
  o << x_.entry_close;
  return typed_literals(o.str(), x_.literal_suffix[p]);
}

// The entry point's name: the kernel's for CUDA, main for GLSL.
std::string Emitter::entry() const {
  return x_.dialect == Dialect::cuda ? k_.name : "main";
}

// Whether the table may be restricted (its reads hoisted): not where a kernel's
// stages have two signs, as Bluestein's, which then spill (docs/codegen-rules.md: restrict_table).
bool Emitter::restrict_table() const {
  std::set<int> signs;
  for (const Step& s : k_.steps)
    if (s.kind == Step::stage)
      signs.insert(s.sign);
  return signs.size() < 2;
}

// CUDA's launch bound names the resident groups only when asked: any count lets
// ptxas spend registers freely (docs/codegen-rules.md: resident_groups).
std::string Emitter::resident_groups() const {
  return k_.resident_groups ? ", " + std::to_string(k_.resident_groups) : "";
}

// CUDA's cluster attribute where groups form clusters (Kernel::cluster).
std::string Emitter::cluster_dims() const {
  return k_.cluster > 1 ? format(x_.sm90->cluster_dims, k_.cluster) : "";
}

// The program: load, the steps from layout to layout, store.
void Emitter::body() {
  mapping(false);
  if (k_.load_mapping == Mapping::alt || k_.store_mapping == Mapping::alt)
    mapping(true);
  Layout cur = load();
  mirrored_ = mirrored();
  const Step* prev = nullptr;
  size_t tail = tail_stage();
  for (const Step& s : k_.steps) {
    if (&s - k_.steps.data() == std::ptrdiff_t(tail))
      return butterfly_tail(s, cur);
    if (s.kind == Step::stage)
      cur = stage(s, cur);
    else if (s.kind == Step::multiply)
      multiply(s, cur);
    else
      cur = post_step(s, prev, cur);
    prev = &s;
  }
  store(cur);
}

// Thread and line indices of one mapping: the stage mapping or the other.
void Emitter::mapping(bool alt) {
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
  if (k_.real_step == RealStep::mirror_lines)
    mirror_lines(m, k_.mirror_lines);
}

// The mapping declares every index a kernel may use; one that nothing
// reads (a kernel whose loads and stores are flat never reads okS or
// dS0) is dropped, with what only it read, so NVRTC warns of none. Each
// index's uses are counted once in the whole code, then only in the
// lines dropped: emission is part of every plan's creation.
std::string Emitter::without_unread_indices(const std::string& code) {
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
      n += (at == 0 || !word(s[at - 1])) && (at + v.size() == s.size() || !word(s[at + v.size()]));
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
bool Emitter::mapping_index(std::string_view v) {
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
void Emitter::mirror_lines(const std::string& m, int64_t n) {
  std::string c = "c" + m, d = "d" + m + "0";
  line("uint " + c + " = g" + m + " % " + u(n) + ";");
  line(d + " = (" + c + " & 1u) == 0u ? " + c + " >> 1u : " + c + " == 1u ? " + u(n / 2) + " : " +
       u(n) + " - (" + c + " >> 1u);");
  if (k_.steps.back().kind == Step::r2c_post && m == "S") // the post step's mapping
    line("uint mate" + m + " = " + c + " < 2u ? team" + m + " : team" + m + " ^ 1u;");
}

} // namespace fftmux::codegen::emission

namespace fftmux::codegen {

std::string emit(const Kernel& kernel, Dialect dialect) {
  return emission::Emitter(kernel, dialect).run();
}

std::string empty_shader(Dialect dialect) {
  const Syntax& x = syntax(dialect);
  return emission::format(x.prelude, x.real_type[0], x.complex_type[0]) +
         "layout(local_size_x = 1) in;\nvoid main() {}\n";
}

std::string entry_point(const Kernel& kernel, Dialect dialect) {
  return dialect == Dialect::cuda ? kernel.name : "main";
}

} // namespace fftmux::codegen
