// The kernel generator shared by the GPU backends (Vulkan, OpenGL, CUDA).
//
// plan() turns one transform problem and one direction into passes: compute
// kernels described in a small IR (Kernel) plus the table of twiddles and
// chirps they read, computed in double precision. emit() writes a kernel as
// source in one dialect. The algorithm lives in the plan; the dialect only
// in emit(). codegen/README.md documents the whole contract.
#pragma once

#include <fftmux/fftmux.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace fftmux::codegen {

// Bumped whenever emitted code changes: part of every compiled-code cache key.
constexpr int generator_version = 50;

// vulkan_pointers: Vulkan GLSL whose buffers are device addresses in push
// constants (src, dst, table, then group_offset at byte 24).
enum class Dialect { vulkan, opengl, cuda, vulkan_pointers };
const char* dialect_name(Dialect d);

// The API a GPU backend drives: its device profile (dialect_limits) and
// the variants it offers are keyed on it.
enum class Api { vulkan, opengl, cuda };
Api api_of(Dialect dialect);

// What the device allows a kernel.
struct Device {
  Api api = Api::vulkan;
  uint32_t shared_bytes = 49152; // shared memory per workgroup
  uint32_t max_threads = 1024;   // invocations per workgroup
  uint32_t subgroup = 32;
  uint64_t max_binding_bytes = 1ull << 32; // largest storage buffer a kernel may address
  bool f64 = true;                         // double precision arithmetic
  uint32_t max_radix = 32;     // largest power-of-two butterfly its compiler keeps in registers
  uint32_t max_composite = 32; // largest odd or mixed composite radix it runs well
  // Shortest line that takes composites above 16 (20, 24, 25, 27) where
  // max_composite allows them; 0 = the lines that may take radix 32.
  uint32_t large_composites_from = 0;
  // Shared memory the driver grants one multiprocessor for all its groups,
  // where that is less than the hardware holds (then kernels of few threads
  // split and chunk their exchanges so that several groups share one); 0 =
  // not limiting.
  uint32_t sm_shared_bytes = 0;
  // Bytes of line values (real and imaginary parts) one workgroup may hold
  // in registers: half of a 64K-register file, less where the compiler
  // spends several registers a value (dialect_limits).
  uint32_t group_value_bytes = 1 << 17;
  // Workgroups a cluster may hold that read each other's shared memory
  // (CUDA from compute capability 9.0: 8); 0 = none.
  uint32_t cluster = 0;
  // Bulk copies from global to shared memory that complete on a shared
  // barrier (CUDA's cp.async.bulk, from compute capability 9.0).
  bool bulk_copy = false;

  // Every field, in declaration order: what a generation is keyed on.
  auto fields() const {
    return std::tie(api, shared_bytes, max_threads, subgroup, max_binding_bytes, f64, max_radix,
                    max_composite, large_composites_from, sm_shared_bytes, group_value_bytes,
                    cluster, bulk_copy);
  }
};

// A device family's facts and measured rules beyond the limits its API
// reports: one entry an API (codegen/profiles.cpp), the planner reading
// Device::api's. The measurements behind each rule are in
// docs/codegen-rules.md under its name; the thresholds were measured on
// NVIDIA's GPUs.
struct Profile {
  Api api;
  // What the dialect's compiler runs well (dialect_limits copies these into
  // the Device, where a backend's settings may override them).
  uint32_t max_composite = 32;
  uint32_t large_composites_from = 0;
  uint32_t sm_shared_bytes = 0;
  uint32_t group_value_bytes = 1 << 17;
  // The compiler fits as many groups an SM as a kernel asks, trading
  // registers for them (CUDA's launch bounds; GLSL has no such hint).
  bool launch_bounds = false;
  bool sm90 = false; // clusters and bulk copies, where the device has them
  // Rules measured per API.
  bool long_f64_columns = false; // long_f64_columns
  bool f32_real_rows = false;    // real_rows: F32 R2C chains make outputs in their rows too
  // Thresholds.
  int64_t lean_threads = 768;          // lean: threads an SM a capped group aims for
  int64_t rows_of_1024_from = 1 << 17; // rows_of_1024: shortest chain
  int64_t rows_of_1024_to = 1 << 21;   // rows_of_1024: longest chain
  int64_t wide_columns_from = 65, wide_columns_to = 128; // column_values: F32 column lengths
};
const Profile& profile(Api api);

