// The CUDA dialect run on the CPU: each kernel, rewritten into host C++
// and built by the host compiler, runs a fiber per CUDA thread, with
// barriers for __syncthreads, for a cluster's barrier and for a warp's
// shuffles, and the cluster's distributed shared memory as the blocks'
// arrays. CI has no GPU: this is where the CUDA-only shapes (clusters of
// blocks reading each other's shared memory) are checked against the
// reference before they reach one. Bulk copies (Kernel::stream) complete
// as they are issued.
#include <fftmux/codegen.hpp>
#include <fftmux/desc_geometry.hpp>
#include <fftmux/gpu/variants.hpp>

#include "reference.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <ucontext.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <regex>
#include <sstream>

namespace fftmux::codegen {
namespace {

// What the rewritten kernel calls, declared here and, as text, in the
// kernels' prelude; the test fills it per thread.
#define FFTMUX_EMULATION_HOST                                                                      \
  struct Dim {                                                                                     \
    unsigned x, y, z;                                                                              \
  };                                                                                               \
  struct Host {                                                                                    \
    const Dim* (*thread_idx)();                                                                    \
    const Dim* (*block_idx)();                                                                     \
    const Dim* (*grid_dim)();                                                                      \
    void (*sync)();                                                                                \
    void (*cluster_sync)();                                                                        \
    void* (*shared)();                                                                             \
    unsigned (*shared_address)(const void*);                                                       \
    void (*load_pair)(float*, float*, unsigned);                                                   \
    float (*shuffle_f)(float, int, int);                                                           \
    double (*shuffle_d)(double, int, int);                                                         \
    void (*bulk_copy)(unsigned, const void*, unsigned);                                            \
    void (*bulk_wait)();                                                                           \
  };
FFTMUX_EMULATION_HOST
#define FFTMUX_TEXT(...) #__VA_ARGS__
#define FFTMUX_EXPANDED_TEXT(...) FFTMUX_TEXT(__VA_ARGS__)

const std::string prelude =
    "#include <cstddef>\n#include <cstdint>\nusing std::size_t;\n" FFTMUX_EXPANDED_TEXT(
        FFTMUX_EMULATION_HOST) R"(
static const Host* host;
extern "C" void fftmux_emulation_bind(const Host* h) { host = h; }
struct float2 { float x, y; };
struct double2 { double x, y; };
inline float2 make_float2(float a, float b) { return {a, b}; }
inline double2 make_double2(double a, double b) { return {a, b}; }
inline unsigned atomicAnd(unsigned* p, unsigned v) { unsigned o = *p; *p = o & v; return o; }
inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p = o | v; return o; }
inline float __uint_as_float(unsigned u) { float f; __builtin_memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; __builtin_memcpy(&u, &f, 4); return u; }
inline float shuffle(float v, int lane, int width) { return host->shuffle_f(v, lane, width); }
inline double shuffle(double v, int lane, int width) { return host->shuffle_d(v, lane, width); }
#define threadIdx (*host->thread_idx())
#define blockIdx (*host->block_idx())
#define gridDim (*host->grid_dim())
#define __device__
#define __forceinline__ inline
#define __global__
#define __restrict__
#define __launch_bounds__(...)
#define __cluster_dims__(...)
)";

