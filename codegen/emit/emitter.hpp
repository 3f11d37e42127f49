// The emitter shared by codegen/emit/*.cpp: a Kernel as straight-line source.
// Every thread holds the values of its slots in registers r0..; a layout says
// which line position each slot holds; exchanges between layouts go through
// shared memory. Private to the generator.
#pragma once

#include "dialect.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fftmux::codegen::emission {

// printf into a string.
std::string format(const char* f, ...);
// v as an unsigned literal.
std::string u(int64_t v);
// Every from in s replaced by to.
void replace_all(std::string& s, const std::string& from, const std::string& to);
// K(literal) -> the literal with the precision's suffix (text.cpp).
std::string typed_literals(const std::string& s, const char* suffix);

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
// A slot of position pos under guard (team: a flat layout's line).
Slot slot(std::string pos, std::string guard, std::string team = "");
// A thread's slots under one mapping (alt: the other) or as a flat run.
struct Layout {
  bool alt = false;
  bool flat = false; // the workgroup's lines as one run: guards include the line check
  std::vector<Slot> slots;
};

class Emitter {
public:
  Emitter(const Kernel& k, Dialect d)
      : k_(k), x_(syntax(d)), f64_(k.precision == Precision::f64), half_load_(half_side(k, k.load)),
        half_store_(half_side(k, k.store)) {}
  std::string run();
  std::string entry() const;
  bool restrict_table() const;
  std::string resident_groups() const;
  std::string cluster_dims() const;

private:
  // A butterfly of a thread: its index, with its least and greatest value over
  // the threads (butterfly()).
  struct Butterfly {
    std::string b;
    int64_t lo, hi;
  };

  // ---- the frame (frame.cpp) ----
  void body();
  void mapping(bool alt);
  static std::string without_unread_indices(const std::string& code);
  static bool mapping_index(std::string_view v);
  void mirror_lines(const std::string& m, int64_t n);

  // ---- loads and stores (memory.cpp) ----
  std::string stream_open() const;
  std::string fetch(const std::string& g) const;
  void load_streamed(const Layout& from);
  std::string load_value(const Side& side, const std::string& pos, bool alt);
  std::string load_at(const Side& side, const std::string& l, bool alt);
  std::string half_value(const Side& side, const std::string& e, bool alt);
  std::pair<std::string, std::string> folded(const Side& side, const std::string& l) const;
  Layout accessed(Mapping m, int64_t count, const Layout& own);
  Layout load();
  void store(const Layout& cur);
  void mirror_pairs(const Layout& lay, const Side& side, bool store, const std::string& scale);
  std::string store_value(const Side& side, const std::string& l, bool alt, const std::string& v);
  std::string store_whole(const Side& side, const std::string& l, bool alt, const std::string& v);
  std::string held(const Side& side, const std::string& e, const std::string& value,
                   const std::string& other) const;
  std::string stored(const Side& side, const std::string& l) const;
  std::string odd_sign(const Side& side, const std::string& e, const std::string& v) const;

  // ---- global memory indices (address.cpp) ----
  std::string flat_address(const Side& side, size_t slot, int64_t L) const;
  std::string axis_index(const Axis& a, const std::string& e, bool alt,
                         const std::string& logical = "") const;
  std::string terms(const std::vector<Term>& ts, const std::string& e, bool alt,
                    int64_t offset) const;
  std::string index(const Index& ix, const std::string& pos, bool alt) const;
  std::string address(const Side& side, bool alt, const std::string& logical) const;
  std::string logical(const Side& side, const std::string& pos, bool alt) const;
  std::string src(const std::string& ix) const;
  std::string src_real(const std::string& ix) const;
  std::string put(const std::string& ix, const std::string& v) const;
  std::string put_real16(const std::string& ix, const std::string& v) const;
  std::string put_real(const std::string& ix, const std::string& v) const;
  const char* element_type(bool half) const;
  std::string pair_index(const Side& side, bool alt, const std::string& l) const;
  std::map<std::string, std::string> line_bases(const Layout& l, const Side& side, bool store);
  static int64_t element_coef(const Axis& a);
  std::string through(const std::map<std::string, std::string>& bases, const Slot& sl,
                      const Side& side, bool store) const;