// The Device of an API's limits (as it reports them) under a dialect's
// profile: its compiler facts, and no clusters or bulk copies outside CUDA.
Device dialect_limits(Device d, Dialect dialect);

// The knobs an autotuner turns (the backends' variants).
struct Options {
  uint32_t max_radix = 32;        // largest power-of-two butterfly (32: F32 lines >= 512)
  uint32_t values_per_thread = 0; // target registers per thread, 0 = by precision
  uint32_t group_threads = 0;     // target invocations per workgroup, 0 = 256
  uint32_t max_single = 0;        // longest one-pass transform, 0 = what shared memory holds
  uint32_t coalesce_teams = 0;    // transforms per workgroup that strided passes aim for, 0 = 8
  // Workgroups the compiler must fit on one multiprocessor (CUDA's launch
  // bounds; GLSL has no such hint), 0 = no demand.
  uint32_t resident_groups = 0;
  // A long real line (a four-step chain) makes R2C's outputs in the
  // chain's rows and C2R's inputs in its columns, each line beside its
  // mirror in one workgroup; false: a pass of their own (variant mirror-pass).
  bool real_rows = true;
  // The last stage, the multiplications after it and the store run one
  // butterfly at a time (Kernel::butterfly_tail; variant butterfly-tail).
  bool butterfly_tail = false;
  // An R2C chain of two passes over an odd power of two takes the longer of
  // its two equally near factors as the columns, so that the rows, which
  // make the outputs beside their mirrors, are the shorter and more share a
  // group (variant long-real-columns).
  bool long_real_columns = false;
  // A Bluestein convolution whose padded line one pass holds runs as two
  // kernels of one transform each (through scratch) instead of one that
  // holds both, or three passes (variant split-convolution).
  bool split_convolution = false;
  // A complex contiguous power-of-two line of 2 to Device::cluster groups'
  // worth of values runs as a cluster whose groups each transform
  // sector_threads() adjacent columns (Kernel::cluster_columns), so each
  // reads whole 32-byte sectors where one column a group reads every c-th
  // element (variant sector-columns; CUDA from compute capability 9.0).
  bool sector_columns = false;
  // Spectra that multiply the forward transform's outputs element by
  // element, the same for every transform of the batch (a convolution's
  // filters, fused into the last kernel's store): F >= 1 transforms' outputs
  // in their packed layout, one after another, or null. With F > 1 each
  // output is stored F times, the f-th times spectrum f at its place plus f
  // outputs (the output's distance F outputs). Not an option of a variant:
  // generate() keys it by its address.
  std::shared_ptr<const std::vector<std::complex<double>>> product;

  // Every field but product, in declaration order: what a generation is keyed on.
  auto fields() const {
    return std::tie(max_radix, values_per_thread, group_threads, max_single, coalesce_teams,
                    resident_groups, real_rows, butterfly_tail, long_real_columns,
                    split_convolution, sector_columns);
  }
};

// What a variant leaves open, filled in for the kind of device: a CPU
// (lavapipe, llvmpipe) holds 4 values a thread in 256-invocation groups, a
// GPU ~64-invocation groups. (docs/codegen-rules.md: device_defaults)
Options device_defaults(Options o, bool cpu);

// A problem the generator declines; what() is the reason, for query answers.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---- Factorization ----

// Radices for an n whose prime factors are all <= 13, chosen by a cost model
// (fewest shared-memory exchanges first), largest first; empty when n has a
// larger prime factor. factorize(1) is empty too. max_radix bounds the
// power-of-two and composite radices (the primes 3 to 13 always run);
// max_composite bounds the odd and mixed composites (9, 10, 15, 20, 24, 25,
// 27, 49; 49 also needs max_radix 32): 0 for a Bluestein convolution, whose
// two transforms cannot hold them in registers, 9 for the radices before
// composites (variant prime-radices).
std::vector<int> factorize(int64_t n, uint32_t max_radix = 16, uint32_t max_composite = 32);
// The parts a, b of a composite radix r = a b done in registers ({0, 0} for
// a prime or 9, which is one direct DFT).
std::pair<int, int> composite_parts(int r);
bool smooth(int64_t n); // every prime factor <= 13
// The padded length of a Bluestein convolution for n: 2,3,5,7-smooth,
// >= 2n-2, the one of least arithmetic by the factorization's cost model.
int64_t bluestein_length(int64_t n);

