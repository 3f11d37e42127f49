// The problem: its axes, one after another, each a batch of lines (Line) that lines.cpp,
// bluestein.cpp or real.cpp plan; and plan() itself.
#include "plan/planner.hpp"

#include <algorithm>

namespace fftmux::codegen::planning {

// Takes the problem; options left 0 take their defaults: 256 threads a group, 16 F32 or 8 F64
// values a thread, 8 lines a coalesced group.
Planner::Planner(const fftmux_desc& desc, int direction, const Device& device, const Options& o,
                 Plan& p)
    : d(desc), dir(direction), sign(desc.kind == FFTMUX_R2R ? FFTMUX_FORWARD : direction),
      dev(device), prof(profile(device.api)), opt(o),
      prec(desc.precision == FFTMUX_F64 ? Precision::f64 : Precision::f32),
      storage(storage_of(desc.precision)), out(p), tables(p) {
  if (!opt.group_threads)
    opt.group_threads = 256;
  if (!opt.values_per_thread)
    opt.values_per_thread = default_values();
  if (!opt.coalesce_teams)
    opt.coalesce_teams = 8;
}

// The values a thread holds when the options leave it open: 8 in F64, 16 in F32.
uint32_t Planner::default_values() const {
  return prec == Precision::f64 ? 8 : 16;
}

// Plans the axes one after another (C2R's real axis last), each pass between the buffers its place
// in the order gives it, and writes the summary.
void Planner::run() {
  // The sides' whole extents; a padded one's lines and elements come from pass_extents.
  geometry::Shape in = geometry::shape(d, true, true), outs = geometry::shape(d, false, true);
  bool shift_in = d.flags & FFTMUX_SHIFT_INPUT, shift_out = d.flags & FFTMUX_SHIFT_OUTPUT;
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  const int last = FFTMUX_MAX_RANK - 1, first = FFTMUX_MAX_RANK - int(d.rank);
  std::vector<int> order; // axes in the order transformed
  for (int a = last; a >= first; --a)
    order.push_back(a);
  if (d.kind == FFTMUX_C2R) // the real axis last
    std::rotate(order.begin(), order.begin() + 1, order.end());
  // C2R with more axes out of place keeps its input intact: the complex
  // axes run from the input into a packed copy in scratch. A cut output
  // cannot hold the axes between passes: they run through a whole packed
  // copy of the output side in scratch.
  bool c2r = d.kind == FFTMUX_C2R;
  bool staged = d.rank > 1 && (c2r ? !in_place : geometry::padded(d, false));
  Where stage{Binding::scratch, geometry::packed(c2r ? in : outs)};
  if (staged)
    take(stage.s.distance * d.batch);
  const int64_t staging = reserved; // held by the staged copy through every axis
  summary << geometry::kind_text(d);
  for (size_t i = 0; i < order.size(); ++i) {
    int a = order[i];
    bool first_pass = i == 0, last_pass = i + 1 == order.size();
    Where src{Binding::input, in}, dst{Binding::output, outs};
    Where mid = staged ? stage : c2r ? Where{Binding::input, in} : dst; // between passes
    if (!first_pass)
      src = mid;
    if (!last_pass)
      dst = mid;
    reserved = staging;
    pass_extents(order, i);
    int64_t n = d.n[a - first];
    double s = last_pass ? geometry::scale(d, dir) : 1.0;
    size_t before = out.passes.size();
    if (d.kind == FFTMUX_R2R) {
      uint32_t kind = geometry::r2r_kind(d, uint32_t(a - first), dir);
      r2r_line(a, n, kind, src, dst, s);
      n = geometry::logical_size(kind, n); // the DFT's length, for the summary
    } else if (d.kind != FFTMUX_C2C && a == last) {
      real_line(a, n, src, dst, s, shift_in, shift_out);
    } else {
      Line l;
      l.n = n;
      l.load = user_side(src.s, src.b, a, n, shift_in);
      l.store = user_side(dst.s, dst.b, a, n, shift_out);
      l.load.held = held_load;
      l.store.held = held_store;
      l.digits = line_digits(src.s, a);
      any_line(l, s);
    }
    summary << (i ? "; " : " ") << "axis " << (a - first) << " n=" << n << " "
            << (smooth(n) || (geometry::halved_kind(d) && a == last && n % 2 == 0 && smooth(n / 2))
                    ? "stockham"
                    : "bluestein")
            << " " << (out.passes.size() - before) << "p";
  }
  if (opt.product && (dir == FFTMUX_FORWARD || d.kind != FFTMUX_C2C)) // C2C's inverse: none
    fuse_product();
}

// One side of a pass along axis a (0..2, right-aligned) as a Line side:
// the other axes and the batch become digits, fastest first.
Side Planner::user_side(const geometry::Shape& s, Binding b, int a, int64_t length,
                        bool shifted) const {
  Side side;
  side.buffer = b;
  side.access = s.complex ? Access::complex : Access::real;
  Axis main = axis({{kElement, 1}}, s.stride[a]);
  main.extent = length;
  main.shift = shifted ? length / 2 : 0;
  side.axes.push_back(main);
  int digit = 0;
  for (int x = FFTMUX_MAX_RANK - 1; x >= 0; --x)
    if (x != a && s.extent[x] > 1)
      side.axes.push_back(axis({{digit++, 1}}, s.stride[x]));
  if (d.batch > 1)
    side.axes.push_back(axis({{digit++, 1}}, s.distance));
  return side;
}

// The digits of a line along axis a: the other axes' extents in this pass (lines) and the batch,
// fastest first, as user_side numbers them.
std::vector<int64_t> Planner::line_digits(const geometry::Shape& s, int a) const {
  std::vector<int64_t> g;
  for (int x = FFTMUX_MAX_RANK - 1; x >= 0; --x)
    if (x != a && s.extent[x] > 1)
      g.push_back(lines[x]);
  if (d.batch > 1)
    g.push_back(d.batch);
  return g;
}

// Padded sides, for pass i of order: lines run over the output's held extents on the axes
// transformed before it and the input's on the others (the rest are zero or not wanted), and
// its axis' load and store hold the input's and output's elements (Side::held).
void Planner::pass_extents(const std::vector<int>& order, size_t i) {
  const int first = FFTMUX_MAX_RANK - int(d.rank);
  auto held = [&](bool input, int x) {
    uint32_t axis = uint32_t(x - first);
    int64_t e = geometry::held_extent(d, input, axis);
    return e == geometry::side_extent(d, input, axis) ? std::numeric_limits<int64_t>::max() : e;
  };
  for (int x = first; x < FFTMUX_MAX_RANK; ++x) {
    bool done = std::find(order.begin(), order.begin() + long(i), x) != order.begin() + long(i);
    lines[x] = geometry::held_extent(d, !done, uint32_t(x - first));
  }
  held_load = held(true, order[i]);
  held_store = held(false, order[i]);
}

// Line l by Stockham stages where no prime factor of its length exceeds 13, else by Bluestein's
// convolution.
void Planner::any_line(const Line& l, double scale) {
  if (smooth(l.n))
    line(l, scale);
  else
    bluestein(l, scale);
}

} // namespace fftmux::codegen::planning

namespace fftmux::codegen {

using planning::Planner;

Storage storage_of(uint32_t precision) {
  return precision == FFTMUX_F16    ? Storage::f16
         : precision == FFTMUX_BF16 ? Storage::bf16
                                    : Storage::arithmetic;
}

uint64_t side_bytes(const fftmux_desc& desc, bool input) {
  return geometry::side_bytes(desc, input);
}

Plan plan(const fftmux_desc& desc, int direction, const Device& device, const Options& options) {
  if (desc.precision == FFTMUX_F64 && !device.f64)
    throw Unsupported("the device has no double precision (shaderFloat64)");
  if ((desc.kind == FFTMUX_R2C && direction != FFTMUX_FORWARD) ||
      (desc.kind == FFTMUX_C2R && direction != FFTMUX_INVERSE))
    throw Unsupported("r2c runs forward only, c2r inverse only");
  Plan p;
  Planner planner(desc, direction, device, options, p);
  planner.run();
  p.summary = planner.summary.str();
  return p;
}

} // namespace fftmux::codegen