  // ---- layouts (layout.cpp) ----
  std::string t(bool alt) const;
  Layout linear(int64_t count, bool alt);
  Layout stage_layout(const Step& s, bool out);
  Layout flat(int64_t L);
  Layout grow(Layout l);
  static bool same(const Layout& a, const Layout& b);
  Layout first_layout();

  // ---- shared memory (exchange.cpp) ----
  std::string shared_var(const char* v, bool alt, const std::string& pos,
                         const std::string& slot_team = "") const;
  std::string half() const;
  std::map<std::string, std::string> padded_bases(const Layout& l);
  std::string slot_index(const std::map<std::string, std::string>& bases, bool alt,
                         const Slot& sl) const;
  void barrier();
  bool in_chunk(const Slot& sl, int c, std::string& guard) const;
  std::string chunk_index(int c) const;
  void write_shared(const Layout& from, const char* comps, int chunk = 0);
  bool enter_exchange(const Layout& from, const Layout& to);
  Layout exchange(const Layout& from, const Layout& to);
  void read_shared(const Layout& to, const std::string& what, int chunk);
  // A name declared once (by decl's statement) for each distinct base among
  // l's slots that use accepts (padded_bases, line_bases).
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

  // ---- butterflies and stages (stages.cpp) ----
  size_t tail_stage() const;
  int64_t per_thread(const Step& s) const;
  void butterfly_tail(const Step& s, const Layout& cur);
  bool emits(size_t slot) const;
  Layout stage(const Step& s, const Layout& cur);
  void butterfly_step(const Step& s, int64_t j);
  void multiply(const Step& s, const Layout& cur);
  static bool on_row(const Step& s, const Slot& sl);
  size_t by_rows(const Step& s, const Layout& cur, size_t i, const std::string& g);
  Butterfly butterfly(const Step& s, int64_t j) const;
  std::string table(int64_t offset, const std::string& m, bool conj) const;
  std::string lookup(const Table& t, const std::string& m) const;
  static std::string pow2_butterflies(int sign);

  // ---- R2C's post step (real.cpp) ----
  Layout r2c_post(const Step& s, const Layout& cur);
  Layout post_step(const Step& s, const Step* last, const Layout& cur);
  Partners partners(const Step& s) const;
  size_t natural_slot(const Step& last, int64_t m) const;
  int64_t natural_values(const Step& last);
  const Step* mirrored() const;
  Layout r2c_post_mirrored(const Step& s, const Step& last);
  Layout r2c_post_shared(const Step& s, const Step& last);
  static std::vector<int64_t> pair_order(int64_t M, int64_t n, bool paired);
  Layout r2c_post_shuffled(const Step& s, const Step& last);
  template <class Partner> Layout r2c_post_pairs(const Step& s, int64_t M, const Partner& partner);

  // ---- clusters (cluster.cpp) ----
  void cluster_rows(const Layout& cur);
  std::vector<std::string> cluster_row_values(const std::string& name, const std::string& at,
                                              int64_t c);
  std::vector<std::string> cluster_columns(const std::string& at);
  std::string cluster_sync() const;
  std::string cluster_load(const std::string& v, const std::string& address) const;
  int transform_sign() const;
  std::string turned(const std::string& z, int64_t e, int64_t c) const;

  // ---- text (text.cpp) ----
  std::string literal(double v) const;
  static std::string reg(size_t i);
  static std::string reg(int64_t i);
  static std::string join(const std::string& a, const std::string& b);
  void line(const std::string& s);
  void guarded(const std::string& guard, const std::string& stmt);
  void flush();

  const Kernel& k_;
  const Syntax& x_;
  bool f64_;
  bool half_load_, half_store_; // the sides' 16-bit storage (half_side)
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

} // namespace fftmux::codegen::emission
