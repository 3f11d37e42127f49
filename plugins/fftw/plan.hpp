// An FFTW plan of one problem: both directions planned through the guru64
// interface on the caller's layout, plus the staging FFTW lacks (numpy
// shifts, normalization, a preserved C2R input, R2R's orthogonal weights,
// padded sides). fftw_backend.cpp is the plugin around it.
#pragma once

#include "fftw_api.hpp"
#include "layout.hpp"
#include "quirks.hpp"
#include "r2r.hpp"
#include "threads.hpp"
#include "transposed.hpp"

#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace fftmux::fftw {

using plugin::fail;
using plugin::packed;
using plugin::Shape;
using plugin::span;

// One per context, with a copy of that context's host table: the table is
// only valid during init (plugin.h), and one copy for the library would be
// rewritten by another context's init on another thread.
struct Backend {
  fftmux_host_v1 host{};
  int threads = 1;                    // a plan's default most threads
  std::string threads_from;           // where threads came from, and environment values ignored
  int64_t thread_threshold = 1 << 16; // smaller problems run on one thread
  double plan_seconds = 2;            // the most a measuring planner spends on a plan
  unsigned rigor = FFTW_ESTIMATE;     // the default variant's planner
  std::string wisdom_dir;
  bool wisdom_changed = false; // under planner
};

// The estimate planner's threads for a problem, as timed: the process's,
// as FFTW's planner is (under planner).
extern std::map<std::string, int> estimate_threads;

// FFTW's view of one side: guru dimensions and the batch loop.
struct Dims {
  fftw_iodim64 dims[FFTMUX_MAX_RANK];
  fftw_iodim64 batch;
  int rank;
};

Dims guru_dims(const fftmux_desc& d, const Shape& in, const Shape& out);

// Whether a side is laid out contiguously, as packed() lays it: its
// elements are one run of memory, copied or scaled in one loop.
bool is_packed(const Shape& s);

struct PlanBase {
  explicit PlanBase(Backend& backend) : b_(backend) {}
  virtual ~PlanBase() = default;
  virtual void execute(int direction, const void* in, void* out) = 0;
  virtual int threads() const = 0; // the most threads the plan runs on
  const fftmux_host_v1* host() const { return &b_.host; }

protected:
  Backend& b_;
};