// The kernel's source as host C++ (after the prelude); unsupported: the
// first construct it cannot emulate.
std::string host_source(std::string s, std::string& unsupported) {
  struct Rule {
    const char* from;
    const char* to;
  };
  const Rule rules[] = {
      {R"(extern __shared__ __align__\(16\) (\w+) sh\[\];)", "$1* sh = ($1*)host->shared();"},
      {R"(__syncthreads\(\);)", "host->sync();"},
      {R"(asm volatile\("barrier\.cluster\.arrive\.release\.aligned;\\n\\tbarrier\.cluster\.wait\.acquire\.aligned;" ::: "memory"\);)",
       "host->cluster_sync();"},
      {R"(uint\(__cvta_generic_to_shared\((\w+)\)\))", "host->shared_address($1)"},
      {R"(asm\("mapa\.shared::cluster\.u32 %0, %1, %2;" : "=r"\((\w+)\) : "r"\((\w+)\), "r"\((\w+)\)\);)",
       "$1 = ($2 & 0xffffffu) | ($3 << 24);"},
      {R"(asm volatile\("ld\.shared::cluster\.v2\.f32 \{%0, %1\}, \[%2\];" : "=f"\(([\w.]+)\), "=f"\(([\w.]+)\) : "r"\(([^;]*)\)\);)",
       "host->load_pair(&$1, &$2, $3);"},
      {R"(__shfl_sync\(0xffffffffu, )", "shuffle("},
      // Bulk copies (Kernel::stream) complete as they are issued, each a
      // phase of the shared barrier the others wait on.
      {R"(__shared__ __align__\(8\) unsigned long long bar;)", "unsigned long long bar = 0;"},
      {R"(\(uint\)__cvta_generic_to_shared\(([^()]*)\))", "host->shared_address($1)"},
      {R"(asm volatile\("cp\.async\.bulk\.shared::cluster\.global\.mbarrier::complete_tx::bytes [^"]*" :: "r"\((\w+)\), "l"\((.*)\), "r"\((\w+)\), "r"\(\w+\) : "memory"\);)",
       "host->bulk_copy($1, $2, $3);"},
      {R"(asm volatile\("(mbarrier\.init|fence\.mbarrier_init|fence\.proxy\.async|mbarrier\.arrive\.expect_tx)[^;]*;[^;]*;)",
       ";"},
      {R"(asm volatile\("\{ \.reg \.pred p; W: mbarrier\.try_wait\.parity[^;]*;[^;]*;[^;]*;)",
       "host->bulk_wait();"},
  };
  for (const Rule& r : rules)
    s = std::regex_replace(s, std::regex(r.from), r.to);
  std::smatch m;
  if (std::regex_search(
          s, m,
          std::regex(
              R"((asm\b|__(?!launch_bounds__|cluster_dims__|uint_as_float|float_as_uint)\w+\()[^\n]*)")))
    unsupported = m.str();
  return s;
}

// CUDA threads are fibers of the test's thread (ucontext): one runs until
// it waits (a barrier, a shuffle, a bulk copy), then the next; a round
// that releases nobody is a deadlock.
struct Fiber {
  ucontext_t context;
  std::unique_ptr<char[]> stack; // untouched pages stay uncommitted
  bool done = false;
};
ucontext_t scheduler;
Fiber* running = nullptr;
size_t progress = 0; // barriers released, copies landed, fibers ended

void yield() {
  swapcontext(&running->context, &scheduler);
}

// A barrier for a fixed number of threads, reusable.
class Barrier {
public:
  explicit Barrier(size_t n) : n_(n) {}
  void wait() {
    size_t gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      ++progress;
      return;
    }
    while (gen == gen_)
      yield();
  }

private:
  size_t n_, count_ = 0, gen_ = 0;
};

struct Block {
  std::vector<double> shared; // 8-byte words: aligned for any element
  unsigned copies = 0;        // bulk copies landed: each completes a phase
  std::unique_ptr<Barrier> barrier;
  std::vector<std::unique_ptr<Barrier>> warps;
  std::vector<double> lanes; // a shuffle's values, a word a thread
};

struct Cluster {
  explicit Cluster(size_t n) : blocks(n) {}
  std::vector<Block> blocks;
  std::unique_ptr<Barrier> barrier;
};

struct Thread {
  Dim tid, bid;
  Block* block;
  Cluster* cluster;
  unsigned rank;
  unsigned waits; // phases of the block's bulk copies this thread has waited for
};
std::vector<Thread> threads; // of the running cluster, a fiber each
Thread* self = nullptr;      // the running fiber's
Dim grid;

template <class T> T shuffle(T v, int lane, int width) {
  Block& b = *self->block;
  unsigned t = self->tid.x, base = t / 32 * 32;
  std::memcpy(&b.lanes[t], &v, sizeof v);
  b.warps[t / 32]->wait();
  T got;
  std::memcpy(&got,
              &b.lanes[base + (t % 32) / unsigned(width) * unsigned(width) +
                       unsigned(lane) % unsigned(width)],
              sizeof got);
  b.warps[t / 32]->wait(); // every lane has read before the next shuffle writes
  return got;
}

