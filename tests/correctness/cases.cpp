#include "cases.hpp"

#include <fftmux/desc_geometry.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace fftmux::test {

namespace {

using Shape = std::vector<int64_t>;

const char* const norms[] = {"none", "backward", "ortho", "forward"};
const char* const precisions[] = {"f32", "f64", "f16", "bf16"};

struct Builder {
  std::vector<Case> out;
  bool light = false; // Scale::small: each combination once, rotated over the shapes
  uint32_t turn = 0;  // rotates precisions, directions and shifts in light mode

  // One case; direction follows the kind for R2C (forward) and C2R (inverse).
  Case& add(const Shape& n, uint32_t kind, uint32_t precision, int direction = FFTMUX_FORWARD) {
    Case c{};
    fftmux_desc_init(&c.desc);
    c.desc.rank = uint32_t(n.size());
    for (size_t i = 0; i < n.size(); ++i)
      c.desc.n[i] = n[i];
    c.desc.kind = kind;
    c.desc.precision = precision;
    c.direction = kind == FFTMUX_R2C   ? FFTMUX_FORWARD
                  : kind == FFTMUX_C2R ? FFTMUX_INVERSE
                                       : direction;
    out.push_back(c);
    return out.back();
  }

  // Every kind and both precisions of one shape; C2C both ways. Light: one
  // case per kind, precisions and directions taking turns.
  void sweep(const Shape& n) {
    if (light) {
      uint32_t p = turn++ % 2;
      add(n, FFTMUX_C2C, p, p ? FFTMUX_INVERSE : FFTMUX_FORWARD);
      add(n, FFTMUX_R2C, 1 - p);
      add(n, FFTMUX_C2R, p);
      return;
    }
    for (uint32_t p : {FFTMUX_F32, FFTMUX_F64}) {
      add(n, FFTMUX_C2C, p, FFTMUX_FORWARD);
      add(n, FFTMUX_C2C, p, FFTMUX_INVERSE);
      add(n, FFTMUX_R2C, p);
      add(n, FFTMUX_C2R, p);
    }
  }

  // Layouts: batches, in-place, strided and padded input and output.
  void layouts(const Shape& n, uint32_t kind) {
    add(n, kind, FFTMUX_F32).desc.batch = 3;
    Case& ip = add(n, kind, FFTMUX_F64);
    ip.desc.batch = 2;
    ip.desc.flags |= FFTMUX_IN_PLACE;
    Case& s = add(n, kind, FFTMUX_F32, FFTMUX_INVERSE);
    s.desc.batch = 2;
    s.desc.in_distance = strided(side(n, kind == FFTMUX_C2R), 2, 1, s.desc.in_strides);
    s.desc.out_distance = strided(side(n, kind == FFTMUX_R2C), 3, 2, s.desc.out_strides);
  }

  // The extents of a side: the last one halved on the complex side of R2C/C2R.
  static Shape side(Shape n, bool halved) {
    if (halved)
      n.back() = n.back() / 2 + 1;
    return n;
  }

  // Strides with inner spacing and pad elements after every row and plane;
  // returns the batch distance.
  static int64_t strided(const Shape& extent, int64_t inner, int64_t pad, int64_t* strides) {
    size_t last = extent.size() - 1;
    strides[last] = inner;
    int64_t span = extent[last] * inner;
    for (size_t i = last; i-- > 0;) {
      strides[i] = span + pad;
      span = strides[i] * extent[i];
    }
    return span + pad;
  }

  // Interleaved lines (stride = batch, distance 1), every kind: the line axis
  // strided on both sides, real and Hermitian ones included; 2048 points
  // make lavapipe take the complex ones as a chain.
  void interleaved(const Shape& n) {
    for (uint32_t kind = 0; kind < 3; ++kind) {
      Case& c = add(n, kind, FFTMUX_F32);
      c.desc.batch = 8;
      c.desc.in_strides[0] = c.desc.out_strides[0] = 8;
      c.desc.in_distance = c.desc.out_distance = 1;
    }
  }

  // Lines read interleaved and written as rows at an odd distance: FFTW
  // 3.3.10's single-precision SIMD codelets plan 16 points x8 so (output
  // distance 19) and then crash (tests/sweep found it).
  void odd_rows(const Shape& n) {
    Case& c = add(n, FFTMUX_C2C, FFTMUX_F32);
    c.desc.batch = 8;
    c.desc.in_strides[0] = 8;
    c.desc.in_distance = 1;
    c.desc.out_strides[0] = 1;
    c.desc.out_distance = n[0] + 3;
  }