// ---- The kernel IR ----

enum class Precision { f32, f64 };
// How the caller's buffers (input, output) hold values: in the arithmetic's
// precision, or 16 bits a value (F16, BF16: a complex one a 32-bit word),
// converted to F32 right after each load and from it right before each store.
// Scratch and tables hold the arithmetic's precision.
enum class Storage { arithmetic, f16, bf16 };
Storage storage_of(uint32_t precision);        // of an fftmux_precision
enum class Binding { input, output, scratch }; // buffers of a pass (tables come apart)

constexpr int kElement = -1; // a Term coordinate: the element's position in the line
constexpr int kNone = -2;

// A coordinate with a coefficient: kElement or the index of a digit of the
// transform index (Kernel::digits).
struct Term {
  int coord;
  int64_t coef;
};

// One addressed dimension of a side. Its logical index is
// sum(coef * coordinate) + offset; the memory index is
// (logical - start + shift) mod extent (numpy's shifts as an index remap).
struct Axis {
  std::vector<Term> terms;
  int64_t offset = 0;
  int64_t extent = 0;
  int64_t shift = 0;
  int64_t limit = std::numeric_limits<int64_t>::max(); // logical >= limit: zero / not stored
  // logical < start: zero / not stored; memory holds logical start on (a DST-II's outputs, a
  // DST-III's inputs: the spectrum's positions 1..n of a DCT path)
  int64_t start = 0;
  // n > 0: logical l < n / 2 is memory 2l, the others 2n - 1 - 2l (Makhoul's order of a DCT-II's
  // reals: the even ones, then the odd ones backwards)
  int64_t zigzag = 0;
  int64_t reverse = 0; // n > 0: logical l is memory n - 1 - l (a DST's reals as a DCT's)
  int64_t reflect = 0; // n > 0: logical l >= n is memory 2n - 2 - l (a DCT-I's even extension)
  int64_t stride = 0;  // in elements of the side's type
};

// A table read: direct (entry offset + m) or split in two factors
// (hi[m >> bits] * lo[m & (2^bits - 1)]) so that long twiddle tables stay small.
struct Table {
  int64_t offset = -1;
  int split_bits = 0;
  int64_t hi_offset = -1;
  bool conj = false;
};

// How a side's elements map to memory. axes[0] is the transformed axis:
// real_pair packs reals 2l and 2l+1 into one complex value; hermitian reads
// X[l] for l <= length/2 and conj(X[length - l]) beyond; r2c and c2r read
// the mirrored partner (length - l) mod length too and combine the two with
// the table entry at l: the half-length real-transform steps. fold_cos reads
// reals 2l and length - 1 - 2l as one complex value and stores its real part
// to the first, minus its imaginary part to the second (a DCT-IV's half-length
// line); fold_sin takes them the other way round and stores both parts as
// they are (a DST-IV's). fold_ends stores the real part of position l to real l and minus its
// imaginary part to real length - l, none where that is length (a DCT-II's outputs k and n - k
// from its R2C's Z[k], Makhoul's).
enum class Access { complex, real, real_pair, hermitian, r2c, c2r, fold_cos, fold_sin, fold_ends };

struct Side {
  Binding buffer = Binding::input;
  Access access = Access::complex;
  std::vector<Axis> axes;
  int64_t length = 0; // the partner's modulus for hermitian, r2c and c2r; the reals of a fold
  Table table;        // r2c and c2r: exp(-2 pi i k / (2 length)), k <= length (c2r: conj)
  // c2r: the half spectrum held as reals x[k], each read as x[k] weights[k] (a DCT-III's, as
  // TableRun::r2r_half); none: complex values as they are.
  Table weights;
  // c2r with weights: x[k] - i x[2 length - k] times weights[k], x[2 length] = 0 (a DCT-III's of
  // even n in Makhoul's order).
  bool ends = false;
  // A zigzag side's odd reals (its logical positions n / 2 on) read and written negated: a
  // DST-II's input (-1)^j x[j], a DST-III's output, through a DCT's Makhoul order.
  bool negate_odds = false;
  // The elements of axes[0] the buffer holds (a padded side, in the buffer's elements: reals
  // of a real pair): a load reads zero past them and touches no memory, a store writes none.
  int64_t held = std::numeric_limits<int64_t>::max();
};