const Host host = {
    [] { return const_cast<const Dim*>(&self->tid); },
    [] { return const_cast<const Dim*>(&self->bid); },
    [] { return const_cast<const Dim*>(&grid); },
    [] { self->block->barrier->wait(); },
    [] { self->cluster->barrier->wait(); },
    [] { return static_cast<void*>(self->block->shared.data()); },
    [](const void* p) {
      auto at = static_cast<const char*>(p) - reinterpret_cast<char*>(self->block->shared.data());
      return unsigned(at) | (self->rank << 24);
    },
    [](float* x, float* y, unsigned address) {
      const Block& b = self->cluster->blocks.at(address >> 24);
      unsigned at = address & 0xffffffu;
      EXPECT_LE(at + 8, b.shared.size() * 8) << "a distributed shared load beyond the block's";
      const char* p = reinterpret_cast<const char*>(b.shared.data()) + at;
      std::memcpy(x, p, 4);
      std::memcpy(y, p + 4, 4);
    },
    shuffle<float>,
    shuffle<double>,
    [](unsigned at, const void* from, unsigned bytes) {
      EXPECT_LE(at + bytes, self->block->shared.size() * 8) << "a bulk copy beyond shared memory";
      std::memcpy(reinterpret_cast<char*>(self->block->shared.data()) + at, from, bytes);
      ++self->block->copies;
      ++progress;
    },
    [] {
      unsigned phase = ++self->waits;
      while (self->block->copies < phase)
        yield();
    },
};

using KernelFn = void (*)(const void*, void*, const void*, unsigned);

// Builds the passes' kernels into one library.
class Library {
public:
  Library(const Plan& p, std::string& error) {
    std::string dir = (std::filesystem::temp_directory_path() / "fftmux-emulation-XXXXXX").string();
    if (!mkdtemp(dir.data())) {
      error = "cannot make a folder " + dir + ": " + std::strerror(errno);
      return;
    }
    dir_ = dir;
    std::string cpp = dir_ + "/kernels.cpp", so = dir_ + "/kernels.so";
    std::ofstream out(cpp);
    out << prelude;
    for (size_t i = 0; i < p.passes.size(); ++i) {
      std::string unsupported;
      std::string src = host_source(emit(p.passes[i].kernel, Dialect::cuda), unsupported);
      if (!unsupported.empty()) {
        error = "pass " + std::to_string(i) + " uses what is not emulated: " + unsupported;
        return;
      }
      // Each kernel in a namespace of its own: they share helper names.
      out << "namespace k" << i << " {\n" << src << "\n}\n";
    }
    out.close();
    std::string cmd = std::string(FFTMUX_TEST_CXX) + " -std=c++17 -O1 -w -shared -fPIC -o " + so +
                      " " + cpp + " 2>" + dir_ + "/log.txt";
    if (std::system(cmd.c_str()) != 0) {
      std::ifstream log(dir_ + "/log.txt");
      error = "the host compiler failed: " + std::string(std::istreambuf_iterator<char>(log), {});
      return;
    }
    handle_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_)
      error = dlerror();
  }
  ~Library() {
    if (handle_)
      dlclose(handle_);
    if (!dir_.empty())
      std::filesystem::remove_all(dir_);
  }
  // extern "C" names inside namespaces are still the plain names: each
  // pass's kernel is fftmux_passN, its bind function is shared.
  KernelFn kernel(const std::string& name) const {
    return reinterpret_cast<KernelFn>(dlsym(handle_, name.c_str()));
  }
  void bind() const {
    auto f = reinterpret_cast<void (*)(const Host*)>(dlsym(handle_, "fftmux_emulation_bind"));
    f(&host);
  }

private:
  std::string dir_;
  void* handle_ = nullptr;
};

struct Launch {
  KernelFn fn;
  const void* src;
  void* dst;
  const void* tab;
} current;

void fiber_main(int i) {
  current.fn(current.src, current.dst, current.tab, 0);
  threads[size_t(i)].block = nullptr; // ended
  ++progress;
}

// Every thread of `threads` as a fiber, to the end.
void run_fibers(KernelFn fn, const void* src, void* dst, const void* tab) {
  current = {fn, src, dst, tab};
  const size_t stack = 1 << 18;
  std::vector<Fiber> fibers(threads.size());
  for (size_t i = 0; i < fibers.size(); ++i) {
    Fiber& f = fibers[i];
    f.stack.reset(new char[stack]);
    getcontext(&f.context);
    f.context.uc_stack = {f.stack.get(), 0, stack};
    f.context.uc_link = &scheduler;
    makecontext(&f.context, reinterpret_cast<void (*)()>(fiber_main), 1, int(i));
  }
  for (size_t live = fibers.size(); live;) {
    size_t before = progress;
    for (size_t i = 0; i < fibers.size(); ++i) {
      if (fibers[i].done)
        continue;
      running = &fibers[i];
      self = &threads[i];
      swapcontext(&scheduler, &running->context);
      if (!threads[i].block) {
        fibers[i].done = true;
        --live;
      }
    }
    ASSERT_TRUE(!live || progress != before) << "the threads deadlocked: a round released none";
  }
}

