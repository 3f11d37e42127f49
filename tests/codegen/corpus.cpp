// codegen_corpus: what the generator makes for a broad set of problems, one
// line a problem and device, with a hash for each variant of everything a backend
// hands the GPU: each chunk's batches, buffer sizes, every kernel's source,
// name, launch (workgroups, workgroup size, shared memory, cluster, stream)
// and bindings, each plan's table and summary. The generator is rewritten
// under the committed corpus (corpus.txt): a refactoring keeps every line.
//
//   codegen_corpus check corpus.txt    # exit 1 and the first differences if any line differs
//   codegen_corpus write corpus.txt    # the corpus of the code as it is
#include <fftmux/codegen.hpp>
#include <fftmux/desc_geometry.hpp>
#include <fftmux/gpu/generation.hpp>
#include <fftmux/gpu/variants.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace fftmux::codegen;
namespace geometry = fftmux::geometry;

// A device as its backend describes it to the generator: the limits its
// API reports, then dialect_limits and device_defaults as the plugin
// applies them.
struct Profile {
  const char* name;
  Dialect dialect;
  bool cpu;
  uint32_t shared_bytes, subgroup;
  uint64_t binding_bytes, offset_align;
  int cuda_major; // CUDA: the compute capability's major version; else 0
};

const Profile profiles[] = {
    {"vulkan-lavapipe", Dialect::vulkan, true, 32768, 8, uint64_t(1) << 27, 16, 0},
    {"vulkan-nvidia", Dialect::vulkan, false, 49152, 32, 0xffffffffu, 16, 0},
    {"vulkan-pointers-nvidia", Dialect::vulkan_pointers, false, 49152, 32, 0xffffffffu, 16, 0},
    {"opengl-llvmpipe", Dialect::opengl, true, 32768, 32, uint64_t(1) << 27, 4, 0},
    {"opengl-nvidia", Dialect::opengl, false, 49152, 32, uint64_t(1) << 31, 16, 0},
    {"cuda-sm90", Dialect::cuda, false, 232448, 32, 0, 0, 9},
    {"cuda-sm80", Dialect::cuda, false, 166912, 32, 0, 0, 8},
};

Device limits(const Profile& p) {
  Device d;
  d.shared_bytes = p.shared_bytes;
  d.max_threads = 1024;
  d.subgroup = p.subgroup;
  d.max_binding_bytes = p.binding_bytes;
  if (p.dialect == Dialect::cuda) { // as plugins/cuda/native_plan.cpp's native_limits
    d.cluster = p.cuda_major >= 9 ? 8 : 0;
    d.bulk_copy = p.cuda_major >= 9;
    d.max_binding_bytes = (uint64_t(1) << 32) * 8;
  }
  return dialect_limits(d, p.dialect);
}

struct Shape {
  std::vector<int64_t> n;
  bool every_variant; // else the default variant and a few
};

// Sizes from 1 to 2^20: powers of two, smooth, odd composites, primes
// (Rader's and Bluestein's), the long lines of four-step chains; ranks 2, 3.
std::vector<Shape> shapes() {
  std::vector<Shape> s;
  for (int64_t n :
       {1,    2,     3,     4,     5,     7,     8,     12,    16,     17,     27,     31,
        32,   49,    64,    97,    100,   125,   128,   243,   256,    343,    500,    512,
        625,  1000,  1009,  1024,  2048,  2187,  2401,  3125,  4093,   4096,   4097,   6000,
        8192, 10007, 12800, 16384, 32768, 32771, 65536, 65537, 100000, 131072, 262144, 1048576})
    s.push_back({{n}, true});
  for (std::vector<int64_t> n : {std::vector<int64_t>{8, 8},
                                 {17, 31},
                                 {64, 64},
                                 {300, 300},
                                 {1024, 1024},
                                 {2, 4096},
                                 {4096, 4096},
                                 {8, 8, 8},
                                 {7, 9, 11},
                                 {32, 32, 32},
                                 {45, 45, 45},
                                 {256, 256, 256}})
    s.push_back({n, false});
  return s;
}

// Real-to-real shapes: small, odd and prime, fused, chained and Bluestein's lines, ranks 2.
std::vector<Shape> r2r_shapes() {
  std::vector<Shape> s;
  for (std::vector<int64_t> n : {std::vector<int64_t>{2},
                                 {3},
                                 {17},
                                 {100},
                                 {1000},
                                 {1009},
                                 {4096},
                                 {65536},
                                 {17, 31},
                                 {64, 64}})
    s.push_back({n, false});
  return s;
}

// The batch that fills 2^20 points with transforms of the shape.
int64_t filled(const Shape& s) {
  int64_t points = 1;
  for (int64_t n : s.n)
    points *= n;
  return std::max<int64_t>(1, (int64_t(1) << 20) / points);
}

std::string shape_text(const Shape& s) {
  std::string shape;
  for (int64_t n : s.n)
    shape += (shape.empty() ? "" : "x") + std::to_string(n);
  return shape;
}

