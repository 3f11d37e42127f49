// The distributed CPU backend: FFTW's MPI interface (plan.hpp) behind the
// plugin table's distributed entries. Plans that are not distributed are
// declined: the fftw backend runs those.
#include "plan.hpp"

#include <fftmux/plugin_table.hpp>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <vector>

namespace fftmux::fftw_mpi {
namespace {

using plugin::guarded;

using plugin::setting;

int threads_of(const fftmux_host_v1* host) {
  std::string v = setting(host, "threads", "1");
  char* end = nullptr;
  errno = 0;
  long n = std::strtol(v.c_str(), &end, 10);
  if (*end || errno || n < 1 || n > long(FFTMUX_MAX_THREADS))
    fail(FFTMUX_ERROR_INVALID_ARGUMENT, "[backends.fftw-mpi] threads = \"" + v +
                                            "\": use a whole number from 1 to " +
                                            std::to_string(FFTMUX_MAX_THREADS));
  return int(n);
}

// FFTW's threads, its planner's lock, then its MPI part: once per process,
// MPI initialized.
void setup_fftw() {
  static const bool ready = [] {
    bool ok = Api<double>::init_threads() && Api<float>::init_threads();
    Api<double>::make_planner_thread_safe();
    Api<float>::make_planner_thread_safe();
    Api<double>::mpi_init();
    Api<float>::mpi_init();
    return ok;
  }();
  if (!ready)
    fail(FFTMUX_ERROR_BACKEND, "fftw_init_threads failed");
}

std::string mpi_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, size_t(length));
  return s.substr(0, s.find_first_of(",\n"));
}

using plugin::cpu_model;

// ---- the table's functions ----

fftmux_status init(const fftmux_host_v1* h, void** out) {
  return guarded(h, [&] {
    auto b = std::make_unique<Backend>();
    b->host = *h;
    const char* env = std::getenv("FFTMUX_MPI_INIT");
    if (plugin::flag("fftw-mpi", "init_mpi", setting(h, "init_mpi", env && *env ? env : "false")))
      init_mpi();
    if (std::string why = mpi_unusable(); !why.empty())
      fail(FFTMUX_ERROR_UNAVAILABLE, why);
    b->threads = threads_of(h);
    std::string planner = setting(h, "planner", "estimate");
    if (planner != "estimate" && planner != "measure")
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "[backends.fftw-mpi] planner = \"" + planner + "\": use estimate or measure");
    b->rigor = planner == "estimate" ? FFTW_ESTIMATE : FFTW_MEASURE;
    setup_fftw();
    *out = b.release();
  });
}

void shutdown(void* p) {
  delete static_cast<Backend*>(p);
}

fftmux_status about(void* p, fftmux_about_v1* a) {
  auto* b = static_cast<Backend*>(p);
  return guarded(&b->host, [&] {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::string mpi = mpi_version(), cpu = cpu_model();
    std::snprintf(a->devices, sizeof a->devices, "CPU: %s, %d ranks of %s, %d threads a rank",
                  cpu.c_str(), ranks, mpi.c_str(), b->threads);
    std::snprintf(a->hardware_key, sizeof a->hardware_key, "%s; %s; cpu %s; ranks %d; threads %d",
                  fftw_version, mpi.c_str(), cpu.c_str(), ranks, b->threads);
  });
}

const std::vector<const char*> variants = {"default"};

fftmux_status query(void* p, const fftmux_desc*, uint32_t, fftmux_answer_v1* a) {
  return guarded(&static_cast<Backend*>(p)->host, [&] {
    a->supported = 0;
    std::snprintf(a->reason, sizeof a->reason, "%s",
                  "fftw-mpi runs distributed plans only (fftmux_plan_create_distributed)");
  });
}

fftmux_status plan_create(void* p, const fftmux_desc*, uint32_t, void**) {
  return guarded(&static_cast<Backend*>(p)->host, [&] {
    fail(FFTMUX_ERROR_UNSUPPORTED,
         "fftw-mpi runs distributed plans only (fftmux_plan_create_distributed)");
  });
}

fftmux_status plan_create_v2(void* p, const fftmux_desc* d, uint32_t v, fftmux_plan_params_v1*,
                             void** out) {
  return plan_create(p, d, v, out);
}

void plan_destroy(void* plan) {
  delete static_cast<PlanBase*>(plan);
}

fftmux_status execute(void* plan, int direction, const void* in, void* out) {
  auto* p = static_cast<PlanBase*>(plan);
  return guarded(p->host(), [&] { p->execute(direction, in, out); });
}

// No buffers of its own, no queues: HOST plans only.
constexpr std::nullptr_t execute_buffers = nullptr, synchronize = nullptr, buffer_alloc = nullptr,
                         buffer_wrap = nullptr, buffer_free = nullptr, buffer_write = nullptr,
                         buffer_read = nullptr, buffer_native = nullptr;

fftmux_status distributed_agree(void* p, uint64_t comm, void* plan, fftmux_agreement_v1* a) {
  return guarded(&static_cast<Backend*>(p)->host, [&] {
    if (plan)
      return static_cast<PlanBase*>(plan)->agree_execution(*a);
    Comm c(comm);
    agree(c, *a);
  });
}

fftmux_status query_distributed(void* p, const fftmux_desc* d, uint32_t variant,
                                const fftmux_distribution* dist, fftmux_answer_v1* a) {
  return guarded(&static_cast<Backend*>(p)->host, [&] {
    if (variant != 0)
      fail(FFTMUX_ERROR_INVALID_ARGUMENT,
           "variant " + std::to_string(variant) + " does not exist (0: default)");
    std::string why = dist->decomposition == FFTMUX_GIVEN ? unsupported(*d, FFTMUX_SLABS)
                                                          : unsupported(*d, dist->decomposition);
    a->supported = why.empty();
    std::snprintf(a->reason, sizeof a->reason, "%s", why.c_str());
  });
}

fftmux_status plan_create_distributed(void* p, const fftmux_desc* d, uint32_t,
                                      fftmux_plan_params_v1* params,
                                      const fftmux_distribution* dist, void** out) {
  auto& b = *static_cast<Backend*>(p);
  return guarded(&b.host, [&] {
    std::unique_ptr<PlanBase> plan;
    int threads = int(params->threads);
    if (d->precision == FFTMUX_F64)
      plan = std::make_unique<Plan<double>>(b, *d, *dist, threads);
    else
      plan = std::make_unique<Plan<float>>(b, *d, *dist, threads);
    params->threads = uint32_t(plan->threads());
    *out = plan.release();
  });
}

fftmux_status plan_local(void* plan, fftmux_box* in, fftmux_box* out, uint64_t* in_bytes,
                         uint64_t* out_bytes) {
  auto* p = static_cast<PlanBase*>(plan);
  return guarded(p->host(), [&] {
    const Local& l = p->local();
    if (in)
      *in = l.in;
    if (out)
      *out = l.out;
    uint64_t bytes = uint64_t(l.alloc) * 2 * p->scalar_bytes();
    if (in_bytes)
      *in_bytes = bytes;
    if (out_bytes)
      *out_bytes = bytes;
  });
}

plugin::Identity identity() {
  return {"fftw-mpi",      FFTMUX_VERSION_STRING, plugin::whole_api | FFTMUX_CAP_DISTRIBUTED,
          FFTMUX_MAX_RANK, FFTMUX_DOMAIN_HOST,    uint32_t(variants.size()),
          variants.data()};
}

} // namespace
} // namespace fftmux::fftw_mpi

FFTMUX_PLUGIN_TABLE_DISTRIBUTED(fftmux::fftw_mpi, identity(), plan_create_v2)
