// Distributed plans: each rank checks its own arguments, the ranks agree
// through the backend (a failure anywhere is every rank's), then the same
// problem is routed alike on every rank: the first backend by name that
// accepts it, never by timings, which would differ between ranks.
#include "distributed.hpp"

#include "api_util.hpp"
#include "devices.hpp"
#include "error.hpp"
#include "problem.hpp"
#include "registry.hpp"

#include <fftmux/desc_geometry.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fftmux {
namespace {

// A rank's status and message, or the ranks' agreed ones.
struct Verdict {
  fftmux_status status = FFTMUX_OK;
  std::string message;
};

// What a distributed plan is asked, checked on this rank.
struct Request {
  Problem problem;
  fftmux_plan_options options{};
  fftmux_distribution dist{};
};

// Why a backend runs no distributed plans; "" when it does. unavailable: set
// where one that has them cannot start (MPI not initialized, say).
std::string no_distributed(Backend& b, bool& unavailable) {
  bool ready = b.ready();
  if (!ready && b.state() != FFTMUX_BACKEND_UNAVAILABLE) // never loaded: no table to read
    return b.name() + " is skipped: " + b.reason();
  const fftmux_backend_v1& t = b.table();
  bool all = FFTMUX_HAS_FIELD(&t, distributed_agree) && FFTMUX_HAS_FIELD(&t, query_distributed) &&
             FFTMUX_HAS_FIELD(&t, plan_create_distributed) && FFTMUX_HAS_FIELD(&t, plan_local);
  if (!(t.caps & FFTMUX_CAP_DISTRIBUTED) || !all)
    return b.name() + " has no distributed transforms";
  if (!ready) {
    unavailable = true;
    return b.name() + " is unavailable: " + b.reason();
  }
  return "";
}

// The backends with distributed plans, by name; the others' reasons in why.
std::vector<Backend*> distributed_backends(fftmux_context ctx, std::vector<std::string>& why,
                                           bool& unavailable) {
  std::vector<Backend*> all, out;
  for (auto& b : ctx->registry.all())
    all.push_back(b.get());
  std::sort(all.begin(), all.end(), [](Backend* a, Backend* b) { return a->name() < b->name(); });
  for (Backend* b : all) {
    std::string gap = no_distributed(*b, unavailable);
    if (gap.empty())
      out.push_back(b);
    else
      why.push_back(gap);
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v)
    s += (s.empty() ? "" : "; ") + x;
  return s;
}

void check_box(const fftmux_desc& d, const fftmux_box& box, bool input) {
  std::string name = std::string("distribution->") + (input ? "in_box" : "out_box");
  for (uint32_t i = 0; i < d.rank; ++i) {
    std::string at = "[" + std::to_string(i) + "] = ";
    int64_t n = geometry::side_extent(d, input, i);
    if (box.lower[i] < 0 || box.lower[i] > box.upper[i])
      invalid(name + ".lower" + at + std::to_string(box.lower[i]) + ": must be from 0 to upper" +
              at.substr(0, at.size() - 3) + " (" + std::to_string(box.upper[i]) + ")");
    if (box.upper[i] > n)
      invalid(name + ".upper" + at + std::to_string(box.upper[i]) +
              ": must be at most the side's extent " + std::to_string(n));
    if (box.strides[i] < 0)
      invalid(name + ".strides" + at + std::to_string(box.strides[i]) +
              ": must be 0 (C order) or positive");
  }
}

fftmux_distribution read_distribution(const fftmux_distribution* in) {
  if (in->struct_size < sizeof(fftmux_distribution))
    invalid("distribution->struct_size = " + std::to_string(in->struct_size) +
            ": must be at least " + std::to_string(sizeof(fftmux_distribution)) +
            "; initialize it with fftmux_distribution_init");
  fftmux_distribution d = *in;
  return d;
}

Request check_request(const fftmux_desc* desc, const fftmux_plan_options* options,
                      const fftmux_distribution& dist) {
  Request r;
  fftmux_desc raw = read_desc(desc);
  for (uint32_t i = 0; i < FFTMUX_MAX_RANK; ++i)
    if (raw.in_strides[i] || raw.out_strides[i])
      invalid("desc->" + std::string(raw.in_strides[i] ? "in" : "out") + "_strides[" +
              std::to_string(i) +
              "] is set: a distributed plan's strides must be 0 (the boxes lay out each rank's "
              "data: fftmux_box)");
  if (raw.in_distance || raw.out_distance)
    invalid("desc->" + std::string(raw.in_distance ? "in" : "out") +
            "_distance is set: must be 0 in a distributed plan (the batch is interleaved)");
  r.problem = validate(desc);
  if (geometry::padded(r.problem.desc))
    invalid("desc->in_extent or out_extent is set: distributed plans hold whole sides (the "
            "boxes lay them out); pad the data instead");
  if (r.problem.desc.placement != FFTMUX_HOST)
    invalid("desc->placement = FFTMUX_DEVICE: distributed plans run on host memory");
  if (options) {
    if (options->struct_size < offsetof(fftmux_plan_options, threads))
      invalid("options->struct_size = " + std::to_string(options->struct_size) +
              ": initialize it with fftmux_plan_options_init");
    std::memcpy(&r.options, options, std::min<size_t>(options->struct_size, sizeof r.options));
  }
  if (r.options.threads > FFTMUX_MAX_THREADS)
    invalid("options->threads = " + std::to_string(r.options.threads) + ": must be at most " +
            std::to_string(FFTMUX_MAX_THREADS) + " (0: the backend's default)");
  if (read_devices(r.options, r.problem.desc).spans())
    invalid("options->device_count or options->device_list names several devices: a "
            "distributed plan spans ranks, each on one device");
  r.dist = dist;
  if (dist.decomposition > FFTMUX_GIVEN)
    invalid("distribution->decomposition = " + std::to_string(dist.decomposition) +
            ": use FFTMUX_SLABS (0), FFTMUX_SLABS_TRANSPOSED_OUT (1), "
            "FFTMUX_SLABS_TRANSPOSED_IN (2) or FFTMUX_GIVEN (3)");
  if (dist.decomposition == FFTMUX_GIVEN) {
    check_box(r.problem.desc, dist.in_box, true);
    check_box(r.problem.desc, dist.out_box, false);
  }
  return r;
}

// What every rank must ask alike: the problem, the decomposition, the backend.
std::string key_of(const Request& r) {
  const fftmux_plan_options& o = r.options;
  return describe(r.problem.desc) + ", decomposition " + std::to_string(r.dist.decomposition) +
         ", backend " + (o.backend ? o.backend : "auto") + ", variant " +
         (o.variant ? o.variant : "default");
}

// in, out: an execution's arrays, else NULL.
Verdict agree(Backend& b, uint64_t comm, void* plan, const Verdict& local, const char* key,
              const void* in = nullptr, const void* out = nullptr) {
  auto a = std::make_unique<fftmux_agreement_v1>();
  std::memset(a.get(), 0, sizeof *a);
  a->struct_size = sizeof *a;
  a->status = local.status;
  a->key = key;
  a->in = in;
  a->out = out;
  std::snprintf(a->message, sizeof a->message, "%s", local.message.c_str());
  b.call("distributed_agree",
         [&] { return b.table().distributed_agree(b.handle(), comm, plan, a.get()); });
  a->message[sizeof a->message - 1] = '\0';
  bool known = a->status >= 0 && a->status <= FFTMUX_ERROR_INTERNAL;
  return {known ? fftmux_status(a->status) : FFTMUX_ERROR_BACKEND, a->message};
}

// The variant index the options name on backend b; throws where b lacks it.
uint32_t variant_of(Backend& b, const char* name) {
  if (!name)
    return 0;
  std::vector<std::string> v = b.variants();
  auto it = std::find(v.begin(), v.end(), name);
  if (it == v.end())
    fail(FFTMUX_ERROR_NOT_FOUND,
         "backend " + b.name() + " has no variant '" + std::string(name) + "'");
  return uint32_t(it - v.begin());
}

// Asks b about the problem; "" where it accepts, else its reason.
std::string decline(Backend& b, const Request& r, uint32_t variant) {
  fftmux_answer_v1 a{};
  a.struct_size = sizeof a;
  a.estimate_seconds = -1;
  b.call("query_distributed", [&] {
    return b.table().query_distributed(b.handle(), &r.problem.desc, variant, &r.dist, &a);
  });
  a.reason[sizeof a.reason - 1] = '\0';
  return a.supported ? "" : b.name() + ": " + a.reason;
}

// Creates the plan on the first backend that accepts it, or throws why none did.
// others: why the rest of the installed backends run no distributed plans.
fftmux_plan create(fftmux_context ctx, const Request& r, const std::vector<Backend*>& backends,
                   const std::vector<std::string>& others) {
  const char* forced =
      r.options.backend && std::string(r.options.backend) != "auto" ? r.options.backend : nullptr;
  Decision d;
  d.how = forced ? "forced by the plan option backend = \"" + std::string(forced) + "\""
                 : "distributed: the first backend by name that accepts (never timed)";
  std::vector<std::string> why;
  std::vector<Error> failures; // of the backends that accepted, then failed alike on every rank
  for (Backend* b : backends) {
    if (forced && b->name() != forced)
      continue;
    Candidate c;
    c.backend = b;
    c.variant = variant_of(*b, r.options.variant);
    c.variant_name = b->variants()[c.variant];
    c.reason = decline(*b, r, c.variant);
    c.accepted = c.reason.empty();
    d.candidates.push_back(c);
    if (!c.accepted) {
      why.push_back(c.reason);
      continue;
    }
    void* handle = nullptr;
    fftmux_plan_params_v1 params = plan_params(DeviceSet{}, r.options.threads);
    try {
      b->call("plan_create_distributed", [&] {
        return b->table().plan_create_distributed(b->handle(), &r.problem.desc, c.variant, &params,
                                                  &r.dist, &handle);
      });
    } catch (const Error& e) { // every rank failed alike: the backend agreed on it
      d.candidates.back().failure = e.what();
      why.push_back(e.what());
      failures.push_back(e);
      continue;
    }
    uint64_t in_bytes = 0, out_bytes = 0;
    try {
      b->call("plan_local", [&] {
        return b->table().plan_local(handle, nullptr, nullptr, &in_bytes, &out_bytes);
      });
    } catch (const Error&) {
      b->table().plan_destroy(handle);
      throw;
    }
    auto plan = std::make_unique<fftmux_plan_s>();
    plan->context = ctx;
    plan->backend = b;
    plan->variant = c.variant;
    plan->variant_name = c.variant_name;
    plan->handle = handle;
    plan->problem = r.problem;
    plan->chosen = d.candidates.size() - 1;
    plan->decision = std::move(d);
    plan->threads_asked = r.options.threads;
    plan->threads = params.threads;
    plan->distributed = true;
    plan->comm = r.dist.comm;
    plan->local_in_bytes = in_bytes;
    plan->local_out_bytes = out_bytes;
    ++ctx->live;
    return plan.release();
  }
  if (forced && d.candidates.empty()) {
    if (!ctx->registry.find(forced))
      fail(FFTMUX_ERROR_NOT_FOUND, "no backend named '" + std::string(forced) + "' is installed");
    for (const std::string& o : others)
      if (o.rfind(std::string(forced) + " ", 0) == 0)
        fail(FFTMUX_ERROR_UNSUPPORTED, o);
  }
  if (failures.size() == 1 && why.size() == 1)
    throw failures[0];
  fail(failures.empty() ? FFTMUX_ERROR_UNSUPPORTED : FFTMUX_ERROR_BACKEND,
       "no backend runs " + describe(r.problem.desc) + " distributed: " + join(why));
}

} // namespace