// The memory stride of one coordinate (kElement or a digit) on a side, in
// elements of the side's type.
int64_t stride(const Side& s, int coord);
// Whether a real-pair side's pairs are adjacent and start at even reals, so
// that each is one complex element.
bool paired(const Side& side);
// Whether an axis's memory index is other than its logical index times its stride (a shift,
// start, zigzag, reverse or reflect remaps it).
bool remapped(const Axis& a);
// Whether a side is a DCT-IV's or DST-IV's folded line or a DCT-II's folded ends (Access::fold_cos,
// fold_sin, fold_ends).
bool folds(const Side& side);
// The element of a side's line 0, position 0 (its axes' offsets).
int64_t first_element(const Side& side);

// An index expression: (sum coef * coord + offset) * coord[product].
struct Index {
  std::vector<Term> terms;
  int64_t offset = 0;
  int product = kNone;
};

// Where R2C's post step finds each output's partner Z[h - k].
enum class Partners {
  shared,      // the whole line through shared memory (a mirror_lines row: its mate's too)
  shared_half, // natural order: each thread's upper half through shared memory, pairs in one thread
  lanes,       // natural order: in the thread, or a lane of its run by shuffles
  mirrored, // the stage before leaves each thread its outputs' partners (its butterflies mirrored)
  cluster,  // the cluster's rows, through distributed shared memory
};

struct Step {
  enum Kind { stage, multiply, r2c_post } kind = stage;
  // stage: one Stockham radix pass over the line, span = product of the
  // earlier radices; twiddles: the stage's table of w^(i k), w =
  // exp(-2 pi i / (span radix)), input i >= 1 of butterfly k at (i - 1) span + k.
  int radix = 0;
  int64_t span = 1;
  int sign = -1;
  int64_t twiddles = -1;
  // multiply: every element at position < limit by table[index].
  Index index;
  Table table;
  int64_t limit = std::numeric_limits<int64_t>::max();
  // multiply by four-step twiddles (index: position times a digit d): where
  // rows >= 0, the outputs p = base + i row_step (i < row_count) of a
  // butterfly take table[base d] once and times rows[i extent + d] each,
  // extent being d's. A warp's lines hold adjacent d, so each row read is
  // one run, where table[p d] scatters over the table.
  int64_t rows = -1, row_step = 0, row_count = 0;
  // r2c_post: the line holds Z = FFT(x[2n] + i x[2n+1]) of length span;
  // produces X[0..span] of the real transform of length 2 span, reading
  // table as Side::table. In a kernel of mirror_lines n1 the line is row
  // k1 of Z instead (positions k1 + n1 k, k1 digit 0) and produces
  // X[k1 + n1 k], reading its root as a split table (Tables::half).
  // Where its partners come from, as the planner chose for a dialect with
  // lane shuffles (CUDA) and for one without (GLSL).
  Partners partners = Partners::shared, partners_unshuffled = Partners::shared;
};

// How a side moves between memory and the registers of the stages' thread
// mapping (Kernel::team_major).
enum class Mapping {
  direct, // in the stages' mapping
  alt,    // in the other mapping (lines adjacent where threads were), via shared memory
  // The workgroup's lines as one contiguous run (invocation i takes elements
  // i, i + workgroup, ...), via shared memory: lines shorter than a memory
  // transaction would otherwise leave most of each unused.
  flat,
};

// How values move between layouts through shared memory.
enum class Exchange {
  whole,   // both components at once
  split,   // one component at a time: half the shared memory, twice the barriers
  chunked, // one component at a time in Kernel::chunks rounds of chunk() positions (one line a
           // group)
  // One component at a time by persistent groups (CUDA, Device::bulk_copy):
  // each loops over lines (group += groups launched) and, while it
  // transforms one, has the next copied into shared memory after the
  // exchange area by one bulk copy. One line a group, loaded whole.
  streamed,
};

// The two-for-one step of a long real line that a kernel pairs each of its
// lines or positions with the mirror for.
enum class RealStep {
  none,
  mirror_lines, // lines of digit 0 in mirror pairs (Kernel::mirror_lines)
  mirror_pairs, // a pointwise pass making outputs k and h - k together (Kernel::mirror_pairs)
};

