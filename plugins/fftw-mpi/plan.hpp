// A distributed FFTW-MPI plan of one problem on one rank: both directions
// planned collectively over a duplicate of the caller's communicator, plus
// the shifts and the norm FFTW-MPI lacks (modulate.hpp).
#pragma once

#include "comm.hpp"
#include "modulate.hpp"
#include "mpi_api.hpp"
#include "slabs.hpp"

#include <fftmux/plugin_support.hpp>

#include <array>
#include <memory>
#include <mutex>
#include <string>

namespace fftmux::fftw_mpi {

using plugin::fail;

// One per context: a copy of its host table and its settings.
struct Backend {
  fftmux_host_v1 host{};
  int threads = 1; // per rank, unless a plan asks otherwise
  unsigned rigor = FFTW_ESTIMATE;
};

// The decomposition a problem runs: the caller's, or the one its GIVEN boxes
// match on every rank. Collective; throws the agreed failure.
uint32_t decomposition_of(const fftmux_desc& d, const fftmux_distribution& dist, const Comm& comm);

// Why FFTW-MPI cannot run the problem in decomposition (not GIVEN); "" where it can.
std::string unsupported(const fftmux_desc& d, uint32_t decomposition);

// Every rank's failure is every rank's: runs body, then agrees on how it went.
template <class Body> void together(const Comm& comm, Body&& body) {
  fftmux_agreement_v1 a{};
  a.struct_size = sizeof a;
  auto failed = [&a](fftmux_status s, const char* message) {
    a.status = s;
    std::snprintf(a.message, sizeof a.message, "%s", message);
  };
  try {
    body();
  } catch (const plugin::Failure& e) {
    failed(e.status, e.what());
  } catch (const std::bad_alloc&) {
    failed(FFTMUX_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception& e) {
    failed(FFTMUX_ERROR_INTERNAL, e.what());
  }
  agree(comm, a);
  if (a.status != FFTMUX_OK)
    fail(fftmux_status(a.status), a.message);
}

struct PlanBase {
  PlanBase(Backend& b, uint64_t comm) : b_(b), comm_(comm) {}
  virtual ~PlanBase() = default;
  virtual void execute(int direction, const void* in, void* out) = 0;
  // The agreement before an execution, on the arrays too (plugin.h).
  virtual void agree_execution(fftmux_agreement_v1& a) = 0;
  const fftmux_host_v1* host() const { return &b_.host; }
  const Comm& comm() const { return comm_; }
  const Local& local() const { return local_; }
  int threads() const { return threads_; }
  virtual uint64_t scalar_bytes() const = 0;

protected:
  Backend& b_;
  Comm comm_;
  Local local_;
  int threads_ = 1;
};

template <class T> class Plan final : public PlanBase {
  using A = Api<T>;
  using Complex = typename A::complex;

public:
  Plan(Backend& b, const fftmux_desc& d, const fftmux_distribution& dist, int threads)
      : PlanBase(b, dist.comm), d_(d) {
    threads_ = threads ? threads : b.threads;
    decomposition_ = decomposition_of(d, dist, comm_);
    local_ = slabs(d, decomposition_, comm_.get());
    for (int dir : {FFTMUX_FORWARD, FFTMUX_INVERSE})
      if (runs(dir))
        planned_[slot(dir)] = make(dir, 0);
  }

  ~Plan() override {
    int finalized = 0; // FFTW-MPI's plans free communicators: after MPI_Finalize, leave them
    MPI_Finalized(&finalized);
    for (auto* set : {&planned_, &unaligned_})
      for (auto p : *set)
        if (p && !finalized)
          A::destroy(p);
  }

  uint64_t scalar_bytes() const override { return sizeof(T); }

  void execute(int dir, const void* in, void* out) override {
    T* src = const_cast<T*>(static_cast<const T*>(in));
    T* dst = static_cast<T*>(out);
    typename A::plan p = pick(dir);
    double s = plugin::scale(d_, dir);
    unsigned pre = shifted(false), post = shifted(true); // SHIFT_OUTPUT before, SHIFT_INPUT after
    bool after = post || (s != 1 && !pre);
    if (pre)
      modulate(src, d_.kind != FFTMUX_R2C, local_.in, d_, pre, dir, after ? 1 : s);
    if (d_.kind == FFTMUX_C2C)
      A::run_dft(p, reinterpret_cast<Complex*>(src), reinterpret_cast<Complex*>(dst));
    else if (d_.kind == FFTMUX_R2C)
      A::run_r2c(p, src, reinterpret_cast<Complex*>(dst));
    else
      A::run_c2r(p, reinterpret_cast<Complex*>(src), dst);
    if (after)
      modulate(dst, d_.kind != FFTMUX_C2R, local_.out, d_, post, dir,
               s * commuted(d_, pre & post, dir));
  }

private:
  struct Free {
    void operator()(T* p) const { A::free(p); }
  };
  using Memory = std::unique_ptr<T, Free>;

  bool runs(int dir) const {
    return d_.kind == FFTMUX_C2C || (d_.kind == FFTMUX_R2C) == (dir == FFTMUX_FORWARD);
  }
  static int slot(int dir) { return dir == FFTMUX_FORWARD ? 0 : 1; }

  // The axes a side's phase runs along: the other side's shift's. output:
  // the phase of SHIFT_INPUT, on the output; else SHIFT_OUTPUT's, on the input.
  unsigned shifted(bool output) const {
    if (!(d_.flags & (output ? FFTMUX_SHIFT_INPUT : FFTMUX_SHIFT_OUTPUT)))
      return 0;
    unsigned all = (1u << d_.rank) - 1, last = 1u << (d_.rank - 1);
    bool halved = output ? d_.kind == FFTMUX_C2R : d_.kind == FFTMUX_R2C; // the shifted side
    return halved ? all & ~last : all;
  }

  // Plans one direction on memory of its own (a measuring planner
  // overwrites it); extra: FFTW_UNALIGNED, for callers' arrays of another
  // alignment. Collective, and so is its failure.
  typename A::plan make(int dir, unsigned extra) {
    Memory in, out;
    together(comm_, [&] {
      in.reset(static_cast<T*>(A::malloc(size_t(local_.alloc) * 2 * sizeof(T))));
      if (!(d_.flags & FFTMUX_IN_PLACE))
        out.reset(static_cast<T*>(A::malloc(size_t(local_.alloc) * 2 * sizeof(T))));
      if (!in || (!out && !(d_.flags & FFTMUX_IN_PLACE)))
        fail(FFTMUX_ERROR_OUT_OF_MEMORY,
             "fftw_malloc of " + std::to_string(local_.alloc * 2 * sizeof(T)) + " bytes failed");
    });
    T* i = in.get();
    T* o = out ? out.get() : i;
    ptrdiff_t n[FFTMUX_MAX_RANK];
    std::copy(d_.n, d_.n + FFTMUX_MAX_RANK, n);
    unsigned flags = b_.rigor | extra |
                     (decomposition_ == FFTMUX_SLABS_TRANSPOSED_OUT ? FFTW_MPI_TRANSPOSED_OUT : 0) |
                     (decomposition_ == FFTMUX_SLABS_TRANSPOSED_IN ? FFTW_MPI_TRANSPOSED_IN : 0);
    typename A::plan p = nullptr;
    together(comm_, [&] {
      std::lock_guard<std::mutex> lock(planner());
      A::plan_with_nthreads(threads_);
      const ptrdiff_t block = FFTW_MPI_DEFAULT_BLOCK;
      int r = int(d_.rank);
      MPI_Comm c = comm_.get();
      if (d_.kind == FFTMUX_C2C)
        p = A::dft(r, n, d_.batch, block, block, reinterpret_cast<Complex*>(i),
                   reinterpret_cast<Complex*>(o), c, dir, flags);
      else if (d_.kind == FFTMUX_R2C)
        p = A::r2c(r, n, d_.batch, block, block, i, reinterpret_cast<Complex*>(o), c, flags);
      else
        p = A::c2r(r, n, d_.batch, block, block, reinterpret_cast<Complex*>(i), o, c, flags);
      if (!p)
        fail(FFTMUX_ERROR_UNSUPPORTED, "FFTW-MPI could not plan " +
                                           std::string(dir < 0 ? "the forward" : "the inverse") +
                                           " transform of this problem");
    });
    return p;
  }

public:
  // FFTW's new-array execute needs the planning arrays' alignment: where any
  // rank's arrays lack it, every rank runs a plan made FFTW_UNALIGNED, once.
  // Learnt in the agreement's own collective step.
  void agree_execution(fftmux_agreement_v1& a) override {
    odd_ = a.in && (A::alignment_of(static_cast<T*>(const_cast<void*>(a.in))) != 0 ||
                    (a.out && A::alignment_of(static_cast<T*>(const_cast<void*>(a.out))) != 0));
    agree(comm_, a, &odd_);
  }

private:
  typename A::plan pick(int dir) {
    if (!odd_)
      return planned_[slot(dir)];
    if (!unaligned_[slot(dir)])
      unaligned_[slot(dir)] = make(dir, FFTW_UNALIGNED);
    return unaligned_[slot(dir)];
  }

  static std::mutex& planner() {
    static std::mutex m;
    return m;
  }

  fftmux_desc d_;
  uint32_t decomposition_ = FFTMUX_SLABS;
  int odd_ = 0; // whether some rank's arrays of the coming execution lack the alignment
  std::array<typename A::plan, 2> planned_{}, unaligned_{}; // per direction
};

} // namespace fftmux::fftw_mpi