// How a problem's sides lie: the default packed layout, in place, numpy's
// shifts, or the batch interleaved (distance 1).
enum Layout { packed, in_place, shifted, interleaved };
const char* const layout_names[] = {"packed", "in-place", "shifted", "interleaved"};

bool describe(const Shape& s, int kind, int precision, int64_t batch, Layout layout, fftmux_desc& d,
              uint32_t r2r = FFTMUX_R2R_NONE) {
  fftmux_desc_init(&d);
  d.rank = uint32_t(s.n.size());
  for (size_t i = 0; i < s.n.size(); ++i) {
    d.n[i] = s.n[i];
    d.r2r[i] = r2r;
  }
  d.kind = uint32_t(kind);
  d.precision = uint32_t(precision);
  d.batch = batch;
  if (layout == in_place)
    d.flags |= FFTMUX_IN_PLACE;
  if (layout == shifted)
    d.flags |= FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT;
  if (layout == interleaved) { // rank 1: element k of batch b at k * batch + b
    if (d.rank != 1 || batch == 1)
      return false;
    d.in_strides[0] = d.out_strides[0] = batch;
    d.in_distance = d.out_distance = 1;
  }
  fftmux_layout l;
  l.struct_size = sizeof l;
  if (fftmux_desc_layout(&d, &l) != FFTMUX_OK)
    return false;
  if (layout != interleaved) {
    std::memcpy(d.in_strides, l.in_strides, sizeof d.in_strides);
    std::memcpy(d.out_strides, l.out_strides, sizeof d.out_strides);
    d.in_distance = l.in_distance;
    d.out_distance = l.out_distance;
  }
  return true;
}

void put(std::string& h, const std::string& text) {
  h += text;
  h += '\n';
}

// A hash of a plan's table in the kernels' precision, computed once for
// the same runs: the values cost more than planning (a Bluestein kernel is
// an FFT), and most variants of a problem read the same table.
std::string table_hash(const Plan& plan, Precision precision) {
  static std::map<std::string, std::string> known;
  std::ostringstream key;
  key << int(precision) << ' ' << plan.table_size;
  for (const TableRun& r : plan.table)
    key << ' ' << int(r.kind) << ',' << r.n << ',' << r.b << ',' << r.sign << ',' << std::hexfloat
        << r.scale << std::defaultfloat << ',' << r.at << ',' << r.count;
  auto [it, fresh] = known.emplace(key.str(), "");
  if (fresh) {
    std::vector<unsigned char> t = table_bytes(plan, precision);
    it->second = hash_hex(std::string(t.begin(), t.end()));
  }
  return it->second;
}

// Everything of the chunks a backend hands the GPU, as one text.
std::string image(const std::vector<Chunk>& chunks) {
  std::string h;
  for (const Chunk& c : chunks) {
    const Generated& g = *c.generated;
    const Planned& p = g.planned;
    std::ostringstream head;
    head << "chunk " << c.first << ' ' << c.count << " bytes " << p.in_bytes << ' ' << p.out_bytes
         << ' ' << p.scratch_bytes << " passes " << p.passes;
    put(h, head.str());
    for (size_t i = 0; i < p.plans.size(); ++i) {
      const Plan& plan = p.plans[i];
      std::ostringstream s;
      s << "direction " << p.directions[i] << " scratch " << plan.scratch_elements << " table "
        << plan.table_size << ' ' << plan.summary;
      put(h, s.str());
      for (const Pass& pass : plan.passes) {
        const Kernel& k = pass.kernel;
        std::ostringstream l;
        l << k.name << " groups " << k.groups() << " workgroup " << k.workgroup() << " shared "
          << k.shared_scalars() << " cluster " << k.cluster << " stream "
          << (k.exchange == Exchange::streamed) << " bindings " << int(pass.src) << ' '
          << int(pass.dst);
        put(h, l.str());
      }
      put(h, table_hash(plan, g.precision));
    }
    for (const std::string& src : g.sources())
      put(h, src);
  }
  return h;
}

std::string generated(const fftmux_desc& d, const Profile& p, const Options& o) {
  try {
    if (p.dialect == Dialect::cuda) {
      uint64_t bytes = (uint64_t(1) << 32) * complex_bytes(d); // native_generated's limit
      return hash_hex(image({Chunk{0, d.batch, generate(d, limits(p), o, bytes, p.dialect)}}));
    }
    Device dev = limits(p);
    return hash_hex(
        image(generate_chunks(d, dev, o, dev.max_binding_bytes, p.dialect, p.offset_align)));
  } catch (const Unsupported&) {
    return "declined";
  }
}

// The variants a shape of rank 2 and 3 takes: the default and those that
// change how axes chain and exchange.
bool few(const char* variant) {
  for (const char* v : {"default", "two-pass", "wide-strides", "sector-columns"})
    if (!std::strcmp(v, variant))
      return true;
  return false;
}

// The first line where each variant's code differs from the default's, by
// API: what the variants' table must advertise (Variant::apis).
std::map<std::pair<std::string, Api>, std::string> changes;

