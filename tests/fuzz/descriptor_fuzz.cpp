// The descriptor path of the C API. Every descriptor gets a status and a
// message, the same from each entry point that validates; small valid ones
// become FFTW plans that run on host memory sized by fftmux_desc_layout,
// each array ending at an inaccessible page, or on backend buffers, and
// their results are checked against the reference.
//
// Input: one byte of options (bits 0-1 backend, 2-3 variant, 4 inverse,
// 5 buffers, 7 raw), then the descriptor: its raw bytes, or about a byte per
// field (see compact).
#include "fuzz.hpp"

#include <fftmux/fftmux.h>
#include <reference.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <fstream>

namespace {

namespace ref = fftmux::ref;

// Limits that keep one input to a fraction of a millisecond: larger
// transforms exercise no layout code that smaller ones do not.
constexpr int64_t max_points = 4096, max_elements = 16384;
constexpr uint64_t max_bytes = 1 << 20;

fftmux_context context = nullptr;

// Memory whose last byte sits just before a PROT_NONE page, so that a read
// or write past the end faults; the slack before the start is filled with
// a pattern checked afterwards.
class Guarded {
public:
  explicit Guarded(size_t size) : size_(size) {
    size_t page = size_t(sysconf(_SC_PAGESIZE));
    body_ = (size + page - 1) / page * page + page; // at least one page of slack
    map_ = static_cast<unsigned char*>(
        mmap(nullptr, body_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    fuzz::expect(map_ != MAP_FAILED, "mmap");
    mprotect(map_ + body_, page, PROT_NONE);
    std::memset(map_, pattern, body_ - size_);
  }
  ~Guarded() { munmap(map_, body_ + size_t(sysconf(_SC_PAGESIZE))); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;

  unsigned char* data() { return map_ + body_ - size_; }
  bool slack_intact() const {
    for (size_t i = 0; i < body_ - size_; ++i)
      if (map_[i] != pattern)
        return false;
    return true;
  }

private:
  static constexpr unsigned char pattern = 0xa5;
  size_t size_, body_;
  unsigned char* map_;
};

// A descriptor as the caller's raw bytes: extreme values of every field.
fftmux_desc raw(fuzz::Reader& in) {
  return in.take<fftmux_desc>();
}

// One byte as a number: the byte plus offset, mostly small; the six top
// values stand for the extremes that overflow checks are about.
int64_t number(uint8_t b, int64_t offset) {
  static const int64_t extremes[] = {INT64_MAX,        INT64_MIN, int64_t(1) << 62,
                                     int64_t(1) << 32, INT32_MAX, -1};
  return b >= 250 ? extremes[b - 250] : int64_t(b) + offset;
}

// A descriptor from one byte per field (two per distance): mostly small and
// valid, with invalid values (rank 0 or 4, n 0, unknown enums and flags)
// and extremes within reach.
fftmux_desc compact(fuzz::Reader& in) {
  fftmux_desc d;
  fftmux_desc_init(&d);
  d.rank = in.take<uint8_t>() % 5;
  for (int64_t& n : d.n)
    n = number(in.take<uint8_t>(), 0);
  uint8_t batch = in.take<uint8_t>();
  d.batch = batch >= 250 ? number(batch, 0) : batch % 5;
  d.kind = in.take<uint8_t>() % 4;
  d.precision = in.take<uint8_t>() % 3;
  d.norm = in.take<uint8_t>() % 5;
  d.placement = in.take<uint8_t>() % 3;
  d.flags = in.take<uint8_t>() % 16;
  for (int64_t* s : {d.in_strides, d.out_strides})
    for (int i = 0; i < FFTMUX_MAX_RANK; ++i)
      s[i] = number(in.take<uint8_t>(), -128);
  for (int64_t* distance : {&d.in_distance, &d.out_distance}) {
    uint8_t high = in.take<uint8_t>();
    *distance = high >= 250 ? number(high, 0) : int64_t(high) * 256 + in.take<uint8_t>() - 32768;
  }
  return d;
}

const char* const backends[] = {nullptr, "auto", "fftw", "none"};
const char* const variants[] = {nullptr, nullptr, "default", "bogus"};

// Validation through fftmux_desc_layout, fftmux_query and
// fftmux_plan_create: the same status everywhere, a message on failure.
fftmux_status validate(const fftmux_desc& d, fftmux_layout& l) {
  l.struct_size = sizeof l;
  fftmux_status v = fftmux_desc_layout(&d, &l);
  std::string why = fftmux_last_error();
  const std::string prefix = "fftmux_desc_layout: ";
  fuzz::expect(v == FFTMUX_OK || v == FFTMUX_ERROR_INVALID_ARGUMENT, "layout status");
  fuzz::expect(v == FFTMUX_OK ? why.empty()
                              : why.rfind(prefix, 0) == 0 && why.size() > prefix.size(),
               "a failure says why");
  fftmux_support s;
  fftmux_support_init(&s);
  fuzz::expect(fftmux_query(context, &d, "fftw", &s) == v, "query validates as layout does");
  bool wide = d.precision == FFTMUX_F32 || d.precision == FFTMUX_F64; // FFTW has no 16-bit types
  fuzz::expect(v != FFTMUX_OK || s.supported == (wide ? 1u : 0u),
               "fftw runs every valid F32 and F64 descriptor and declines F16 and BF16");
  fuzz::expect(s.supported || v != FFTMUX_OK || s.reason[0], "a decline says why");
  if (v != FFTMUX_OK) {
    fftmux_plan p = nullptr;
    fuzz::expect(fftmux_plan_create(context, &d, nullptr, &p) == v && !p,
                 "plan creation validates as layout does");
  }
  return v;
}

bool small(const fftmux_desc& d, const fftmux_layout& l) {
  int64_t points = 1;
  for (uint32_t i = 0; i < d.rank; ++i)
    points *= d.n[i];
  return points <= max_points && points * d.batch <= max_elements && l.in_bytes <= max_bytes &&
         l.out_bytes <= max_bytes;
}

int direction_of(const fftmux_desc& d, bool inverse) {
  if (d.kind == FFTMUX_R2C)
    return FFTMUX_FORWARD;
  if (d.kind == FFTMUX_C2R)
    return FFTMUX_INVERSE;
  return inverse ? FFTMUX_INVERSE : FFTMUX_FORWARD;
}

void check_result(const fftmux_desc& d, int direction, const std::vector<unsigned char>& input,
                  const void* result) {
  double err = ref::relative_error(ref::read_side(d, false, result),
                                   ref::expected(d, direction, input.data(), ref::Method::fftw));
  if (!(err <= ref::error_bound(d)))
    fuzz::broken("relative error " + std::to_string(err) + " above the bound " +
                 std::to_string(ref::error_bound(d)));
}

// Runs the plan on guarded host memory and checks the result, that an
// out-of-place input is left as it was, and that nothing before the
// buffers was written.
void run_on_host(fftmux_plan plan, const fftmux_desc& d, const fftmux_layout& l, int direction,
                 const std::vector<unsigned char>& input) {
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  Guarded in(in_place ? std::max(l.in_bytes, l.out_bytes) : l.in_bytes);
  Guarded out(in_place ? 1 : l.out_bytes);
  std::memcpy(in.data(), input.data(), input.size());
  unsigned char* result = in_place ? in.data() : out.data();
  fuzz::expect(fftmux_execute(plan, direction, in.data(), result) == FFTMUX_OK,
               "a valid plan runs");
  fuzz::expect(in.slack_intact() && out.slack_intact(), "nothing before the buffers is written");
  fuzz::expect(in_place || std::memcmp(in.data(), input.data(), input.size()) == 0,
               "an out-of-place input is left as it was");
  check_result(d, direction, input, result);
}

// The same through the backend's own buffers.
void run_on_buffers(fftmux_plan plan, const fftmux_desc& d, const fftmux_layout& l, int direction,
                    const std::vector<unsigned char>& input) {
  bool in_place = d.flags & FFTMUX_IN_PLACE;
  uint64_t in_size = in_place ? std::max(l.in_bytes, l.out_bytes) : l.in_bytes;
  fftmux_buffer in = nullptr, out = nullptr;
  fuzz::expect(
      fftmux_buffer_create_for_plan(plan, in_size, &in) == FFTMUX_OK &&
          (in_place || fftmux_buffer_create_for_plan(plan, l.out_bytes, &out) == FFTMUX_OK),
      "buffers of a plan's size are created");
  fuzz::expect(fftmux_buffer_write(in, 0, input.data(), input.size()) == FFTMUX_OK, "write");
  fuzz::expect(fftmux_execute_buffers(plan, direction, in, out) == FFTMUX_OK,
               "a valid plan runs on buffers");
  std::vector<unsigned char> result(in_place ? in_size : l.out_bytes);
  fuzz::expect(fftmux_buffer_read(in_place ? in : out, 0, result.data(), result.size()) ==
                   FFTMUX_OK,
               "read");
  fftmux_buffer_destroy(in);
  fftmux_buffer_destroy(out);
  check_result(d, direction, input, result.data());
}

void plan_and_run(const fftmux_desc& d, const fftmux_layout& l, uint8_t options) {
  fftmux_plan_options o;
  fftmux_plan_options_init(&o);
  o.backend = backends[options & 3];
  o.variant = variants[options >> 2 & 3];
  fftmux_plan plan = nullptr;
  fftmux_status s = fftmux_plan_create(context, &d, &o, &plan);
  fuzz::expect(s != FFTMUX_ERROR_INTERNAL && s != FFTMUX_ERROR_OUT_OF_MEMORY,
               "plan creation fails only for a reason");
  fuzz::expect((s == FFTMUX_OK) == (plan != nullptr), "a plan exactly when OK");
  if (!plan)
    return;
  fftmux_desc back;
  fftmux_desc_init(&back);
  fuzz::expect(fftmux_plan_desc(plan, &back) == FFTMUX_OK &&
                   std::memcmp(back.in_strides, l.in_strides, sizeof l.in_strides) == 0 &&
                   std::memcmp(back.out_strides, l.out_strides, sizeof l.out_strides) == 0,
               "the plan holds the layout that fftmux_desc_layout resolved");
  int direction = direction_of(d, options & 16);
  int wrong = d.kind == FFTMUX_C2C ? 0 : -direction;
  double x[2], y[2];
  fuzz::expect(fftmux_execute(plan, wrong, x, y) == FFTMUX_ERROR_INVALID_ARGUMENT,
               "a direction the plan does not run is refused");
  std::vector<unsigned char> input = ref::random_input(d, options);
  if (options & 32)
    run_on_buffers(plan, d, l, direction, input);
  else
    run_on_host(plan, d, l, direction, input);
  fuzz::expect(fftmux_plan_destroy(plan) == FFTMUX_OK, "plans are destroyed");
}

std::string temp_dir() {
  char name[] = "/tmp/fftmux-fuzz-XXXXXX";
  fuzz::expect(mkdtemp(name) != nullptr, "mkdtemp");
  return name;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // A cache and config of its own: FFTW alone, estimate planning, one thread.
  std::string dir = temp_dir();
  setenv("XDG_CACHE_HOME", (dir + "/cache").c_str(), 1);
  std::string config = dir + "/fftmux.toml";
  std::ofstream(config) << "[backends.fftw]\nplanner = \"estimate\"\nthreads = 1\n";
  fftmux_context_options o;
  fftmux_context_options_init(&o);
  o.config_path = config.c_str();
  // FFTW alone: the GPU backends on CPU drivers take a second per new plan.
  o.plugin_path = FFTW_PLUGIN_DIR "/fftw.toml";
  fuzz::expect(fftmux_context_create(&o, &context) == FFTMUX_OK, fftmux_last_error());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader in(data, size);
  uint8_t options = in.take<uint8_t>();
  fftmux_desc d = options & 0x80 ? raw(in) : compact(in);
  fftmux_layout l;
  if (validate(d, l) == FFTMUX_OK && small(d, l))
    plan_and_run(d, l, options);
  return 0;
}