// One launch: groups in x, clusters of Kernel::cluster consecutive groups,
// run a cluster at a time.
void launch(const Kernel& k, KernelFn fn, const void* src, void* dst, const void* tab) {
  unsigned c = k.cluster, w = k.workgroup();
  size_t words = (size_t(k.shared_scalars()) * (k.precision == Precision::f64 ? 8 : 4) + 7) / 8;
  grid = {unsigned(k.groups()), 1, 1};
  ASSERT_EQ(k.groups() % c, 0u) << "a grid row holds whole clusters";
  for (unsigned first = 0; first < grid.x; first += c) {
    Cluster cl(c);
    cl.barrier = std::make_unique<Barrier>(size_t(c) * w);
    for (Block& b : cl.blocks) {
      b.shared.assign(words, 0.0);
      b.barrier = std::make_unique<Barrier>(w);
      for (unsigned t = 0; t < w; t += 32)
        b.warps.push_back(std::make_unique<Barrier>(std::min(32u, w - t)));
      b.lanes.assign(w, 0.0);
    }
    threads.clear();
    for (unsigned r = 0; r < c; ++r)
      for (unsigned t = 0; t < w; ++t)
        threads.push_back({{t, 0, 0}, {first + r, 0, 0}, &cl.blocks[r], &cl, r, 0});
    run_fibers(fn, src, dst, tab);
  }
}

struct Case {
  std::vector<int64_t> n;
  fftmux_kind kind;
  int64_t batch;
  const char* variant;
  uint32_t flags = 0;
  fftmux_norm norm = FFTMUX_NORM_BACKWARD;
  fftmux_precision precision = FFTMUX_F32;
  int64_t out_stride = 0, out_distance = 0; // 0: the default layout
  bool cpu = false; // planned for lavapipe's limits (Vulkan's, 32 KiB, subgroups of 8)
  std::vector<uint32_t> r2r = {}; // R2R: each axis's kind
};

// One line naming a problem, for failures.
std::string name(const fftmux_desc& d, int direction, const char* variant) {
  std::ostringstream o;
  for (uint32_t i = 0; i < d.rank; ++i)
    o << (i ? "x" : "") << d.n[i];
  o << " x" << d.batch << " " << geometry::kind_text(d)
    << (d.precision == FFTMUX_F64   ? " f64"
        : d.precision == FFTMUX_F32 ? " f32"
                                    : " 16-bit");
  if (direction)
    o << " direction " << direction;
  o << " flags " << d.flags << " norm " << d.norm << " variant " << variant << " in_strides";
  for (uint32_t i = 0; i < d.rank; ++i)
    o << " " << d.in_strides[i];
  o << " in_distance " << d.in_distance << " out_strides";
  for (uint32_t i = 0; i < d.rank; ++i)
    o << " " << d.out_strides[i];
  o << " out_distance " << d.out_distance;
  return o.str();
}

fftmux_desc describe(const Case& c) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = uint32_t(c.n.size());
  std::copy(c.n.begin(), c.n.end(), d.n);
  d.batch = c.batch;
  d.kind = c.kind;
  d.precision = c.precision;
  d.out_strides[c.n.size() - 1] = c.out_stride;
  d.out_distance = c.out_distance;
  d.flags = c.flags;
  d.norm = c.norm;
  std::copy(c.r2r.begin(), c.r2r.end(), d.r2r);
  return ref::resolved(d);
}

