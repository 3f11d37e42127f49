// Text: the small string helpers, registers, guards and the lines of code.
#include "emit/emitter.hpp"

#include <cctype>
#include <cstdarg>
#include <cstdio>

namespace fftmux::codegen::emission {

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

// A slot of position pos under guard (team: a flat layout's line).
Slot slot(std::string pos, std::string guard, std::string team) {
  Slot s;
  s.pos = std::move(pos);
  s.guard = std::move(guard);
  s.team = std::move(team);
  return s;
}

// v as a literal of the precision, exact to the last digit.
std::string Emitter::literal(double v) const {
  char b[64];
  std::snprintf(b, sizeof b, "K(%.17g)", v);
  std::string s = b;
  if (s.find_first_of(".e") == std::string::npos)
    s.insert(s.size() - 1, ".0");
  return s;
}

// Register i.
std::string Emitter::reg(size_t i) {
  return "r[" + std::to_string(i) + "]";
}

// Register i.
std::string Emitter::reg(int64_t i) {
  return reg(size_t(i));
}

// Both guards, either empty.
std::string Emitter::join(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : a + " && " + b;
}

// A statement on a line of its own, after the held guarded ones.
void Emitter::line(const std::string& s) {
  flush();
  code_ << "  " << s << "\n";
}

// Statements under one guard share one if: NVIDIA's OpenGL compiler kept
// an IF/ENDIF around each load of a run (its NV assembly, H200).
void Emitter::guarded(const std::string& guard, const std::string& stmt) {
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

// The held guarded statements, under their one if.
void Emitter::flush() {
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

} // namespace fftmux::codegen::emission