// The default variant's hash, then each other variant whose code differs
// from the default's, as name=hash.
std::string line(const fftmux_desc& d, const Profile& p, bool every, bool variants_too,
                 const std::string& problem) {
  std::string first, out;
  for (const Variant& v : variants()) {
    bool preferred = !std::strcmp(v.name, "default");
    if (!preferred && (!variants_too || (!every && !few(v.name))))
      continue;
    std::string h = generated(d, p, device_defaults(v.options, p.cpu));
    if (preferred)
      out = first = h;
    else if (h != first) {
      out += std::string(" ") + v.name + '=' + h;
      changes.emplace(std::pair{std::string(v.name), api_of(p.dialect)}, p.name + (' ' + problem));
    }
  }
  return out;
}

std::vector<std::string> corpus() {
  std::vector<std::string> lines{"generator_version " + std::to_string(generator_version)};
  const char* const kinds[] = {"c2c", "r2c", "c2r"};
  for (const Shape& s : shapes())
    for (int kind : {FFTMUX_C2C, FFTMUX_R2C, FFTMUX_C2R})
      for (int precision : {FFTMUX_F32, FFTMUX_F64}) {
        int64_t fill = filled(s);
        for (int64_t batch : {int64_t(1), fill})
          for (Layout layout : {packed, in_place, shifted, interleaved}) {
            if (batch == 1 && fill > 1 && layout != packed)
              continue; // one transform: packed only
            fftmux_desc d;
            if (!describe(s, kind, precision, batch, layout, d))
              continue;
            std::string problem = std::string(kinds[kind]) +
                                  (precision == FFTMUX_F64 ? " f64 " : " f32 ") + shape_text(s) +
                                  " x" + std::to_string(batch) + ' ' + layout_names[layout];
            for (const Profile& p : profiles)
              lines.push_back(std::string(p.name) + ' ' + problem + ": " +
                              line(d, p, s.every_variant, layout == packed && batch > 1, problem));
            if (batch == fill)
              break;
          }
      }
  // Real-to-real axes: each kind (both directions), batched and packed, the default variant.
  for (const Shape& s : r2r_shapes())
    for (uint32_t kind = FFTMUX_DCT1; kind <= FFTMUX_DST4; ++kind)
      for (int precision : {FFTMUX_F32, FFTMUX_F64}) {
        fftmux_desc d;
        if (!describe(s, FFTMUX_R2R, precision, filled(s), packed, d, kind))
          continue;
        std::string problem = geometry::kind_text(d) +
                              (precision == FFTMUX_F64 ? " f64 " : " f32 ") + shape_text(s) + " x" +
                              std::to_string(d.batch);
        for (const Profile& p : profiles)
          lines.push_back(std::string(p.name) + ' ' + problem + ": " +
                          line(d, p, false, false, problem));
      }
  return lines;
}

// Each variant changes kernels of exactly the APIs that offer it: the
// number of mismatches, each printed.
size_t check_offers() {
  size_t wrong = 0;
  for (const Variant& v : variants())
    for (Api api : {Api::vulkan, Api::opengl, Api::cuda}) {
      if (!std::strcmp(v.name, "default"))
        continue;
      auto it = changes.find({v.name, api});
      bool offered = v.apis & api_bit(api);
      if (offered == (it != changes.end()))
        continue;
      ++wrong;
      if (offered)
        std::printf("variant %s is offered for %s but changes none of its kernels\n", v.name,
                    api_name(api));
      else
        std::printf("variant %s changes %s kernels (%s) but is not offered there\n", v.name,
                    api_name(api), it->second.c_str());
    }
  return wrong;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "check") && std::strcmp(argv[1], "write"))) {
    std::fprintf(stderr, "usage: codegen_corpus check|write FILE\n");
    return 2;
  }
  std::vector<std::string> lines = corpus();
  if (!std::strcmp(argv[1], "write")) {
    std::ofstream f(argv[2]);
    for (const std::string& l : lines)
      f << l << '\n';
    std::printf("%zu lines written to %s\n", lines.size(), argv[2]);
    return f ? 0 : 1;
  }
  std::ifstream f(argv[2]);
  if (!f) {
    std::fprintf(stderr, "codegen_corpus: cannot read %s\n", argv[2]);
    return 1;
  }
  std::vector<std::string> expected;
  for (std::string l; std::getline(f, l);)
    expected.push_back(l);
  size_t differ = 0;
  for (size_t i = 0; i < std::max(lines.size(), expected.size()); ++i) {
    std::string now = i < lines.size() ? lines[i] : "(none)";
    std::string was = i < expected.size() ? expected[i] : "(none)";
    if (now != was && ++differ <= 20)
      std::printf("line %zu: expected %s\n         generated %s\n", i + 1, was.c_str(),
                  now.c_str());
  }
  std::printf("%zu lines, %zu differ from %s\n", lines.size(), differ, argv[2]);
  size_t wrong = check_offers();
  std::printf("%zu variant offers disagree with the kernels\n", wrong);
  return differ || wrong ? 1 : 0;
}