// Plans d (resolved, out of place) as the CUDA backend does on an H200
// (cpu: as the Vulkan backend on lavapipe), runs its kernels here and
// compares the result with the reference; with a product (Options::product),
// the forward transform times it.
void check(const fftmux_desc& d, const char* variant, bool cpu = false,
           std::shared_ptr<const ref::Values> product = nullptr) {
  Device dev;
  dev.shared_bytes = cpu ? 32768 : 232448;
  dev.cluster = cpu ? 0 : 8;
  dev.bulk_copy = !cpu;
  dev.subgroup = cpu ? 8 : 32;
  dev = dialect_limits(dev, cpu ? Dialect::vulkan : Dialect::cuda);
  Options opt;
  for (const Variant& v : variants())
    if (!std::strcmp(v.name, variant))
      opt = v.options;
  opt = device_defaults(opt, cpu);
  opt.product = product;
  for (int direction : ref::directions(d)) {
    if (product && direction != FFTMUX_FORWARD)
      continue;
    SCOPED_TRACE(name(d, direction, variant));
    Plan p = plan(d, direction, dev, opt);
    std::string error;
    Library lib(p, error);
    ASSERT_EQ(error, "");
    lib.bind();
    std::vector<unsigned char> in = ref::random_input(d, 7);
    bool f64 = d.precision == FFTMUX_F64;
    // A product of F spectra: F outputs a transform, the last transform's too.
    const int64_t S = geometry::default_layout(d, false).distance;
    const int64_t F = product ? int64_t(product->size()) / S : 1;
    const size_t element = f64 ? 16 : 8;
    std::vector<unsigned char> out(side_bytes(d, false) + size_t(F - 1) * S * element, 0);
    std::vector<double> scratch(2 * p.scratch_elements); // F32's in its first half
    std::vector<float> tab32;
    std::vector<double> tab64;
    for (std::complex<double> v : table_values(p))
      for (double x : {v.real(), v.imag()}) {
        tab32.push_back(float(x));
        tab64.push_back(x);
      }
    const void* tab = f64 ? static_cast<const void*>(tab64.data()) : tab32.data();
    std::vector<unsigned char> input = in; // kernels may not write it: compared below
    auto buffer = [&](Binding b) -> void* {
      return b == Binding::input    ? static_cast<void*>(input.data())
             : b == Binding::output ? static_cast<void*>(out.data())
                                    : static_cast<void*>(scratch.data());
    };
    for (const Pass& pass : p.passes) {
      KernelFn fn = lib.kernel(pass.kernel.name);
      ASSERT_NE(fn, nullptr) << pass.kernel.name;
      launch(pass.kernel, fn, buffer(pass.src), buffer(pass.dst), tab);
    }
    EXPECT_EQ(input, in) << "the input was written";
    ref::Values plain = ref::expected(d, direction, in.data());
    for (int64_t f = 0; f < F; ++f) { // spectrum f's outputs: f outputs on
      ref::Values got = ref::read_side(d, false, out.data() + size_t(f * S) * element);
      ref::Values want = plain;
      for (size_t i = 0; product && i < want.size(); ++i)
        want[i] *= (*product)[size_t(f * S) + i % size_t(S)];
      EXPECT_LT(ref::relative_error(got, want), ref::error_bound(d))
          << p.summary << " spectrum " << f;
    }
  }
}

void check(const Case& c) {
  check(describe(c), c.variant, c.cpu);
}

// A side's layout: packed, the batch interleaved (unit stride, the axes'
// strides times the batch) or lines padded apart.
void relayout(int64_t* strides, int64_t& distance, const fftmux_desc& d, int mode) {
  if (mode == 1 && d.batch > 1) {
    for (uint32_t i = 0; i < d.rank; ++i)
      strides[i] *= d.batch;
    distance = 1;
  } else if (mode == 2) {
    distance += 3;
  }
}