struct Kernel {
  std::string name;
  Precision precision = Precision::f32;
  Storage storage = Storage::arithmetic; // of the input and output, not of scratch
  int64_t length = 1;                    // points of one line
  std::vector<int64_t> digits;           // transform index digits, fastest first
  uint32_t threads = 1;                  // per line
  uint32_t teams = 1;                    // lines per workgroup
  bool team_major = true; // thread mapping: threads of a line adjacent (else lines adjacent)
  Side load, store;
  Mapping load_mapping = Mapping::direct, store_mapping = Mapping::direct;
  std::vector<Step> steps;
  double scale = 1.0; // applied when storing
  // Options::product: each complex value stored product_count times, copy f at its memory index
  // plus f product_points, times table[product + f product_points + (its memory index mod
  // product_count product_points)], the index within a transform's outputs (-1: none).
  int64_t product = -1, product_points = 0, product_count = 1;
  // R2R's weights after R2C's post step, which ends the steps: each value stored times
  // store_weights[l], l its logical position along the line (offset < 0: none).
  Table store_weights;
  int64_t positions =
      0; // positions of the line after the last step (length, or length+1 after r2c_post)
  Exchange exchange = Exchange::whole;
  bool pad_shared = false;      // one spare word per 32: strided stage writes avoid bank conflicts
  bool in_place = false;        // load and store address the same buffer
  uint32_t resident_groups = 0; // Options::resident_groups
  bool convolution = false;     // a whole Bluestein convolution (chirp, FFT, spectrum, FFT, chirp)
  // Where only multiplications follow the last stage and the store keeps
  // its layout, each butterfly of it is read from shared memory,
  // transformed, multiplied and stored before the next is read: fewer
  // values live at once (Options::butterfly_tail).
  bool butterfly_tail = false;
  uint32_t chunks = 1; // Exchange::chunked: its rounds (2 or more), else 1
  // Workgroups a cluster (CUDA): the kernel is the column pass of a chain
  // over lines of length * cluster points whose rows (cluster points) run
  // across the cluster's shared memory. Digit 0 (extent cluster) is the
  // group's rank in it; the store side addresses whole-line positions.
  uint32_t cluster = 1;
  // Adjacent columns a group of a cluster transforms (its teams), digit 0
  // then counting cluster * cluster_columns columns: the rows are DFTs of
  // that many points, cluster_columns of them from each group's shared
  // memory (Options::sector_columns).
  uint32_t cluster_columns = 1;
  RealStep real_step = RealStep::none;
  // RealStep::mirror_lines: lines of digit 0 (extent mirror_lines, even) in mirror pairs: lines
  // 2 p and 2 p + 1 are d0 = p and mirror_lines - p (0 and mirror_lines / 2
  // for p = 0), in adjacent teams of one group. R2C's rows make their
  // outputs from both (Step::r2c_post); C2R's columns read the same
  // elements as their mirrors' partners, so the pair shares the cache.
  int64_t mirror_lines = 0;
  // RealStep::mirror_pairs: a pointwise pass over the first half of a line's mirror pairs (its
  // positions k = 0 .. h / 2, h the load's length): each slot also makes
  // the output at h - k where that is below mirror_pairs (the pass's count
  // of outputs), into the register after the last slot's; else 0.
  int64_t mirror_pairs = 0;

  int64_t transforms() const; // lines: the product of the digits
  uint32_t workgroup() const { return threads * teams; }
  uint64_t groups() const;         // workgroups to dispatch
  uint32_t shared_scalars() const; // the kernel's shared memory, 0 when it needs none
  int64_t line_scalars() const;    // shared words of one component of one line
  // Complex elements from one of a cluster group's columns to the next in
  // its shared memory: 4 more than a column, so that a half-warp's 8-byte
  // stores of 4 columns x 4 positions fall on 32 different banks.
  int64_t cluster_column_stride() const { return cluster_columns > 1 ? length + 4 : length; }
  int64_t chunk() const; // positions a chunk covers: a multiple of 32
  // Several lines share a warp: each line's padded words start `threads`
  // banks (mod 32) after the previous line's, so the warp's lines fall on
  // different banks.
  bool staggered() const;
  int64_t component_scalars() const; // shared words of one component of the workgroup
  int64_t stream_offset() const;     // stream: where the next line's copy starts (16-byte aligned)
};