  // Every norm, every shift combination, both directions. Light: every norm
  // once, the shift combinations taking turns.
  void extras(const Shape& n, uint32_t kind) {
    uint32_t first = turn++;
    for (uint32_t norm = 0; norm < 4; ++norm)
      for (uint32_t shift = 0; shift < 4; ++shift) {
        if (light && shift != (norm + first) % 4)
          continue;
        int dir = (norm + shift) % 2 ? FFTMUX_INVERSE : FFTMUX_FORWARD;
        Case& c = add(n, kind, (norm + shift) % 3 ? FFTMUX_F32 : FFTMUX_F64, dir);
        c.desc.norm = norm;
        c.desc.flags = shift;
      }
  }

  // C2R of arbitrary complex input: even and odd, fused and long lines,
  // Bluestein, several axes, batched and in place.
  void spectra() {
    uint32_t p = 0;
    for (const Shape& n : {Shape{16}, Shape{9}, Shape{34}, Shape{17}, Shape{1000}, Shape{65536},
                           Shape{6, 10}, Shape{4, 6, 8}, Shape{5, 7}}) {
      Case& c = add(n, FFTMUX_C2R, p++ % 2);
      c.any_spectrum = true;
    }
    Case& c = add({64}, FFTMUX_C2R, FFTMUX_F32);
    c.any_spectrum = true;
    c.desc.batch = 3;
    c.desc.flags = FFTMUX_IN_PLACE;
  }

  // Real-to-real: every DCT and DST on odd, even and prime sizes, then
  // kinds mixed over the axes of 2D and 3D shapes; norms, precisions and
  // directions take turns, and batches, in-place and strided layouts.
  void real_to_real() {
    const Shape sizes[] = {{2}, {17}, {64}, {1000}, {1009}, {16, 12}, {9, 7, 5}};
    uint32_t t = 0;
    for (uint32_t kind = FFTMUX_DCT1; kind <= FFTMUX_DST4; ++kind)
      for (const Shape& n : sizes) {
        Case& c = add(n, FFTMUX_R2R, t % 2, t % 3 ? FFTMUX_FORWARD : FFTMUX_INVERSE);
        for (uint32_t i = 0; i < c.desc.rank; ++i) // the next kinds on the other axes
          c.desc.r2r[i] = (kind - 1 + i * 3) % FFTMUX_DST4 + 1;
        c.desc.norm = t++ % 4;
        c.desc.batch = n.size() == 1 && n[0] < 100 ? 3 : 1;
        if (kind % 3 == 0)
          c.desc.flags = FFTMUX_IN_PLACE;
        if (kind % 4 == 1 && !(c.desc.flags & FFTMUX_IN_PLACE)) { // every other element
          c.desc.in_strides[n.size() - 1] = 2;
          for (size_t i = n.size() - 1; i > 0; --i)
            c.desc.in_strides[i - 1] = c.desc.in_strides[i] * n[i] * 2;
        }
      }
  }

  // F16 and BF16 storage: every kind, ranks 1-3, even, odd and prime
  // (Bluestein) lengths, in and out of place. Inputs in [-1, 1) and lengths
  // up to 120 keep every value far below F16's 65504. Odd C2R lengths store
  // single 16-bit reals beside another thread's.
  void storage16() {
    struct Half {
      Shape n;
      uint32_t kind;
      bool in_place;
    };
    const Half all[] = {
        {{16}, FFTMUX_C2C, false},      {{15}, FFTMUX_C2C, true},
        {{17}, FFTMUX_C2C, false},      {{12, 10}, FFTMUX_C2C, false},
        {{6, 5, 4}, FFTMUX_C2C, true},  {{16}, FFTMUX_R2C, false},
        {{15}, FFTMUX_R2C, false},      {{9, 7}, FFTMUX_R2C, false},
        {{6, 5, 4}, FFTMUX_R2C, true},  {{15}, FFTMUX_C2R, false},
        {{34}, FFTMUX_C2R, false},      {{12, 10}, FFTMUX_C2R, true},
        {{3, 4, 7}, FFTMUX_C2R, false},
    };
    for (const Half& h : all) {
      uint32_t p = turn++ % 2 ? FFTMUX_BF16 : FFTMUX_F16;
      Case& c = add(h.n, h.kind, p, p == FFTMUX_F16 ? FFTMUX_FORWARD : FFTMUX_INVERSE);
      c.desc.flags = h.in_place ? FFTMUX_IN_PLACE : 0;
    }
  }

