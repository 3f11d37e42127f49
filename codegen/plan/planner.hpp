// The planner's shared context (private to codegen/plan/): a problem becomes
// passes over lines (one axis at a time), a line becomes one kernel (it fits
// shared memory), a four-step chain of kernels (longer), or Bluestein's
// convolution (a prime factor above 13). Each .cpp of codegen/plan/ defines
// the Planner members of one responsibility, named beside their declarations.
#pragma once

#include "tables.hpp"

#include <fftmux/desc_geometry.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

namespace fftmux::codegen::planning {

// Whether the kernel ends with the r2c post-processing, which reads both
// components of a position at once (so its exchange cannot be split).
bool r2c_post(const Kernel& k);
// Whether a butterfly tail can run k's last stage: only multiplications follow it, both
// components exchange at once outside a cluster, the store takes its layout, and a thread holds
// more than one of its butterflies. (docs/codegen-rules.md: butterfly_tail)
bool tail_fits(const Kernel& k);

// A batch of lines to transform: axes[0] of each side is the line, its
// element term the position; other terms name digits (fastest first).
struct Line {
  int64_t n = 1;
  std::vector<int64_t> digits;
  Side load, store;
  int64_t mirror = 0; // Kernel::mirror_lines of its kernel (R2C's rows, real_rows)
  // R2R's weights (Tables::r2r, an entry for every position): each value loaded times pre at its
  // logical position, each value stored times post at its; offset < 0: none.
  Table pre, post;
};

// Sides and their layouts (sides.cpp).
Axis axis(std::vector<Term> terms, int64_t stride);
// Replaces the element coordinate by expr and renumbers digits by shift.
std::vector<Term> substitute(const std::vector<Term>& terms, const std::vector<Term>& expr,
                             int shift);
Side substitute(Side s, const std::vector<Term>& expr, int shift);
// Lines packed one after another in digit order from element base: the
// scratch layout. Digits are numbered from first.
// unit >= 0: that digit goes fastest, before the line (a strided line's
// unit-stride neighbour, so that both passes of its chain read and write
// runs of adjacent lines).
Side packed(int64_t base, int64_t n, const std::vector<int64_t>& digits, std::vector<Term> line,
            int first = 0, int unit = -1);
int64_t product(const std::vector<int64_t>& v);

// One problem and direction being planned into `out`.
struct Planner {
  const fftmux_desc& d;
  int dir;  // the direction planned
  int sign; // of its DFTs: R2R's run forward in both directions
  Device dev;
  const Profile& prof; // dev.api's
  Options opt;
  Precision prec;
  Storage storage; // of the caller's buffers
  Plan& out;
  Tables tables;
  std::ostringstream summary;

  // Scratch regions live until the axis that took them is done.
  int64_t reserved = 0;

  // The pass being planned over padded sides (pass_extents): the extent of each axis its lines
  // run over, and the elements its load and store hold along its axis (Side::held).
  int64_t lines[FFTMUX_MAX_RANK] = {1, 1, 1};
  int64_t held_load = std::numeric_limits<int64_t>::max();
  int64_t held_store = std::numeric_limits<int64_t>::max();

  // The largest last butterfly whose outputs take Step::rows at any length.
  static constexpr int max_row_radix = 8;
  // Rounds an exchange through shared memory may take (Kernel::chunks).
  // (docs/codegen-rules.md: Chunked exchanges)
  static constexpr uint32_t max_chunks = 4;

  enum Pref { none, major, minor };

  struct Where {
    Binding b;
    geometry::Shape s;
  };

  // The problem, one axis after another (planner.cpp).
  Planner(const fftmux_desc& desc, int direction, const Device& device, const Options& o, Plan& p);
  void run();
  Side user_side(const geometry::Shape& s, Binding b, int a, int64_t length, bool shifted) const;
  std::vector<int64_t> line_digits(const geometry::Shape& s, int a) const;
  void pass_extents(const std::vector<int>& order, size_t i);
  void any_line(const Line& l, double scale);

  // What the device and options allow a kernel (limits.cpp).
  uint32_t scalar() const;
  int64_t shared_scalars() const;
  int64_t single_limit(int64_t registers = 1) const;
  uint32_t default_values() const;
  int64_t chunked_reach() const;
  int64_t chain_limit() const;
  int64_t sector_threads() const;
  bool spread(int64_t n) const;
  bool fills_sector(int64_t run) const;

  // Butterfly stages and table multiplications (steps.cpp).
  uint32_t radix_cap(int64_t n, uint32_t max_radix) const;
  std::vector<int> radices(int64_t n, bool composites = true, uint32_t max_radix = 32) const;
  std::vector<Step> stages(int64_t n, int s, bool composites = true, uint32_t max_radix = 32);
  static Step multiply(Table t, Index i, int64_t limit = std::numeric_limits<int64_t>::max());
  Step twiddles(int64_t n, int64_t extent, const std::vector<Step>& st, int s);
  static Index position_index();
  static Index product_index();
  static void append(std::vector<Step>& to, const std::vector<Step>& from);