// Random problems as `fftmux autotune` may route them to the CUDA backend's
// variants (or the Vulkan backend's on lavapipe): rank 1-3, smooth, prime
// and long sizes up to 2^18 elements, every kind, precision, norm and
// shift, packed, interleaved or padded sides or in place. FFTMUX_EMULATION_TRIALS
// (default 4) and FFTMUX_EMULATION_SEED (default 1; 0 draws one, printed)
// make it a campaign.
TEST(Emulation, RandomProblems) {
  const char* t = std::getenv("FFTMUX_EMULATION_TRIALS");
  const char* s = std::getenv("FFTMUX_EMULATION_SEED");
  int trials = t ? std::atoi(t) : 4;
  uint64_t seed = s ? std::strtoull(s, nullptr, 10) : 1;
  if (!seed)
    seed = std::random_device()();
  std::printf("emulation: %d random problems, seed %llu\n", trials, (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  auto pick = [&](auto const& v) { return v[rng() % v.size()]; };
  const std::vector<int64_t> sizes = {2,    3,     5,     7,     8,     12,    16,     25,    27,
                                      32,   49,    64,    97,    100,   128,   243,    256,   500,
                                      512,  1000,  1024,  2048,  2187,  4093,  4096,   6000,  8192,
                                      8194, 10007, 12800, 16384, 32768, 65536, 131072, 262144};
  for (int i = 0; i < trials; ++i) {
    fftmux_desc d;
    fftmux_desc_init(&d);
    d.rank = uint32_t(pick(std::vector<int>{1, 1, 1, 2, 2, 3}));
    int64_t left = 1 << 18;
    for (uint32_t a = 0; a < d.rank; ++a) {
      int64_t limit = a + 1 < d.rank ? std::max<int64_t>(2, int64_t(std::pow(left, 0.5))) : left;
      do
        d.n[a] = pick(sizes);
      while (d.n[a] > limit);
      left /= d.n[a];
    }
    d.batch = std::max<int64_t>(1, std::min<int64_t>(left, pick(std::vector<int64_t>{1, 2, 3, 4})));
    d.kind = pick(std::vector<fftmux_kind>{FFTMUX_C2C, FFTMUX_C2C, FFTMUX_R2C, FFTMUX_C2R});
    d.precision = rng() % 4 ? FFTMUX_F32 : FFTMUX_F64;
    d.norm = pick(std::vector<fftmux_norm>{FFTMUX_NORM_BACKWARD, FFTMUX_NORM_ORTHO,
                                           FFTMUX_NORM_FORWARD, FFTMUX_NORM_NONE});
    d.flags = uint32_t(rng() % 4); // the shifts
    d = ref::resolved(d);
    relayout(d.in_strides, d.in_distance, d, int(rng() % 3));
    relayout(d.out_strides, d.out_distance, d, int(rng() % 3));
    const char* variant = rng() % 2 ? "default" : pick(variants()).name;
    bool cpu = rng() % 5 == 0;
    std::printf("emulation: problem %d: %s%s\n", i, name(d, 0, variant).c_str(),
                cpu ? " (lavapipe's limits)" : "");
    std::fflush(stdout);
    check(d, variant, cpu);
    if (HasFailure())
      std::printf("emulation: failed at problem %d of seed %llu\n", i, (unsigned long long)seed);
    if (HasFatalFailure())
      return;
  }
}

// The clusters the variant sector-columns makes (2, 4 and 8 groups of 4
// columns) and the default's cluster of four single columns.
TEST(Emulation, ClustersOfAdjacentColumns) {
  check({{65536}, FFTMUX_C2C, 2, "sector-columns"});
  check({{32768},
         FFTMUX_C2C,
         1,
         "sector-columns",
         FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT,
         FFTMUX_NORM_ORTHO});
  check({{16384}, FFTMUX_C2C, 3, "sector-columns", FFTMUX_SHIFT_OUTPUT, FFTMUX_NORM_FORWARD});
  check({{65536}, FFTMUX_C2C, 2, "sector-columns", FFTMUX_IN_PLACE | FFTMUX_SHIFT_INPUT});
  check({{3, 32768},
         FFTMUX_C2C,
         1,
         "sector-columns",
         FFTMUX_SHIFT_OUTPUT}); // the clustered axis of 2D
}

TEST(Emulation, ClustersOfSingleColumns) {
  check({{32768}, FFTMUX_C2C, 2, "default", FFTMUX_SHIFT_OUTPUT});
  check({{65536}, FFTMUX_C2C, 1, "default"}); // not clustered: two passes
  check({{65536}, FFTMUX_R2C, 2, "default"});
  check({{65536}, FFTMUX_C2R, 1, "default", FFTMUX_SHIFT_INPUT});
}

// Ordinary kernels: several lines a group, shuffles, Bluestein, 2D.
// R2C's post step in a chain's rows (Kernel::mirror_lines) with the
// spectra interleaved in memory: the batch, of unit stride there, had been
// made digit 0, which the rows' mirror pairs are made of (reads past the
// buffers: a segmentation fault here, wrong spectra on lavapipe).
TEST(Emulation, RealRowsOfInterleavedSpectra) {
  Case c{{1 << 17}, FFTMUX_R2C, 2, "default"};
  c.out_stride = 2;
  c.out_distance = 1;
  check(c);
  c.n = {16384};
  c.precision = FFTMUX_F64;
  c.cpu = true;
  check(c);
}

// F16 and BF16 storage: the CUDA dialect's bit conversions, a Bluestein
// line, R2C's pairs and C2R's single real stores (atomics on shared words).
TEST(Emulation, Storage16) {
  Case c{{64}, FFTMUX_C2C, 3, "default", FFTMUX_SHIFT_OUTPUT};
  c.precision = FFTMUX_F16;
  check(c);
  check({{97}, FFTMUX_C2C, 2, "default", 0, FFTMUX_NORM_ORTHO, FFTMUX_BF16});
  check({{12, 40}, FFTMUX_R2C, 2, "default", 0, FFTMUX_NORM_BACKWARD, FFTMUX_F16});
  check({{99}, FFTMUX_C2R, 2, "default", FFTMUX_SHIFT_INPUT, FFTMUX_NORM_BACKWARD, FFTMUX_BF16});
  // 32768 points: one pass of a cluster of four groups, which stores through the cluster's rows.
  check({{32768}, FFTMUX_C2C, 1, "default", 0, FFTMUX_NORM_ORTHO, FFTMUX_F16});
}

// Real-to-real axes: one kernel (the reals weighed, transformed, weighed), a chain weighing in its
// columns and rows, Bluestein's kernel and three passes, kinds mixed over 2D, each direction.
TEST(Emulation, RealToReal) {
  auto r2r = [](std::vector<int64_t> n, std::vector<uint32_t> kinds, int64_t batch,
                fftmux_norm norm, fftmux_precision precision = FFTMUX_F32) {
    Case c{n, FFTMUX_R2R, batch, "default", 0, norm, precision};
    c.r2r = kinds;
    return describe(c);
  };
  check(r2r({1000}, {FFTMUX_DCT2}, 3, FFTMUX_NORM_BACKWARD), "default");
  check(r2r({509}, {FFTMUX_DST1}, 2, FFTMUX_NORM_ORTHO, FFTMUX_F64), "default");
  check(r2r({16384}, {FFTMUX_DCT4}, 1, FFTMUX_NORM_FORWARD), "default");
  check(r2r({10007}, {FFTMUX_DST3}, 1, FFTMUX_NORM_BACKWARD), "default");
  check(r2r({24, 20}, {FFTMUX_DCT1, FFTMUX_DST3}, 2, FFTMUX_NORM_ORTHO), "default");
  check(r2r({100}, {FFTMUX_DST2}, 3, FFTMUX_NORM_BACKWARD), "default", true);
  // A DCT-II is the R2C of its reals, and its inverse, a DCT-III, the C2R of its reals weighed:
  // fused, a chain with its post (pre) step in a pass of its own, Bluestein's, and a 2D one
  // beside a DST-II.
  check(r2r({4096}, {FFTMUX_DCT2}, 2, FFTMUX_NORM_ORTHO), "default");
  check(r2r({32768}, {FFTMUX_DCT2}, 1, FFTMUX_NORM_BACKWARD), "default");
  check(r2r({4099}, {FFTMUX_DCT2}, 1, FFTMUX_NORM_FORWARD), "default");
  check(r2r({24, 20}, {FFTMUX_DST2, FFTMUX_DCT2}, 2, FFTMUX_NORM_ORTHO, FFTMUX_F64), "default");
  // A DST-II or DST-III of even n is a DCT's line in Makhoul's order, its reals signed and
  // reversed: fused, chained (each run both ways: DST-II forward, DST-III inverse); of odd n the
  // R2C of 2n reals storing its outputs 1..n (the C2R loading its reals at 1..n): Bluestein's
  // 4099, 1001, 2D.
  check(r2r({1000}, {FFTMUX_DST2}, 3, FFTMUX_NORM_ORTHO), "default");
  check(r2r({32768}, {FFTMUX_DST2}, 1, FFTMUX_NORM_BACKWARD), "default");
  check(r2r({4099}, {FFTMUX_DST2}, 1, FFTMUX_NORM_FORWARD), "default");
  check(r2r({1001}, {FFTMUX_DST3}, 2, FFTMUX_NORM_ORTHO), "default");
  check(r2r({20, 27}, {FFTMUX_DST3, FFTMUX_DST2}, 2, FFTMUX_NORM_ORTHO, FFTMUX_F64), "default");
  // A DCT-II (and its inverse DCT-III) of even n in Makhoul's order, n / 2 points (4096 and
  // 24x20 above): a chain with the post (pre) step in a pass of its own, Bluestein's for 2018.
  check(r2r({65536}, {FFTMUX_DCT2}, 1, FFTMUX_NORM_ORTHO), "default");
  check(r2r({2018}, {FFTMUX_DCT2}, 2, FFTMUX_NORM_ORTHO), "default");
  // A DCT-I is the R2C of its even extension, n - 1 points: one kernel, a chain (65537),
  // Bluestein's (1010: 1009 points); ORTHO, and n = 2 (one point) of any kind, keep the weighed
  // line of N' (a DCT-II of 4: Makhoul's line of 2).
  check(r2r({513}, {FFTMUX_DCT1}, 2, FFTMUX_NORM_BACKWARD), "default");
  check(r2r({65537}, {FFTMUX_DCT1}, 1, FFTMUX_NORM_NONE), "default");
  check(r2r({1010}, {FFTMUX_DCT1}, 1, FFTMUX_NORM_FORWARD), "default");
  check(r2r({2}, {FFTMUX_DCT1}, 3, FFTMUX_NORM_NONE), "default");
  check(r2r({4}, {FFTMUX_DCT2}, 3, FFTMUX_NORM_NONE), "default");
  // A DCT-IV or DST-IV of even n folds its reals into n / 2 complex values: one kernel (16384
  // above, a chain there before), Bluestein's for 2018 (1009 values), and 2D beside an odd axis.
  check(r2r({1000}, {FFTMUX_DST4}, 3, FFTMUX_NORM_ORTHO), "default");
  check(r2r({2018}, {FFTMUX_DCT4}, 2, FFTMUX_NORM_BACKWARD), "default");
  check(r2r({24, 21}, {FFTMUX_DST4, FFTMUX_DCT4}, 2, FFTMUX_NORM_ORTHO, FFTMUX_F64), "default");
}

// A spectrum multiplying the forward transform's outputs (a convolution's product), fused into
// the kernel that stores them: one kernel, a streamed line, Bluestein, R2C's post step, 2D and 3D
// with a batch, F64, and a convolution's forward plans, their inputs padded.
TEST(Emulation, ProductInTheLastStore) {
  std::mt19937_64 rng(11);
  auto random_product = [&](const fftmux_desc& d) { // a value a point of one output
    auto p = std::make_shared<ref::Values>(size_t(geometry::default_layout(d, false).distance));
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& v : *p)
      v = {u(rng), u(rng)};
    return p;
  };
  auto with_product = [&](Case c) {
    fftmux_desc d = describe(c);
    check(d, c.variant, c.cpu, random_product(d));
  };
  with_product({{1024}, FFTMUX_C2C, 3, "default"});
  with_product({{65536}, FFTMUX_C2C, 2, "default"});
  with_product({{1000}, FFTMUX_C2C, 2, "default", 0, FFTMUX_NORM_BACKWARD, FFTMUX_F64});
  with_product({{4093}, FFTMUX_C2C, 1, "default"});
  with_product({{4096}, FFTMUX_R2C, 3, "default"});
  with_product({{90}, FFTMUX_R2C, 2, "default"});
  with_product({{48, 40}, FFTMUX_C2C, 2, "default"});
  with_product({{24, 20, 18}, FFTMUX_R2C, 2, "default"});
  // Several filters' spectra: each output stored once a spectrum, the outputs F apart.
  for (auto [c, F] :
       {std::pair<Case, int64_t>{{{1024}, FFTMUX_C2C, 3, "default"}, 3},
        {{{4096}, FFTMUX_R2C, 2, "default"}, 2},
        {{{48, 40}, FFTMUX_C2C, 2, "default", 0, FFTMUX_NORM_BACKWARD, FFTMUX_F64}, 4},
        {{{24, 20, 18}, FFTMUX_R2C, 1, "default"}, 2}}) {
    fftmux_desc d = describe(c);
    auto one = random_product(d);
    auto all = std::make_shared<ref::Values>();
    for (int64_t f = 0; f < F; ++f)
      for (const auto& v : *one)
        all->push_back(v * double(f + 1) * std::complex<double>(0.6, 0.8 * double(f % 2 ? -1 : 1)));
    if (d.batch > 1)
      d.out_distance = F * int64_t(one->size());
    check(d, c.variant, c.cpu, all);
  }
  // A convolution's forward plan: the input padded (in_extent) as well.
  for (auto [n, m] : {std::pair<int64_t, int64_t>{300, 256}, {40, 32}}) {
    fftmux_desc d;
    fftmux_desc_init(&d);
    d.rank = n > 100 ? 2 : 3;
    for (uint32_t a = 0; a < d.rank; ++a) {
      d.n[a] = n;
      d.in_extent[a] = m;
    }
    d.kind = FFTMUX_R2C;
    d = ref::resolved(d);
    check(d, "default", false, random_product(d));
  }
}

TEST(Emulation, OrdinaryKernels) {
  check({{1024}, FFTMUX_C2C, 16, "default"});
  check({{16384}, FFTMUX_C2C, 2, "default", 0, FFTMUX_NORM_ORTHO}); // streamed: bulk copies
  check({{2187}, FFTMUX_C2C, 3, "default"});
  check({{64}, FFTMUX_C2C, 64, "default", FFTMUX_SHIFT_INPUT});
  check({{97}, FFTMUX_C2C, 4, "default"});
  check({{48, 40}, FFTMUX_R2C, 2, "default"});
}

} // namespace
} // namespace fftmux::codegen