  // Padded sides (in_extent, out_extent): each kind on ranks 1-3, even,
  // odd and prime (Bluestein) lengths, a batch on strided held arrays. C2R
  // inputs are cut on the halved axis only, where the held part of a real
  // signal's spectrum stays one.
  void padding() {
    struct Pad {
      Shape n, in, out;
      uint32_t kind;
    };
    const Pad all[] = {
        {{16}, {5}, {16}, FFTMUX_C2C},
        {{17}, {9}, {6}, FFTMUX_C2C},
        {{1009}, {500}, {300}, FFTMUX_C2C},
        {{15}, {7}, {8}, FFTMUX_R2C},
        {{16}, {16}, {4}, FFTMUX_R2C},
        {{1000}, {300}, {101}, FFTMUX_R2C},
        {{16}, {5}, {16}, FFTMUX_C2R},
        {{15}, {3}, {10}, FFTMUX_C2R},
        {{12, 10}, {5, 10}, {12, 4}, FFTMUX_C2C},
        {{15, 9}, {7, 4}, {3, 9}, FFTMUX_C2C},
        {{64, 64}, {20, 33}, {40, 10}, FFTMUX_C2C},
        {{9, 7}, {4, 5}, {6, 2}, FFTMUX_R2C},
        {{16, 12}, {16, 5}, {3, 7}, FFTMUX_R2C},
        {{12, 10}, {12, 3}, {5, 10}, FFTMUX_C2R},
        {{9, 7}, {9, 2}, {9, 6}, FFTMUX_C2R},
        {{8, 6, 5}, {3, 6, 2}, {8, 2, 5}, FFTMUX_C2C},
        {{9, 7, 5}, {4, 3, 5}, {2, 7, 3}, FFTMUX_R2C},
        {{6, 5, 4}, {6, 5, 2}, {2, 3, 4}, FFTMUX_C2R},
        // Long lines: four-step chains, R2C's and C2R's mirror passes, Bluestein's three passes.
        {{8192}, {1000}, {2000}, FFTMUX_C2C},
        {{10007}, {5000}, {77}, FFTMUX_C2C},
        {{16384}, {5001}, {3001}, FFTMUX_R2C},
        {{16384}, {3001}, {10001}, FFTMUX_C2R},
        {{2048, 8}, {1000, 5}, {7, 8}, FFTMUX_C2C},
    };
    for (const Pad& p : all) {
      uint32_t t = turn++;
      Case& c = add(p.n, p.kind, t % 2, t % 3 ? FFTMUX_FORWARD : FFTMUX_INVERSE);
      c.desc.norm = t % 4;
      std::copy(p.in.begin(), p.in.end(), c.desc.in_extent);
      std::copy(p.out.begin(), p.out.end(), c.desc.out_extent);
    }
    Case& c = add({16}, FFTMUX_C2C, FFTMUX_F32); // held arrays apart and strided
    c.desc.batch = 3;
    c.desc.in_extent[0] = 7;
    c.desc.in_distance = 10;
    c.desc.out_extent[0] = 9;
    c.desc.out_strides[0] = 2;
    c.desc.out_distance = 20;
  }

