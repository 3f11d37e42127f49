#include "problem.hpp"

#include "api_util.hpp"
#include "error.hpp"

#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <vector>

namespace fftmux {

namespace {

const char* const precision_names[] = {"f32", "f64", "f16", "bf16"};
const char* const norm_names[] = {"none", "backward", "ortho", "forward"};
const char* const placement_names[] = {"host", "device"};

constexpr size_t v1_size = offsetof(fftmux_desc, out_distance) + sizeof(int64_t);

std::string field(const char* name, int index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

// a * b, or an error when it leaves int64.
int64_t checked_mul(int64_t a, int64_t b, const std::string& what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    invalid(what + " overflows 64 bits");
  return r;
}

void check_enum(uint32_t value, uint32_t count, const char* name) {
  if (value >= count)
    invalid(std::string(name) + " = " + std::to_string(value) + ": not a known value (0.." +
            std::to_string(count - 1) + ")");
}

// The per-axis kinds: set on every axis of an R2R problem (DCT-I on at
// least 2 points), NONE on the other kinds'. Axes past rank are ignored.
void check_r2r(const fftmux_desc& d) {
  for (uint32_t i = 0; i < d.rank; ++i) {
    std::string name = field("r2r", int(i)), at = name + " = " + std::to_string(d.r2r[i]);
    if (d.kind != FFTMUX_R2R && d.r2r[i] != FFTMUX_R2R_NONE)
      invalid(at + ": a DCT or DST kind needs kind = FFTMUX_R2R (3), the kind is " +
              geometry::kind_text(d) + "; leave r2r NONE (0)");
    if (d.kind != FFTMUX_R2R)
      continue;
    if (d.r2r[i] == FFTMUX_R2R_NONE)
      invalid(at + " (NONE): an R2R descriptor needs a DCT or DST kind (1..8) on each of its " +
              std::to_string(d.rank) + " axes");
    check_enum(d.r2r[i], FFTMUX_DST4 + 1, name.c_str());
    if (d.r2r[i] == FFTMUX_DCT1 && d.n[i] < 2)
      invalid(at + " (DCT-I) on " + field("n", int(i)) + " = " + std::to_string(d.n[i]) +
              ": DCT-I needs at least 2 points (its logical size 2(n-1) would be 0)");
  }
  if (d.kind == FFTMUX_R2R && (d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT)))
    invalid("flags = " + std::to_string(d.flags) +
            ": SHIFT_INPUT and SHIFT_OUTPUT shift spectra of the DFT kinds (C2C, R2C, C2R), "
            "not R2R");
}

// The padded extents: none negative, each within its side's whole axis,
// resolved to 0 where they hold it all (axes past rank too). Padding is
// defined for the DFT kinds out of place without shifts: an in-place side
// would be two arrays of different shapes, and a shift would move the
// zeros into the middle of the transformed data.
void check_extents(fftmux_desc& d) {
  for (bool input : {true, false}) {
    int64_t* e = input ? d.in_extent : d.out_extent;
    const char* name = input ? "in_extent" : "out_extent";
    for (uint32_t i = 0; i < FFTMUX_MAX_RANK; ++i) {
      int64_t whole = i < d.rank ? geometry::side_extent(d, input, i) : 0;
      std::string at = field(name, int(i)) + " = " + std::to_string(e[i]);
      if (i < d.rank && e[i] < 0)
        invalid(at + ": extents must be positive (0 selects the whole axis)");
      if (i < d.rank && e[i] > whole)
        invalid(at + " exceeds " +
                (whole == d.n[i] ? field("n", int(i)) + " = " + std::to_string(whole)
                                 : "n[" + std::to_string(i) + "]/2+1 = " + std::to_string(whole) +
                                       ", the complex elements of the halved axis"));
      if (i >= d.rank || e[i] == whole)
        e[i] = 0;
    }
  }
  if (!geometry::padded(d))
    return;
  const std::string padding = "in_extent and out_extent (zero padding) ";
  if (d.kind == FFTMUX_R2R)
    invalid(padding + "apply to the DFT kinds (C2C, R2C, C2R), not R2R; pad the data instead");
  if (d.flags & FFTMUX_IN_PLACE)
    invalid(padding + "need an out-of-place plan: the input and output arrays differ in shape; "
                      "clear FFTMUX_IN_PLACE (4)");
  if (d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT))
    invalid(padding + "do not combine with SHIFT_INPUT or SHIFT_OUTPUT (flags = " +
            std::to_string(d.flags) + "): a shift would move the zeros into the data");
}

void check_sizes(const fftmux_desc& d) {
  if (d.rank < 1 || d.rank > FFTMUX_MAX_RANK)
    invalid("rank = " + std::to_string(d.rank) + ": rank must be 1, 2 or 3");
  for (uint32_t i = 0; i < d.rank; ++i)
    if (d.n[i] < 1)
      invalid(field("n", i) + " = " + std::to_string(d.n[i]) +
              ": every dimension must be at least 1");
  if (d.batch < 1)
    invalid("batch = " + std::to_string(d.batch) + ": batch must be at least 1");
  int64_t total = d.batch;
  for (uint32_t i = 0; i < d.rank; ++i)
    total = checked_mul(total, d.n[i], "the element count (batch times every n)");
  // The padded real layout and byte counts need headroom: 16 bytes per element.
  checked_mul(total, 32, "the byte count of the data");
}

void check_strides(const int64_t* strides, int64_t distance, uint32_t rank, const char* side) {
  for (uint32_t i = 0; i < rank; ++i)
    if (strides[i] < 0)
      invalid(field((std::string(side) + "_strides").c_str(), i) + " = " +
              std::to_string(strides[i]) + ": strides must be positive (0 selects the default)");
  if (distance < 0)
    invalid(std::string(side) + "_distance = " + std::to_string(distance) +
            ": distances must be positive (0 selects the default)");
}

// The array one side's buffer holds: its held extents, row-major by default.
Side make_side(const fftmux_desc& d, bool input, bool padded) {
  Side s;
  s.complex = !geometry::real_side(d, input);
  s.element_bytes = plugin::scalar_bytes(d.precision) * (s.complex ? 2u : 1u);
  for (uint32_t i = 0; i < d.rank; ++i)
    s.extent[i] = geometry::held_extent(d, input, i);
  // Row-major defaults; the in-place real side is padded to the complex row.
  int64_t step = 1;
  for (int i = int(d.rank) - 1; i >= 0; --i) {
    s.stride[i] = step;
    int64_t row = s.extent[i];
    if (padded && i == int(d.rank) - 1)
      row = 2 * (d.n[i] / 2 + 1);
    step *= row;
  }
  s.distance = step;
  return s;
}

void apply_given(Side& s, const int64_t* strides, int64_t distance, uint32_t rank) {
  for (uint32_t i = 0; i < rank; ++i)
    if (strides[i])
      s.stride[i] = strides[i];
  if (distance)
    s.distance = distance;
}

// Sufficient condition for distinct output elements to have distinct
// addresses: sorted by stride, each dimension's stride passes the reach of
// the smaller ones (they nest). Returns the first that does not, and why;
// "" where all do. Layouts whose dimensions interleave without sharing an
// address (strides 9 and 6 over 19 and 3 elements) are refused too: proving
// those apart is a search, not a rule.
std::string unnested(const Side& s, uint32_t rank, int64_t batch) {
  struct Dim {
    int64_t stride, extent;
    std::string name;
  };
  std::vector<Dim> dims;
  for (uint32_t i = 0; i < rank; ++i)
    if (s.extent[i] > 1)
      dims.push_back({s.stride[i], s.extent[i], field("out_strides", int(i))});
  if (batch > 1)
    dims.push_back({s.distance, batch, "out_distance"});
  std::stable_sort(dims.begin(), dims.end(),
                   [](const Dim& a, const Dim& b) { return a.stride < b.stride; });
  int64_t reach = 0; // largest offset reached by the smaller dimensions
  std::string smaller;
  for (const Dim& d : dims) {
    if (d.stride <= reach)
      return d.name + " = " + std::to_string(d.stride) + " is within the reach " +
             std::to_string(reach) + " of the smaller dimensions (" + smaller + ")";
    reach += (d.extent - 1) * d.stride;
    smaller += (smaller.empty() ? "" : ", ") + d.name + " = " + std::to_string(d.stride) +
               " over " + std::to_string(d.extent) + " elements";
  }
  return "";
}

uint64_t span_bytes(const Side& s, uint32_t rank, int64_t batch, const char* side) {
  std::string what = std::string("the ") + side + " span";
  int64_t last = checked_mul(batch - 1, s.distance, what);
  for (uint32_t i = 0; i < rank; ++i) {
    int64_t reach = checked_mul(s.extent[i] - 1, s.stride[i], what);
    if (__builtin_add_overflow(last, reach, &last))
      invalid(what + " overflows 64 bits");
  }
  if (__builtin_add_overflow(last, 1, &last)) // elements: the last offset + 1
    invalid(what + " overflows 64 bits");
  return uint64_t(checked_mul(last, int64_t(s.element_bytes), what));
}

// Whether a == factor * b, where the product may leave int64 (a stride of
// 2^62 along an axis of length 1 is valid): then it is no int64's value.
bool scaled_equal(int64_t a, int64_t b, int64_t factor) {
  int64_t product;
  return !__builtin_mul_overflow(b, factor, &product) && a == product;
}

std::string scaled(int64_t b, int64_t factor) {
  int64_t product;
  return __builtin_mul_overflow(b, factor, &product)
             ? std::to_string(factor) + " * " + std::to_string(b)
             : std::to_string(product);
}

// In place, input and output share memory: element for element they must sit
// at the same bytes. For R2C/C2R the complex element k covers reals 2k, 2k+1.
void check_in_place(const Problem& p) {
  const fftmux_desc& d = p.desc;
  const Side& real = d.kind == FFTMUX_C2R ? p.out : p.in;
  const Side& cplx = d.kind == FFTMUX_C2R ? p.in : p.out;
  if (!geometry::halved_kind(d)) { // C2C and R2R: one element type on both sides
    std::string equal = "in-place " + std::string(d.kind == FFTMUX_C2C ? "C2C" : "R2R") +
                        " needs equal layouts, but ";
    for (uint32_t i = 0; i < d.rank; ++i)
      if (p.in.stride[i] != p.out.stride[i])
        invalid(equal + "in_strides = " + list_text(p.in.stride, d.rank) +
                " and out_strides = " + list_text(p.out.stride, d.rank));
    if (d.batch > 1 && p.in.distance != p.out.distance)
      invalid(equal + "in_distance = " + std::to_string(p.in.distance) +
              " and out_distance = " + std::to_string(p.out.distance));
    return;
  }
  const std::string r = d.kind == FFTMUX_C2R ? "out" : "in";
  const std::string c = d.kind == FFTMUX_C2R ? "in" : "out";
  const std::string padded = "in-place " + geometry::kind_text(d) + " needs the real side padded: ";
  uint32_t last = d.rank - 1;
  // Complex element k on reals 2k and 2k + 1: rows contiguous on both sides
  // (with a stride s > 1, real 2k + 1 would sit in another line's bytes).
  if (d.n[last] > 1 && (real.stride[last] != 1 || cplx.stride[last] != 1))
    invalid(padded + field((r + "_strides").c_str(), int(last)) + " must be 1 and " +
            field((c + "_strides").c_str(), int(last)) +
            " 1, each complex element on its own two reals; got " +
            std::to_string(real.stride[last]) + " and " + std::to_string(cplx.stride[last]));
  for (uint32_t i = 0; i < last; ++i)
    if (!scaled_equal(real.stride[i], cplx.stride[i], 2))
      invalid(padded + field((r + "_strides").c_str(), int(i)) + " must be " +
              scaled(cplx.stride[i], 2) + " (twice " + field((c + "_strides").c_str(), int(i)) +
              "), got " + std::to_string(real.stride[i]));
  if (d.batch > 1 && !scaled_equal(real.distance, cplx.distance, 2))
    invalid(padded + r + "_distance must be " + scaled(cplx.distance, 2) + " (twice " + c +
            "_distance), got " + std::to_string(real.distance));
}

// "8x6": the first count values joined by x, as the command line takes them.
std::string dims(const int64_t* v, uint32_t count) {
  std::string s;
  for (uint32_t i = 0; i < count; ++i)
    s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

} // namespace

std::string padding_text(const fftmux_desc& d) {
  std::string s;
  uint32_t rank = std::min<uint32_t>(d.rank, FFTMUX_MAX_RANK);
  for (bool input : {true, false})
    if (geometry::padded(d, input)) {
      int64_t held[FFTMUX_MAX_RANK];
      for (uint32_t i = 0; i < rank; ++i)
        held[i] = geometry::held_extent(d, input, i);
      s += (input ? " in-extent " : " out-extent ") + dims(held, rank);
    }
  return s;
}

std::string list_text(const int64_t* v, uint32_t count) {
  std::string s = "{";
  for (uint32_t i = 0; i < count; ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

fftmux_desc read_desc(const fftmux_desc* desc) {
  require(desc, "desc");
  fftmux_desc d = read_sized(desc, "desc", v1_size, fftmux_desc_init,
                             "initialize the descriptor with fftmux_desc_init");
  d.struct_size = sizeof d;
  return d;
}

Problem validate(const fftmux_desc* desc) {
  Problem p;
  p.desc = read_desc(desc);
  fftmux_desc& d = p.desc;
  check_sizes(d);
  check_enum(d.kind, 4, "kind");
  check_enum(d.precision, 4, "precision");
  check_enum(d.norm, 4, "norm");
  check_enum(d.placement, 2, "placement");
  if (d.flags & ~FFTMUX_FLAGS_ALL)
    invalid("flags = " + std::to_string(d.flags) +
            ": unknown bits set (known: SHIFT_INPUT 1, "
            "SHIFT_OUTPUT 2, IN_PLACE 4)");
  check_r2r(d);
  check_extents(d);
  check_strides(d.in_strides, d.in_distance, d.rank, "in");
  check_strides(d.out_strides, d.out_distance, d.rank, "out");

  bool in_place = d.flags & FFTMUX_IN_PLACE;
  p.in = make_side(d, true, in_place && d.kind == FFTMUX_R2C);
  p.out = make_side(d, false, in_place && d.kind == FFTMUX_C2R);
  apply_given(p.in, d.in_strides, d.in_distance, d.rank);
  apply_given(p.out, d.out_strides, d.out_distance, d.rank);
  for (uint32_t i = 0; i < FFTMUX_MAX_RANK; ++i) {
    d.in_strides[i] = i < d.rank ? p.in.stride[i] : 0;
    d.out_strides[i] = i < d.rank ? p.out.stride[i] : 0;
    if (i < d.rank)
      p.points *= d.n[i];
  }
  d.in_distance = p.in.distance;
  d.out_distance = p.out.distance;
  for (uint32_t i = d.rank; i < FFTMUX_MAX_RANK; ++i) {
    d.n[i] = 1;
    d.r2r[i] = FFTMUX_R2R_NONE;
  }

  p.in.span_bytes = span_bytes(p.in, d.rank, d.batch, "input");
  p.out.span_bytes = span_bytes(p.out, d.rank, d.batch, "output");
  std::string why = unnested(p.out, d.rank, d.batch);
  if (!why.empty())
    invalid(why + ": the output's dimensions must nest, each stride past the reach of the " +
            "smaller ones, so that no two output elements can share memory");
  if (in_place)
    check_in_place(p);
  return p;
}

double scale_factor(const Problem& p, int direction) {
  return plugin::scale(p.desc, direction);
}

std::string describe(const fftmux_desc& d) {
  std::ostringstream s;
  s << geometry::kind_text(d) << ' ' << (d.precision < 4 ? precision_names[d.precision] : "?")
    << ' ';
  uint32_t rank = std::min<uint32_t>(d.rank, FFTMUX_MAX_RANK);
  s << dims(d.n, rank) << " batch " << d.batch << ' '
    << (d.placement < 2 ? placement_names[d.placement] : "?")
    << ((d.flags & FFTMUX_IN_PLACE) ? " in-place" : " out-of-place") << " norm "
    << (d.norm < 4 ? norm_names[d.norm] : "?");
  if (d.flags & FFTMUX_SHIFT_INPUT)
    s << " shift-input";
  if (d.flags & FFTMUX_SHIFT_OUTPUT)
    s << " shift-output";
  s << padding_text(d);
  for (bool input : {true, false}) { // a layout only where it is not the default
    const char* side = input ? " in-" : " out-";
    if (plugin::custom_strides(d, input))
      s << side << "strides " << dims(input ? d.in_strides : d.out_strides, rank);
    if (plugin::custom_distance(d, input))
      s << side << "distance " << (input ? d.in_distance : d.out_distance);
  }
  return s.str();
}

} // namespace fftmux