  // Lines of smooth length: one kernel, or a four-step chain (lines.cpp).
  int64_t take(int64_t elements);
  void add(Kernel k, Binding src, Binding dst, int64_t values = 0);
  Kernel shaped(Kernel k, Binding src, Binding dst, int64_t values = 0);
  void push(Kernel k);
  void line(const Line& l, double scale, std::vector<Step> post = {}, int64_t reuse = -1);
  bool one_kernel(const Line& l, bool post) const;
  uint32_t real_radix(const Line& l, bool post) const;
  bool wide_line(const Line& l, bool post) const;
  bool wide_length(int64_t n) const;
  int unit_digit(const Side& s, const std::vector<int64_t>& digits) const;

  // The factors and shapes of four-step chains (chains.cpp).
  int64_t column_length(int64_t n, bool top, bool post = false);
  static int64_t longer_root(int64_t n);
  bool long_f64_columns() const;
  bool lone_column(int64_t c) const;
  bool rows_of_1024(int64_t n) const;
  bool short_first(int64_t n) const;
  bool ends_small(int64_t n) const;
  bool splits(int64_t n, int levels, int64_t lim = 0) const;
  int64_t value_lines(int64_t n) const;
  int64_t column_values(int64_t n1) const;
  bool bound_columns(int64_t n1) const;

  // CUDA thread-block clusters: a line across a cluster's groups (clusters.cpp).
  int64_t cluster_rows(const Line& l, const std::vector<Step>& post) const;
  int64_t sector_clusters(const Line& l, const std::vector<Step>& post) const;
  void clustered(const Line& l, int64_t c, int64_t g, double scale, const std::vector<Step>& post);

  // Bluestein: x * chirp, convolved with the conjugate chirp, * chirp (bluestein.cpp).
  std::pair<int64_t, int64_t> bluestein_shape(int64_t n) const;
  void bluestein(const Line& l, double scale, bool r2c_post = false);
  void split_convolution(const Line& l, int64_t m, const Table& ct, double scale, bool r2c_post);
  Kernel chirped_load(const Line& l, int64_t m, const Table& ct) const;
  void chirped_store(Kernel& k, int64_t n, const Table& ct, bool r2c_post);

  // Real transforms along the last axis (real.cpp).
  void real_line(int a, int64_t n, const Where& src, const Where& dst, double scale, bool shift_in,
                 bool shift_out);
  Step r2c_step(int64_t half, bool chained = false);
  bool real_chain(int64_t h) const;
  bool real_rows(int64_t h);
  bool real_columns(int64_t h);
  void mirror_pass(const Side& from, const Side& to, const std::vector<int64_t>& digits, int64_t h,
                   double scale, Access access, bool pairs = true, const Table& post = {});
  void r2c_halves(Line l, Side rs, const Side& cs, int64_t h, double scale);
  void c2r_halves(Line l, Side cs, Side rs, int64_t h, double scale);
  static void mirror_lines(Kernel& k, int64_t n);
  static void post_partners(Kernel& k);
  static Partners partners(const Kernel& k, bool shuffles);
  static bool natural(const Kernel& k, const Step& last);
  static bool shuffled(const Kernel& k, bool shuffles);
  static bool mirrored(const Kernel& k, const Step& last);
  int64_t mirror_teams() const;
  int64_t mirror_values(int64_t n) const;

  // Real-to-real transforms (r2r.cpp).
  void r2r_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst, double scale);
  void folded_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst,
                   double scale);
  void makhoul_line(int a, int64_t n, uint32_t kind, const Where& src, const Where& dst,
                    double scale);
  void even_line(int a, int64_t n, const Where& src, const Where& dst, double scale);
  void r2r_c2r(const Line& l, const Side& cs, const Side& rs, int64_t h, double scale);
  static bool weighed(const Line& l);
  static void weigh_load(Kernel& k, const Table& pre);
  static void weigh_store(Kernel& k, const Table& post);

  // A product fused into the store of the output (product.cpp).
  std::string product_gap() const;
  void fuse_product();

  // Threads a line (threads.cpp).
  uint32_t pick_threads(const Kernel& k, int64_t E) const;
  uint32_t threads_for(const Kernel& k, int64_t E) const;
  static bool multiplies(const Kernel& k);
  static bool by_position(const Kernel& k);
  bool alone(const Kernel& k) const;
  bool shares_with_one_or_two(const Kernel& k) const;
  uint32_t fewest_idle(const Kernel& k, int64_t registers) const;

  // A kernel's shape: threads, lines a workgroup, thread mapping (shape.cpp).
  Kernel shape(const Kernel& k, int64_t values);
  Kernel shape_at(Kernel k, int64_t E);
  static Mapping mapping(bool alt, bool flat);
  static Pref preference(const Side& s);
  static bool contiguous(const Side& s, const Kernel& k, int64_t L);
  static void unit_digit_first(Kernel& k);
  static bool interleaved_split(const Kernel& k);
  int64_t resident(const Kernel& k) const;
  void lean(Kernel& k, bool coalesce) const;
  static void chunk_exchange(Kernel& k, uint32_t c);
  bool pairs_sm(const Kernel& k) const;
  bool fills_sm(const Kernel& k) const;
  void stream(Kernel& k) const;
};

} // namespace fftmux::codegen::planning