void execute_distributed(fftmux_plan_s& plan, int direction, const void* in,
                         const std::function<void*()>& check) {
  Verdict local;
  void* out = nullptr;
  try {
    out = check();
  } catch (const Error& e) {
    local = {e.status(), e.what()};
  }
  Backend& b = *plan.backend;
  Verdict v = agree(b, plan.comm, plan.handle, local, nullptr, in, out);
  if (v.status != FFTMUX_OK)
    fail(v.status, v.message);
  b.call("execute", [&] { return b.table().execute(plan.handle, direction, in, out); });
}

} // namespace fftmux

using namespace fftmux;

extern "C" {

void fftmux_distribution_init(fftmux_distribution* d) {
  if (!clear_sized(d))
    return;
  d->decomposition = FFTMUX_SLABS;
  d->comm = FFTMUX_COMM_WORLD;
}

fftmux_status fftmux_plan_create_distributed(fftmux_context ctx, const fftmux_desc* desc,
                                             const fftmux_plan_options* options,
                                             const fftmux_distribution* distribution,
                                             fftmux_plan* plan) {
  return guard("fftmux_plan_create_distributed", [&] {
    require(ctx, "context");
    require(plan, "plan");
    *plan = nullptr;
    require(distribution, "distribution");
    fftmux_distribution dist = read_distribution(distribution);
    std::vector<std::string> why;
    bool unavailable = false;
    std::vector<Backend*> backends = distributed_backends(ctx, why, unavailable);
    if (backends.empty())
      fail(unavailable ? FFTMUX_ERROR_UNAVAILABLE : FFTMUX_ERROR_UNSUPPORTED,
           "no backend runs distributed transforms: " +
               (why.empty() ? std::string("none is installed") : join(why)));
    Verdict local;
    Request r;
    std::string key;
    try {
      r = check_request(desc, options, dist);
      key = key_of(r);
    } catch (const Error& e) {
      local = {e.status(), e.what()};
    }
    // The first distributed backend speaks for all: every rank has the same.
    Verdict v =
        agree(*backends[0], dist.comm, nullptr, local, local.status ? nullptr : key.c_str());
    if (v.status != FFTMUX_OK)
      fail(v.status, v.message);
    *plan = create(ctx, r, backends, why);
  });
}

fftmux_status fftmux_plan_local(fftmux_plan plan, fftmux_box* in_box, fftmux_box* out_box,
                                uint64_t* in_bytes, uint64_t* out_bytes) {
  return guard("fftmux_plan_local", [&] {
    require(plan, "plan");
    if (!plan->distributed)
      invalid("plan is not distributed: create it with fftmux_plan_create_distributed");
    fftmux_box a{}, b{};
    uint64_t ia = 0, ob = 0;
    Backend& be = *plan->backend;
    be.call("plan_local", [&] { return be.table().plan_local(plan->handle, &a, &b, &ia, &ob); });
    if (in_box)
      *in_box = a;
    if (out_box)
      *out_box = b;
    if (in_bytes)
      *in_bytes = ia;
    if (out_bytes)
      *out_bytes = ob;
  });
}

} // extern "C"