  void device(const Shape& n) {
    add(n, FFTMUX_C2C, FFTMUX_F32).desc.placement = FFTMUX_DEVICE;
    Case& c = add(n, FFTMUX_R2C, FFTMUX_F64);
    c.desc.placement = FFTMUX_DEVICE;
    c.desc.flags = FFTMUX_IN_PLACE | FFTMUX_SHIFT_OUTPUT;
  }
};

std::string shape_name(const fftmux_desc& d) {
  std::string s;
  for (uint32_t i = 0; i < d.rank; ++i)
    s += (i ? "x" : "") + std::to_string(d.n[i]);
  return s;
}

void name_all(std::vector<Case>& all) {
  for (size_t i = 0; i < all.size(); ++i) {
    const fftmux_desc& d = all[i].desc;
    std::string kind = geometry::kind_text(d);
    std::replace(kind.begin(), kind.end(), ',', '_'); // a valid test name
    std::string n =
        std::to_string(i) + "_" + kind + "_" + precisions[d.precision] + "_" + shape_name(d);
    if (d.batch > 1)
      n += "_b" + std::to_string(d.batch);
    n += all[i].direction == FFTMUX_FORWARD ? "_fwd" : "_inv";
    if (d.flags & FFTMUX_IN_PLACE)
      n += "_inplace";
    if (d.in_strides[d.rank - 1])
      n += "_strided";
    if (d.norm != FFTMUX_NORM_BACKWARD)
      n += std::string("_norm") + norms[d.norm];
    if (d.flags & FFTMUX_SHIFT_INPUT)
      n += "_shiftin";
    if (d.flags & FFTMUX_SHIFT_OUTPUT)
      n += "_shiftout";
    if (d.placement == FFTMUX_DEVICE)
      n += "_device";
    if (all[i].any_spectrum)
      n += "_anyspectrum";
    if (geometry::padded(d, true))
      n += "_padin";
    if (geometry::padded(d, false))
      n += "_padout";
    all[i].name = n;
  }
}

} // namespace

Scale scale_from_env() {
  const char* s = std::getenv("FFTMUX_TEST_SCALE");
  return s && std::strcmp(s, "small") == 0 ? Scale::small : Scale::full;
}

std::vector<Case> cases(Scale scale) {
  Builder b;
  b.light = scale == Scale::small;
  const std::vector<Shape> one_d_small = {{1},   {2},   {3},   {4},    {5},    {7},   {8},
                                          {16},  {17},  {30},  {64},   {97},   {100}, {128},
                                          {243}, {256}, {625}, {1000}, {1009}, {1024}};
  // 8192 F64 and 16384 F32: lines exchanged in chunks on 48 KiB devices;
  // 32768 F32: a cluster of four groups on CUDA from sm_90.
  const std::vector<Shape> one_d_large = {{2048},  {4096},  {8192},  {10007},
                                          {16384}, {32768}, {65536}, {1 << 20}};
  // 2048 x 8 and 4096 x 16: strided lines too long for a sector's worth to
  // share a workgroup (lavapipe; the H200 under Vulkan), taken in two passes.
  const std::vector<Shape> multi = {{8, 8},    {16, 12},  {15, 9},   {64, 64}, {17, 97},
                                    {2048, 8}, {4, 4, 4}, {8, 6, 5}, {9, 7, 5}};
  const std::vector<Shape> multi_large = {
      {256, 256}, {1000, 36}, {4096, 16}, {32, 32, 32}, {64, 64, 64}};
  for (const auto& n : one_d_small)
    b.sweep(n);
  for (const auto& n : multi)
    b.sweep(n);
  if (scale == Scale::small) { // the sizes of the issue that software drivers afford
    b.sweep({4096});
    b.sweep({10007});
    // Long real lines there (beyond 4096 complex points): R2C's post step
    // in the rows of the chain, C2R's pre step in its columns, each line
    // beside its mirror.
    b.add({16384}, FFTMUX_R2C, FFTMUX_F32).desc.batch = 3;
    b.add({2, 32768}, FFTMUX_R2C, FFTMUX_F64).desc.flags = FFTMUX_IN_PLACE;
    b.add({16384}, FFTMUX_C2R, FFTMUX_F64).desc.batch = 2;
  } else {
    for (const auto& n : one_d_large)
      b.sweep(n);
    for (const auto& n : multi_large)
      b.sweep(n);
    b.real_to_real(); // backends without real-to-real kernels skip them, saying why
  }
  for (const Shape& n : {Shape{16}, Shape{15}, Shape{12, 10}, Shape{9, 7}, Shape{6, 5, 4}})
    for (uint32_t kind = 0; kind < 3; ++kind) {
      b.layouts(n, kind);
      b.extras(n, kind);
    }
  for (const Shape& n : {Shape{64}, Shape{33}, Shape{8, 8}, Shape{9, 7, 5}})
    b.device(n);
  b.interleaved({2048});
  b.odd_rows({16});
  b.spectra();
  b.storage16();
  b.padding();
  name_all(b.out);
  return b.out;
}

} // namespace fftmux::test