template <class T> class Plan final : public PlanBase {
  using A = Api<T>;
  using Complex = typename A::complex;

public:
  // threads: the caller's count, used as is; 0: the backend's choice.
  Plan(Backend& backend, const fftmux_desc& d, unsigned rigor, int threads)
      : PlanBase(backend), d_(d), rigor_(rigor), asked_(threads) {
    user_in_ = plugin::shape(d, true);
    user_out_ = plugin::shape(d, false);
    padded_in_ = plugin::padded(d, true);
    stage_in_ = (d.flags & FFTMUX_SHIFT_INPUT) || (d.kind == FFTMUX_C2R && !in_place()) ||
                weighs_input() || padded_in_;
    stage_out_ = (d.flags & FFTMUX_SHIFT_OUTPUT) || plugin::padded(d, false);
    // A padded side's engine array is the whole side: the held input placed
    // in its zeroed corner, the output's wanted prefix copied out of it.
    engine_in_ = stage_in_ ? packed(plugin::shape(d, true, true)) : user_in_;
    engine_out_ = stage_out_ ? packed(plugin::shape(d, false, true)) : user_out_;
    if (stage_in_)
      scratch_in_.reset(alloc(span(engine_in_, d.batch) * width(engine_in_)));
    if (stage_out_)
      scratch_out_.reset(alloc(span(engine_out_, d.batch) * width(engine_out_)));
    Dims g = guru_dims(d, engine_in_, engine_out_);
    unaligned_only_ = std::is_same_v<T, float> && d.kind == FFTMUX_C2C &&
                      f32_c2c_crashes(g.rank, g.dims, g.batch);
    if (rigor == FFTW_ESTIMATE && plugin::points(d) * d.batch >= 4 * b_.thread_threshold)
      pieces_ =
          cut_batch(d.batch, threads ? threads : b_.threads, step(engine_in_) * int64_t(sizeof(T)),
                    step(engine_out_) * int64_t(sizeof(T)));
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      if (runs(dir))
        planned_[slot(dir)] = make(dir, unaligned_only_ ? FFTW_UNALIGNED : 0);
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      scale_[slot(dir)] = plugin::scale(d, dir);
    if (padded_in_) // the planner wrote into the scratch
      zero_input();
  }

  ~Plan() override { // a Transposed takes the lock itself, when its member goes
    std::lock_guard<std::mutex> lock(planner);
    for (auto* set : {&planned_, &unaligned_})
      for (Plans& p : *set)
        for (auto one : {p.whole, p.last})
          if (one)
            A::destroy(one);
  }

  int threads() const override { return std::max(threads_[0], threads_[1]); }

  void execute(int dir, const void* in, void* out) override {
    const T* src = static_cast<const T*>(in);
    T s = T(scale_[slot(dir)]);
    if (stage_in_) { // the transform is linear: the input's copy scales it, one pass fewer
      if (padded_in_ && d_.kind == FFTMUX_C2R) // FFTW's c2r overwrote the zeros last time
        zero_input();
      gather(src, scratch_in_.get(), s);
      weigh(scratch_in_.get(), engine_in_, dir, true);
      src = scratch_in_.get();
      s = 1;
    }
    T* dst = stage_out_ ? scratch_out_.get() : static_cast<T*>(out);
    run(dir, const_cast<T*>(src), dst);
    if (stage_out_)
      scatter(dst, static_cast<T*>(out), s);
    else if (s != 1)
      rescale(static_cast<T*>(out), s);
    weigh(static_cast<T*>(out), user_out_, dir, false);
  }

private:
  struct Free {
    void operator()(T* p) const { A::free(p); }
  };
  using Memory = std::unique_ptr<T, Free>;

  bool in_place() const { return d_.flags & FFTMUX_IN_PLACE; }
  bool engine_in_place() const { return in_place() && !stage_in_ && !stage_out_; }
  bool runs(int dir) const {
    return d_.kind == FFTMUX_C2C || d_.kind == FFTMUX_R2R ||
           (d_.kind == FFTMUX_R2C) == (dir == FFTMUX_FORWARD);
  }
  bool orthogonalized() const { return d_.kind == FFTMUX_R2R && d_.norm == FFTMUX_NORM_ORTHO; }
  // Whether ORTHO weighs some input plane in either direction: the input is
  // then staged, so that an out-of-place input stays as it was.
  bool weighs_input() const {
    for (uint32_t i = 0; orthogonalized() && i < d_.rank; ++i)
      for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
        if (!ortho_planes(geometry::r2r_kind(d_, i, dir), d_.n[i], true).empty())
          return true;
    return false;
  }
  static int slot(int dir) { return dir == FFTMUX_FORWARD ? 0 : 1; }
  static int64_t width(const Shape& s) { return s.complex ? 2 : 1; }
  static int64_t step(const Shape& s) { return s.distance * width(s); } // Ts between transforms

  // A direction's plans: of the batch, or of a piece and of the last piece
  // where it holds fewer transforms (pieces_).
  struct Plans {
    typename A::plan whole = nullptr, last = nullptr;
    bool pieces = false;                                       // whole is a piece's plan
    std::shared_ptr<const Transposed<T>> transposed = nullptr; // instead of whole (transposed.hpp)
  };

  static T* alloc(int64_t count) {
    T* p = static_cast<T*>(A::malloc(size_t(count) * sizeof(T)));
    if (!p)
      fail(FFTMUX_ERROR_OUT_OF_MEMORY,
           "fftw_malloc of " + std::to_string(count * int64_t(sizeof(T))) + " bytes failed");
    return p;
  }

  // Plans one direction. FFTW_MEASURE overwrites its arrays, so the user
  // sides are planned on scratch memory of the same span; a plan made while
  // executing (extra: FFTW_UNALIGNED) on memory of its own, since the
  // scratch then holds data.
  Plans make(int dir, unsigned extra) {
    Memory tmp_in, tmp_out;
    T* in = extra ? nullptr : scratch_in_.get();
    T* out = extra ? nullptr : scratch_out_.get();
    int64_t in_count = span(engine_in_, d_.batch) * width(engine_in_);
    int64_t out_count = span(engine_out_, d_.batch) * width(engine_out_);
    if (engine_in_place()) {
      tmp_in.reset(alloc(std::max(in_count, out_count)));
      in = out = tmp_in.get();
    } else {
      if (!in)
        tmp_in.reset(in = alloc(in_count));
      if (!out)
        tmp_out.reset(out = alloc(out_count));
    }
    std::lock_guard<std::mutex> lock(planner);
    A::set_timelimit(b_.plan_seconds); // bounds the measuring planners (FFTW_NO_TIMELIMIT: -1)
    b_.wisdom_changed = b_.wisdom_changed || rigor_ != FFTW_ESTIMATE;
    if (transposed_path())
      return make_transposed(dir, extra, in, out);
    if (pieces_.count > 1) {
      // The measure variant's wisdom of the whole batch (autotune's) serves
      // it as it is: a measured threaded plan is not one of the bad ones.
      int threads = asked_ ? asked_ : b_.threads;
      if (typename A::plan p =
              plan_on(threads, dir, FFTW_MEASURE | FFTW_WISDOM_ONLY | extra, in, out, 0, true)) {
        threads_[slot(dir)] = threads;
        return {p};
      }
      int each = pieces_.threads;
      threads_[slot(dir)] = int(pieces_.count) * each;
      Plans p{plan_on(each, dir, rigor_ | extra, in, out, pieces_.size), nullptr, true};
      if (pieces_.last(d_.batch) != pieces_.size)
        p.last = plan_on(each, dir, rigor_ | extra, in, out, pieces_.last(d_.batch));
      return p;
    }
    return {make_whole(dir, extra, in, out, in_count, out_count)};
  }

  // An estimated C2C, or 2D R2C out of place, on packed sides with a strided axis stepping a
  // multiple of 512 bytes: lines and transposes (transposed.hpp, rows_transposed).
  bool transposed_path() const {
    return rigor_ == FFTW_ESTIMATE && rows_transposed(d_) &&
           !(geometry::halved_kind(d_) && engine_in_place()) && is_packed(engine_in_) &&
           is_packed(engine_out_);
  }

  // The measure variant's wisdom of the problem (autotune's, on the backend's threads) where it
  // has some, else the transposed path: its lines on those threads, or one for a small problem.
  Plans make_transposed(int dir, unsigned extra, T* in, T* out) {
    int threads = asked_ ? asked_ : b_.threads;
    threads_[slot(dir)] = threads;
    if (typename A::plan p =
            plan_on(threads, dir, FFTW_MEASURE | FFTW_WISDOM_ONLY | extra, in, out, 0, true))
      return {p};
    if (!asked_ && plugin::points(d_) * d_.batch < b_.thread_threshold)
      threads = threads_[slot(dir)] = 1;
    if (!lines_scratch_) // one for both directions and their unaligned plans (under planner)
      lines_scratch_.reset(alloc(2 * transposed_scratch(d_)));
    Plans p;
    p.transposed = std::make_shared<Transposed<T>>(
        d_, step(engine_in_), step(engine_out_), dir, extra, threads, in, out,
        reinterpret_cast<Complex*>(lines_scratch_.get()));
    return p;
  }

  // The batch's plan on FFTW's threads, or on one where that runs faster.
  typename A::plan make_whole(int dir, unsigned extra, T* in, T* out, int64_t in_count,
                              int64_t out_count) {
    // Waking threads costs more than small transforms take.
    int64_t work = plugin::points(d_) * d_.batch;
    std::string key = thread_key();
    auto timed_threads = estimate_threads.find(key);
    bool decided = timed_threads != estimate_threads.end();
    int& threads = threads_[slot(dir)];
    if (!extra && asked_)
      threads = asked_;
    else if (!extra)
      threads = work < b_.thread_threshold ? 1 : decided ? timed_threads->second : b_.threads;
    typename A::plan p = plan_on(threads, dir, rigor_ | extra, in, out);
    int64_t points = plugin::points(d_);
    if (!extra && !asked_ && rigor_ == FFTW_ESTIMATE && threads > 1 && !decided &&
        points <= thread_check_points) {
      // Timed on at most thread_check_points points: the batch cut to fit.
      int64_t batch = std::min(d_.batch, std::max<int64_t>(1, thread_check_points / points));
      std::fill(in, in + (engine_in_place() ? std::max(in_count, out_count) : in_count), T(0));
      typename A::plan one = plan_on(1, dir, rigor_, in, out, batch);
      typename A::plan many = batch == d_.batch ? p : plan_on(threads, dir, rigor_, in, out, batch);
      bool single = faster(one, many);
      if (many != p)
        A::destroy(many);
      if (single) {
        A::destroy(p);
        p = batch == d_.batch ? one : plan_on(1, dir, rigor_, in, out);
        threads = 1;
      }
      if (p != one)
        A::destroy(one);
      estimate_threads[key] = threads; // the other direction, and later plans, follow
    }
    return p;
  }

  // The problem as FFTW sees it, for the thread check's memory.
  std::string thread_key() const {
    Dims g = guru_dims(d_, engine_in_, engine_out_);
    std::string k = geometry::kind_text(d_) + ' ' + std::to_string(sizeof(T)) + ' ' +
                    std::to_string(b_.threads);
    for (const fftw_iodim64& i : g.dims)
      k += ' ' + std::to_string(i.n) + ' ' + std::to_string(i.is) + ' ' + std::to_string(i.os);
    return k + ' ' + std::to_string(g.batch.n) + ' ' + std::to_string(g.batch.is) + ' ' +
           std::to_string(g.batch.os) + (engine_in_place() ? " in" : " out");
  }

  // A plan of the problem, or of its first `batch` transforms; null where
  // `may_fail` (FFTW_WISDOM_ONLY without wisdom).
  typename A::plan plan_on(int threads, int dir, unsigned flags, T* in, T* out, int64_t batch = 0,
                           bool may_fail = false) {
    Dims g = guru_dims(d_, engine_in_, engine_out_);
    if (batch)
      g.batch.n = batch;
    A::plan_with_nthreads(threads);
    typename A::plan p = nullptr;
    if (d_.kind == FFTMUX_C2C)
      p = A::dft(g.rank, g.dims, 1, &g.batch, reinterpret_cast<Complex*>(in),
                 reinterpret_cast<Complex*>(out), dir, flags);
    else if (d_.kind == FFTMUX_R2C)
      p = A::r2c(g.rank, g.dims, 1, &g.batch, in, reinterpret_cast<Complex*>(out), flags);
    else if (d_.kind == FFTMUX_R2R)
      p = A::r2r(g.rank, g.dims, 1, &g.batch, in, out, r2r_kinds(dir).data(), flags);
    else
      p = A::c2r(g.rank, g.dims, 1, &g.batch, reinterpret_cast<Complex*>(in), out, flags);
    if (!p && !may_fail)
      fail(FFTMUX_ERROR_UNSUPPORTED, "FFTW could not plan this layout");
    return p;
  }

  // Whether a runs faster than b, by one timed execution each after a
  // warm-up: FFTW_ESTIMATE's threaded plans can be far slower than its
  // one-thread plans (R2C 45x45x45 on 2 threads 105 ms, on one 0.5 ms;
  // x46 on an H200 machine's 16 threads 3.2 s: docs/fftw.md), and the
  // estimate planner does not time them. Done on at most
  // thread_check_points points (the batch cut to fit), so that three
  // executions cost little next to the plan; transforms of more points
  // than that keep the threads.
  static bool faster(typename A::plan a, typename A::plan b) {
    auto seconds = [](typename A::plan p) {
      auto start = std::chrono::steady_clock::now();
      A::execute(p);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    A::execute(a); // both warm: a threaded plan's first run also starts FFTW's threads
    A::execute(b);
    double tb = seconds(b);
    return seconds(a) < tb;
  }

  // FFTW's new-array execute needs the planning arrays' alignment; callers'
  // arrays that lack it get a plan made with FFTW_UNALIGNED, once.
  const Plans& pick(int dir, T* in, T* out) {
    if (unaligned_only_ || (A::alignment_of(in) == 0 && A::alignment_of(out) == 0))
      return planned_[slot(dir)];
    std::call_once(unaligned_once_[slot(dir)],
                   [&] { unaligned_[slot(dir)] = make(dir, FFTW_UNALIGNED); });
    return unaligned_[slot(dir)];
  }

  // The batch, or its pieces side by side, each on its own thread.
  void run(int dir, T* in, T* out) {
    const Plans& p = pick(dir, in, out);
    if (p.transposed)
      return p.transposed->run(in, out);
    if (!p.pieces)
      return run_one(p.whole, in, out);
    auto piece = [&](int64_t k) {
      int64_t first = k * pieces_.size;
      run_one(p.last && k + 1 == pieces_.count ? p.last : p.whole, in + first * step(engine_in_),
              out + first * step(engine_out_));
    };
    side_by_side(pieces_.count, piece);
  }

  // f(k) for each k in [0, count), each on a thread of its own (k = 0 on
  // the caller's).
  template <class F> static void side_by_side(int64_t count, F&& f) {
    std::vector<std::thread> pool;
    for (int64_t k = 1; k < count; ++k)
      pool.emplace_back(f, k);
    f(int64_t(0));
    for (std::thread& t : pool)
      t.join();
  }

  void run_one(typename A::plan p, T* in, T* out) {
    if (d_.kind == FFTMUX_C2C)
      A::run_dft(p, reinterpret_cast<Complex*>(in), reinterpret_cast<Complex*>(out));
    else if (d_.kind == FFTMUX_R2C)
      A::run_r2c(p, in, reinterpret_cast<Complex*>(out));
    else if (d_.kind == FFTMUX_R2R)
      A::run_r2r(p, in, out);
    else
      A::run_c2r(p, reinterpret_cast<Complex*>(in), out);
  }

  // FFTW's kind of each axis in direction dir.
  std::array<fftw_r2r_kind, FFTMUX_MAX_RANK> r2r_kinds(int dir) const {
    std::array<fftw_r2r_kind, FFTMUX_MAX_RANK> k{};
    for (uint32_t i = 0; i < d_.rank; ++i)
      k[i] = fftw_kind(geometry::r2r_kind(d_, i, dir));
    return k;
  }

  // ORTHO's weights on one side (the staged input, or the output) of an R2R
  // plan in direction dir: each weighed plane of each axis scaled in place.
  void weigh(T* data, const Shape& side, int dir, bool input) const {
    int offset = FFTMUX_MAX_RANK - int(d_.rank);
    for (uint32_t i = 0; orthogonalized() && i < d_.rank; ++i)
      for (Plane plane : ortho_planes(geometry::r2r_kind(d_, i, dir), d_.n[i], input)) {
        Shape one = side; // the plane: its axis cut to one element
        one.extent[offset + i] = 1;
        T* at = data + plane.index * side.stride[offset + i];
        Map m = map(one, false);
        walk(one.extent, d_.batch, m, m, [&](int64_t u, int64_t) { at[u] *= T(plane.factor); });
      }
  }

  static Map map(const Shape& s, bool shifted) {
    return strided_map(s.extent, s.stride, s.distance, shifted ? s.shift_axes : 0);
  }

  template <class F> void walk_side(const Shape& a, bool shift, const Shape& b, F&& f) const {
    walk(a.extent, d_.batch, map(a, shift), map(b, false), f);
  }

  // f(begin, end) over [0, n), split among the plan's threads where n is
  // large enough to pay for starting them: the staging copy and the scaling
  // run as wide as the transform (C2R 4096 x1024 on an H100 machine's 16
  // threads: FFTW 2 ms of 12).
  template <class F> void in_parallel(int64_t n, F&& f) const { in_parts(n, copy_threads(n), f); }

  // The threads a copy of n scalars runs on.
  int copy_threads(int64_t n) const {
    return n < 4 * b_.thread_threshold ? 1 : asked_ ? asked_ : b_.threads;
  }

  // f(begin, end) over [0, n) in `threads` parts side by side.
  template <class F> void in_parts(int64_t n, int threads, F&& f) const {
    int64_t step = (n + threads - 1) / threads;
    side_by_side(threads,
                 [&](int64_t i) { f(std::min(n, i * step), std::min(n, (i + 1) * step)); });
  }

  // The user's input into the packed scratch, times s.
  void gather(const T* user, T* packed, T s) const {
    bool shift = d_.flags & FFTMUX_SHIFT_INPUT;
    int64_t w = width(user_in_);
    auto times = [s](T v) { return v * s; };
    if (!shift && !padded_in_ && is_packed(user_in_)) // C2R 4096 x1024: 20 -> 6.6 ms
      return in_parallel(span(user_in_, d_.batch) * w, [&](int64_t a, int64_t b) {
        if (s == 1)
          std::copy(user + a, user + b, packed + a);
        else
          std::transform(user + a, user + b, packed + a, times);
      });
    if (!shift && padded_in_ && user_in_.stride[2] == 1) // the held rows as runs
      return held_rows([&](int64_t u, int64_t p, int64_t n) {
        std::transform(user + u * w, user + (u + n) * w, packed + p * w, times);
      });
    walk_side(user_in_, shift, engine_in_, [&](int64_t u, int64_t p) {
      std::transform(user + u * w, user + (u + 1) * w, packed + p * w, times);
    });
  }

  // f(user element, engine element, count) for each row of the padded
  // input's held corner, where its last axis is contiguous: one copy a row,
  // not a call an element.
  template <class F> void held_rows(F&& f) const {
    const Shape &u = user_in_, &e = engine_in_;
    int64_t rows = d_.batch * u.extent[0] * u.extent[1];
    in_parts(rows, copy_threads(rows * u.extent[2]), [&](int64_t a, int64_t b) {
      for (int64_t r = a; r < b; ++r) {
        int64_t j = r % u.extent[1], i = r / u.extent[1] % u.extent[0];
        int64_t k = r / (u.extent[1] * u.extent[0]);
        f(k * u.distance + i * u.stride[0] + j * u.stride[1],
          k * e.distance + i * e.stride[0] + j * e.stride[1], u.extent[2]);
      }
    });
  }

  // The padded input's engine array all zero: the gather then fills only
  // the held corner, so the rest reads as zero.
  void zero_input() {
    T* p = scratch_in_.get();
    in_parallel(span(engine_in_, d_.batch) * width(engine_in_),
                [&](int64_t a, int64_t b) { std::fill(p + a, p + b, T(0)); });
  }

  void scatter(const T* packed, T* user, T s) const {
    int64_t w = width(user_out_);
    walk_side(user_out_, d_.flags & FFTMUX_SHIFT_OUTPUT, engine_out_, [&](int64_t u, int64_t p) {
      for (int64_t c = 0; c < w; ++c)
        user[u * w + c] = packed[p * w + c] * s;
    });
  }

  void rescale(T* user, T s) const {
    int64_t w = width(user_out_);
    if (is_packed(user_out_))
      return in_parallel(span(user_out_, d_.batch) * w, [&](int64_t a, int64_t b) {
        std::for_each(user + a, user + b, [s](T& v) { v *= s; });
      });
    walk_side(user_out_, false, user_out_, [&](int64_t u, int64_t) {
      for (int64_t c = 0; c < w; ++c)
        user[u * w + c] *= s;
    });
  }

  fftmux_desc d_;
  unsigned rigor_;
  int asked_; // the caller's threads; 0: the backend's choice
  Shape user_in_, user_out_, engine_in_, engine_out_;
  bool stage_in_ = false, stage_out_ = false;
  bool padded_in_ = false;      // the input holds part of each axis (in_extent)
  bool unaligned_only_ = false; // planned FFTW_UNALIGNED (quirks.hpp): any pointer runs
  int threads_[2] = {1, 1};     // each direction's plan's threads
  static constexpr int64_t thread_check_points = int64_t(1) << 20;
  Memory scratch_in_, scratch_out_;
  Memory lines_scratch_; // the transposed path's (transposed.hpp), made with its first plan
  Pieces pieces_;        // the batch's pieces, when threads run them
  std::array<Plans, 2> planned_{}, unaligned_{}; // per direction
  double scale_[2] = {1, 1};                     // per direction, computed once
  std::once_flag unaligned_once_[2];
};

} // namespace fftmux::fftw