// Whether side (of kernel k) holds 16-bit values: a caller's buffer of a
// 16-bit storage precision.
bool half_side(const Kernel& k, const Side& side);

struct Pass {
  Kernel kernel;
  Binding src, dst;
};

// A run of a plan's table: which values and where (tables.hpp).
struct TableRun {
  enum Kind {
    roots,          // exp(-2 pi i m b / n), m < count
    stage_twiddles, // a Stockham stage's: span n, radix b
    chirp,          // exp(sign pi i m^2 / n)
    bluestein,      // the convolution kernel of n points, length b
    grid,           // exp(-2 pi i (m / b) (m % b) / n): rows of b roots
    // A real-to-real axis of n points, fftmux_r2r_kind b, as a DFT of its
    // logical size N': the weights of x[m] before it (r2r_pre) and of Z[m]
    // after it (r2r_post), ORTHO's first and last terms weighed where sign
    // is 1 (tables.cpp: r2r_weight)
    r2r_pre,
    r2r_post,
    // A DCT-III's reals read as the Hermitian half of a C2R of N' points: r2r_pre's weights
    // conjugated, those it doubles not doubled (the C2R's sum counts them twice)
    r2r_half,
    // A DST-II's r2r_post one position on, the weight of Z[k + 1] at k + 1: an R2C's outputs 1..n
    // make its y[0..n-1] (Axis::start)
    dst2_post,
    // A DST-III's half spectrum: y[k] = (-1)^k DCT-III(x reversed)[k], the C2R of the half
    // spectrum shifted by n, whose value at m is the conjugate of DCT-III's r2r_half at n - m
    // times x[m - 1], 0 < m <= n
    dst3_half,
    // A DCT-IV's or DST-IV's folded line of n / 2 complex values (Access::fold_cos, fold_sin):
    // exp(-pi i (4m + 1) / (4n)) before its DFT, 2 exp(-pi i m / n) after
    r2r_fold_pre,
    r2r_fold_post,
    product // Options::product, m < count (Plan::product)
  } kind;
  int64_t n = 0, b = 0;
  int sign = 0;
  double scale = 0;
  int64_t at = 0, count = 0;
};

struct Plan {
  std::vector<Pass> passes;
  // The twiddles and chirps the kernels read, as runs: their values cost
  // more than planning (Bluestein's kernel is an FFT), so table_values
  // computes them for a plan that runs, never for a query.
  std::vector<TableRun> table;
  int64_t table_size = 0;        // complex elements
  uint64_t scratch_elements = 0; // complex elements of the scratch buffer
  std::string summary;           // one line: algorithm and passes, for explain()
  std::shared_ptr<const std::vector<std::complex<double>>> product; // TableRun::product's values
};

// Plans desc (valid, strides and distances resolved) in direction
// (FFTMUX_FORWARD or FFTMUX_INVERSE). Throws Unsupported with the reason.
Plan plan(const fftmux_desc& desc, int direction, const Device& device,
          const Options& options = {});

// The plan's table in double precision: table_size values.
std::vector<std::complex<double>> table_values(const Plan& plan);

// Bytes from the first to one past the last element of one side of a
// resolved descriptor (what fftmux_desc_layout reports, without libfftmux).
uint64_t side_bytes(const fftmux_desc& desc, bool input);

// Throws std::logic_error naming the rule a kernel breaks: the combinations
// of its modes (Mapping, Exchange, RealStep, stream, cluster) that the
// emitter supports. plan() checks every kernel it makes.
void validate(const Kernel& kernel);

// ---- Emission ----

// Source of one kernel. Bindings: 0 = src, 1 = dst, 2 = table, each a
// buffer of complex values of the kernel's precision; the workgroup count
// is split over x and y and a group_offset (push constant / uniform /
// kernel argument) is added to the linear workgroup index.
std::string emit(const Kernel& kernel, Dialect dialect);

// An empty compute shader in a GLSL dialect's version and extensions, as
// emit() writes them: what builds a compiler's tables for the dialect.
std::string empty_shader(Dialect dialect);

// The name of the entry point in emitted source ("main" for GLSL).
std::string entry_point(const Kernel& kernel, Dialect dialect);

} // namespace fftmux::codegen
