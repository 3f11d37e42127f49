// The C entry points: each validates its arguments, then delegates; guard()
// turns every failure into a status and a message.
#include "api_util.hpp"
#include "context.hpp"
#include "devices.hpp"
#include "distributed.hpp"
#include "error.hpp"
#include "log.hpp"
#include "paths.hpp"
#include "router.hpp"
#include "tuner.hpp"

#include <fftmux/fftmux.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <tuple>

using namespace fftmux;

namespace {

// A caller's struct over zeros (the structs without an _init of their own
// default to zero).
template <class T> T read_struct(const T* in, const char* name, size_t v1_size) {
  return read_sized<T>(
      in, name, v1_size, [](T* t) { std::memset(t, 0, sizeof *t); },
      std::string("initialize it with ") + name + "_init");
}

template <size_t N> void copy_text(char (&dst)[N], const std::string& src) {
  size_t n = std::min(src.size(), N - 1);
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

// A list into a fixed field: whole names only, as many as fit (a name cut
// short would read as a variant that does not exist).
template <size_t N> void copy_list(char (&dst)[N], const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) {
    std::string next = text.empty() ? n : text + "," + n;
    if (next.size() > N - 1)
      break;
    text = std::move(next);
  }
  copy_text(dst, text);
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + v[i];
  return s;
}

void load_context_config(fftmux_context ctx, const char* option) {
  std::string path = option ? option : env("FFTMUX_CONFIG");
  if (!path.empty()) { // named explicitly: it must be right
    ctx->config = load_config(path);
    return;
  }
  path = default_config_path();
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec))
    return;
  try {
    ctx->config = load_config(path);
  } catch (const Error& e) {
    ctx->notes.push_back(std::string("config ignored, defaults used: ") + e.what());
    log(Level::warn, ctx->notes.back());
  }
}

void check_direction(const Problem& p, int direction) {
  if (direction != FFTMUX_FORWARD && direction != FFTMUX_INVERSE)
    invalid("direction = " + std::to_string(direction) +
            ": must be FFTMUX_FORWARD (-1) or FFTMUX_INVERSE (1)");
  if (p.desc.kind == FFTMUX_R2C && direction != FFTMUX_FORWARD)
    invalid("direction = " + std::to_string(direction) + ": an R2C plan runs forward only");
  if (p.desc.kind == FFTMUX_C2R && direction != FFTMUX_INVERSE)
    invalid("direction = " + std::to_string(direction) + ": a C2R plan runs inverse only");
}

// In-place plans take out == in (NULL out meaning the same); out-of-place
// plans need disjoint memory.
const void* check_pair(const Problem& p, const void* in, const void* out, uint64_t in_size,
                       uint64_t out_size) {
  if (p.in_place()) {
    if (out && out != in)
      invalid("out differs from in, but the plan is in-place (FFTMUX_IN_PLACE)");
    return in;
  }
  if (!out)
    invalid("out is NULL");
  auto a = reinterpret_cast<uintptr_t>(in), b = reinterpret_cast<uintptr_t>(out);
  if (a == b)
    invalid("out == in, but the plan is out-of-place: create it with FFTMUX_IN_PLACE");
  if (in_size && out_size && a < b + out_size && b < a + in_size)
    invalid("in and out overlap, but the plan is out-of-place");
  return out;
}

Backend& named_backend(fftmux_context ctx, const char* name) {
  require(name, "backend");
  Backend* b = ctx->registry.find(name);
  if (!b)
    fail(FFTMUX_ERROR_NOT_FOUND, "no backend named '" + std::string(name) + "' is installed");
  if (!b->ready())
    fail(FFTMUX_ERROR_UNAVAILABLE, "backend " + b->name() + " is unavailable: " + b->reason());
  if (!b->table().buffer_alloc)
    fail(FFTMUX_ERROR_UNSUPPORTED, "backend " + b->name() + " has no buffers of its own");
  return *b;
}

fftmux_buffer new_buffer(fftmux_context ctx, Backend& b, void* handle, uint64_t bytes) {
  auto* buf = new fftmux_buffer_s;
  buf->context = ctx;
  buf->backend = &b;
  buf->handle = handle;
  buf->bytes = bytes;
  ++ctx->live;
  return buf;
}

void check_range(fftmux_buffer buf, uint64_t offset, uint64_t bytes) {
  if (offset > buf->bytes || bytes > buf->bytes - offset)
    invalid("offset " + std::to_string(offset) + " + bytes " + std::to_string(bytes) +
            " exceeds the buffer size " + std::to_string(buf->bytes));
}

fftmux_plan try_candidates(fftmux_context ctx, const Problem& p, Decision& d, uint32_t threads) {
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    Candidate& c = d.candidates[i];
    if (!c.accepted)
      break;
    void* handle = nullptr;
    fftmux_plan_params_v1 params = plan_params(p, threads);
    try {
      c.backend->call("plan_create", [&] {
        const fftmux_backend_v1& t = c.backend->table();
        if (FFTMUX_HAS_FIELD(&t, plan_create_v2))
          return t.plan_create_v2(c.backend->handle(), &p.desc, c.variant, &params, &handle);
        params.threads = 0;
        return t.plan_create(c.backend->handle(), &p.desc, c.variant, &handle);
      });
    } catch (const Error& e) {
      c.failure = e.what();
      c.failure_status = e.status();
      log(Level::info, "plan creation failed, trying the next candidate: " + c.failure);
      continue;
    }
    auto plan = std::make_unique<fftmux_plan_s>();
    plan->context = ctx;
    plan->backend = c.backend;
    plan->variant = c.variant;
    plan->variant_name = c.variant_name;
    plan->handle = handle;
    plan->problem = p;
    plan->decision = std::move(d);
    plan->chosen = i;
    plan->threads_asked = threads;
    plan->threads = params.threads;
    ++ctx->live;
    return plan.release();
  }
  return nullptr;
}

// The explain line of the plan's threads: what the backend answered, or
// that it has no per-plan count.
std::string threads_line(const fftmux_plan_s& plan) {
  std::string asked = plan.threads_asked ? std::to_string(plan.threads_asked) + " asked" : "";
  if (plan.threads)
    return "threads: " + std::to_string(plan.threads) + (asked.empty() ? "" : " (" + asked + ")") +
           "\n";
  if (!asked.empty())
    return "threads: " + asked + ", ignored: " + plan.backend->name() +
           " has no per-plan thread count\n";
  return "";
}

// When every tried candidate failed the same way (out of memory, say), that
// is the status; different failures are a BACKEND error.
[[noreturn]] void no_candidate(const Problem& p, const Decision& d) {
  std::vector<std::string> why;
  bool tried = false, unavailable = !d.candidates.empty();
  fftmux_status failed = FFTMUX_OK;
  for (const Candidate& c : d.candidates) {
    if (c.accepted)
      failed = !tried || failed == c.failure_status ? c.failure_status : FFTMUX_ERROR_BACKEND;
    tried = tried || c.accepted;
    unavailable = unavailable && c.backend->state() == FFTMUX_BACKEND_UNAVAILABLE;
    why.push_back(c.backend->name() + (c.variant_name.empty() ? "" : "/" + c.variant_name) + ": " +
                  (c.accepted ? c.failure : c.reason));
  }
  std::string text =
      describe(p.desc) + ": " + (why.empty() ? "no backend is installed" : join(why, "; "));
  if (tried)
    fail(failed, "every capable backend failed: " + text);
  fail(unavailable ? FFTMUX_ERROR_UNAVAILABLE : FFTMUX_ERROR_UNSUPPORTED,
       "no backend runs " + text);
}

// The backend at index of the context's list, or the rule the index broke.
Backend& backend_at(fftmux_context ctx, uint32_t index) {
  const auto& all = ctx->registry.all();
  if (index >= all.size())
    invalid("index = " + std::to_string(index) + ": there are " + std::to_string(all.size()) +
            " backends");
  return *all[index];
}

// The buffer's number of pieces, and piece index into *piece where there is
// one: the backend's answer, else the whole buffer as one piece.
uint32_t piece_of(fftmux_buffer buf, uint32_t index, fftmux_piece* piece) {
  const fftmux_backend_v1& t = buf->backend->table();
  fftmux_piece scratch{};
  fftmux_piece* out = piece ? piece : &scratch;
  out->struct_size = sizeof *out;
  uint32_t count = 1;
  if (FFTMUX_HAS_FIELD(&t, buffer_piece)) {
    buf->backend->call("buffer_piece",
                       [&] { return t.buffer_piece(buf->handle, index, &count, out); });
    return count;
  }
  out->device = 0;
  out->native = t.buffer_native(buf->handle);
  out->offset = 0;
  out->bytes = buf->bytes;
  out->order = FFTMUX_ORDER_NATURAL;
  return count;
}

// Plan options over their defaults: an older, shorter struct leaves the
// device fields 0, one device.
fftmux_plan_options read_options(const fftmux_plan_options* options) {
  return read_struct(options, "fftmux_plan_options", offsetof(fftmux_plan_options, threads));
}

// fftmux_query and fftmux_query_plan, under the caller's name.
fftmux_status query(const char* name, fftmux_context ctx, const fftmux_desc* desc,
                    const char* backend, const fftmux_plan_options* options,
                    fftmux_support* support) {
  return guard(name, [&] {
    require(ctx, "context");
    require(backend, "backend");
    require(support, "support");
    fftmux_support out = read_struct(support, "fftmux_support", sizeof(fftmux_support));
    out.estimate_seconds = -1;
    Problem p = validate(desc);
    p.devices = read_devices(read_options(options), p.desc);
    Backend* b = ctx->registry.find(backend);
    if (!b)
      fail(FFTMUX_ERROR_NOT_FOUND, "no backend named '" + std::string(backend) + "' is installed");
    std::vector<std::string> yes, no;
    for (const Candidate& c : ask(*b, p)) {
      if (c.accepted && yes.empty())
        out.estimate_seconds = c.estimate;
      if (c.accepted)
        yes.push_back(c.variant_name);
      else
        no.push_back((c.variant_name.empty() ? "" : c.variant_name + ": ") + c.reason);
    }
    out.supported = !yes.empty();
    copy_text(out.backend, b->name());
    copy_list(out.variants, yes);
    copy_text(out.reason, yes.empty() ? b->name() + ": " + join(no, "; ") : "");
    std::memcpy(support, &out, std::min<size_t>(support->struct_size, sizeof out));
  });
}

} // namespace

namespace fftmux {

fftmux_plan create_plan(fftmux_context ctx, const fftmux_desc* desc,
                        const fftmux_plan_options* options,
                        std::shared_ptr<const std::vector<double>> product) {
  require(ctx, "context");
  Problem p = validate(desc);
  p.product = std::move(product);
  fftmux_plan_options o = read_options(options);
  p.devices = read_devices(o, p.desc);
  if (o.threads > FFTMUX_MAX_THREADS)
    invalid("options->threads = " + std::to_string(o.threads) + ": must be at most " +
            std::to_string(FFTMUX_MAX_THREADS) + " (0: the backend's default)");
  Decision d = route(ctx, p, o.backend, o.variant);
  fftmux_plan plan = try_candidates(ctx, p, d, o.threads);
  if (!plan)
    no_candidate(p, d);
  return plan;
}

} // namespace fftmux

extern "C" {

void fftmux_desc_init(fftmux_desc* d) {
  if (!clear_sized(d))
    return;
  d->rank = 1;
  d->n[0] = d->n[1] = d->n[2] = 1;
  d->batch = 1;
  d->kind = FFTMUX_C2C;
  d->precision = FFTMUX_F32;
  d->norm = FFTMUX_NORM_BACKWARD;
  d->placement = FFTMUX_HOST;
}

fftmux_status fftmux_desc_layout(const fftmux_desc* desc, fftmux_layout* layout) {
  return guard("fftmux_desc_layout", [&] {
    require(layout, "layout");
    fftmux_layout out = read_struct(layout, "layout", sizeof(fftmux_layout));
    Problem p = validate(desc);
    std::memcpy(out.in_strides, p.desc.in_strides, sizeof out.in_strides);
    std::memcpy(out.out_strides, p.desc.out_strides, sizeof out.out_strides);
    out.in_distance = p.desc.in_distance;
    out.out_distance = p.desc.out_distance;
    out.in_bytes = p.in.span_bytes;
    out.out_bytes = p.out.span_bytes;
    std::memcpy(layout, &out, std::min<size_t>(layout->struct_size, sizeof out));
  });
}

namespace {

void check_devices(const fftmux_context_options& o) {
  if (o.device_count && !o.devices)
    invalid("options->devices is NULL but options->device_count is " +
            std::to_string(o.device_count));
  std::set<std::string> seen;
  for (uint32_t i = 0; i < o.device_count; ++i) {
    std::string at = "options->devices[" + std::to_string(i) + "].backend";
    const char* b = o.devices[i].backend;
    if (!b || !*b)
      invalid(at + " is NULL or empty: name the backend the device is for");
    if (!seen.insert(b).second)
      invalid(at + " = \"" + b + "\": that backend has a device already (one each)");
  }
}

// Each application device goes to its backend's init; one for a backend
// that is not installed is noted, not an error (plugins come and go).
void give_devices(fftmux_context_s& ctx, const fftmux_context_options& o) {
  for (uint32_t i = 0; i < o.device_count; ++i) {
    const fftmux_native_device& d = o.devices[i];
    Backend* b = ctx.registry.find(d.backend);
    if (!b) {
      ctx.notes.push_back("options->devices[" + std::to_string(i) + "] is for backend '" +
                          d.backend + "', which is not installed: ignored");
      log(Level::warn, ctx.notes.back());
      continue;
    }
    b->native.assign(std::begin(d.handles), std::end(d.handles));
  }
}

} // namespace

void fftmux_context_options_init(fftmux_context_options* o) {
  clear_sized(o);
}

fftmux_status fftmux_context_create(const fftmux_context_options* options,
                                    fftmux_context* context) {
  return guard("fftmux_context_create", [&] {
    require(context, "context");
    *context = nullptr;
    fftmux_context_options o =
        read_struct(options, "fftmux_context_options", offsetof(fftmux_context_options, devices));
    check_devices(o);
    auto ctx = std::make_unique<fftmux_context_s>();
    load_context_config(ctx.get(), o.config_path);
    ctx->registry.discover(ctx->config, o.plugin_path ? o.plugin_path : "");
    give_devices(*ctx, o);
    std::string cache = cache_dir();
    ctx->tuning_path = env("FFTMUX_TUNING_CACHE");
    if (ctx->tuning_path.empty())
      ctx->tuning_path =
          !ctx->config.tuning_cache.empty() ? ctx->config.tuning_cache : cache + "/tuning.toml";
    ctx->calibrations.path = env("FFTMUX_CALIBRATION");
    if (ctx->calibrations.path.empty())
      ctx->calibrations.path = cache + "/calibration.toml";
    ctx->system_tuning_path = env("FFTMUX_SYSTEM_TUNING_CACHE");
    if (ctx->system_tuning_path.empty())
      ctx->system_tuning_path = ctx->config.system_tuning_cache;
    for (auto& b : ctx->registry.all()) {
      auto it = ctx->config.backends.find(b->name());
      if (it != ctx->config.backends.end())
        b->config = it->second;
      b->cache_dir = cache;
    }
    *context = ctx.release();
  });
}

fftmux_status fftmux_context_destroy(fftmux_context ctx) {
  return guard("fftmux_context_destroy", [&] {
    if (!ctx)
      return;
    if (int live = ctx->live.load())
      invalid(std::to_string(live) + " plans or buffers of this context are still alive: "
                                     "destroy them first");
    delete ctx;
  });
}

fftmux_status fftmux_context_notes(fftmux_context ctx, char* text, size_t size, size_t* needed) {
  return guard("fftmux_context_notes", [&] {
    require(ctx, "context");
    ctx->tuning(); // loads the tuning cache, so that its problems are noted too
    std::string all;
    {
      std::lock_guard<std::mutex> lock(ctx->notes_mutex);
      for (auto& n : ctx->notes)
        all += n + "\n";
    }
    for (auto& b : ctx->registry.all())
      if (b->state() == FFTMUX_BACKEND_SKIPPED || b->state() == FFTMUX_BACKEND_UNAVAILABLE)
        all += "backend " + b->name() +
               (b->state() == FFTMUX_BACKEND_SKIPPED ? " skipped: " : " unavailable: ") +
               b->reason() + "\n";
    copy_out(all, text, size, needed);
  });
}

void fftmux_backend_info_init(fftmux_backend_info* info) {
  clear_sized(info);
}

fftmux_status fftmux_backend_count(fftmux_context ctx, uint32_t* count) {
  return guard("fftmux_backend_count", [&] {
    require(ctx, "context");
    require(count, "count");
    *count = uint32_t(ctx->registry.all().size());
  });
}

fftmux_status fftmux_backend_get(fftmux_context ctx, uint32_t index, uint32_t flags,
                                 fftmux_backend_info* info) {
  return guard("fftmux_backend_get", [&] {
    require(ctx, "context");
    require(info, "info");
    fftmux_backend_info out = read_struct(info, "fftmux_backend_info", sizeof(fftmux_backend_info));
    Backend& b = backend_at(ctx, index);
    if (flags & ~FFTMUX_PROBE)
      invalid("flags = " + std::to_string(flags) + ": only FFTMUX_PROBE (1) is known");
    if (flags & FFTMUX_PROBE)
      b.ready();
    out.state = b.state();
    copy_text(out.name, b.name());
    copy_text(out.version, b.version());
    copy_text(out.library, b.library());
    copy_text(out.reason, b.reason());
    copy_text(out.devices, b.devices());
    copy_list(out.variants, b.variants());
    copy_text(out.hardware_key, b.hardware_key());
    out.max_devices = b.max_devices();
    std::memcpy(info, &out, std::min<size_t>(info->struct_size, sizeof out));
  });
}

fftmux_status fftmux_backend_variants(fftmux_context ctx, uint32_t index, char* text, size_t size,
                                      size_t* needed) {
  return guard("fftmux_backend_variants", [&] {
    require(ctx, "context");
    copy_out(join(backend_at(ctx, index).variants(), ","), text, size, needed);
  });
}

void fftmux_support_init(fftmux_support* s) {
  if (!clear_sized(s))
    return;
  s->estimate_seconds = -1;
}

fftmux_status fftmux_query(fftmux_context ctx, const fftmux_desc* desc, const char* backend,
                           fftmux_support* support) {
  return query("fftmux_query", ctx, desc, backend, nullptr, support);
}

fftmux_status fftmux_query_plan(fftmux_context ctx, const fftmux_desc* desc, const char* backend,
                                const fftmux_plan_options* options, fftmux_support* support) {
  return query("fftmux_query_plan", ctx, desc, backend, options, support);
}

void fftmux_plan_options_init(fftmux_plan_options* o) {
  clear_sized(o);
}

fftmux_status fftmux_plan_create(fftmux_context ctx, const fftmux_desc* desc,
                                 const fftmux_plan_options* options, fftmux_plan* plan) {
  return guard("fftmux_plan_create", [&] {
    require(ctx, "context");
    require(plan, "plan");
    *plan = nullptr;
    *plan = create_plan(ctx, desc, options, nullptr);
  });
}

fftmux_status fftmux_plan_destroy(fftmux_plan plan) {
  return guard("fftmux_plan_destroy", [&] {
    if (!plan)
      return;
    plan->backend->table().plan_destroy(plan->handle);
    --plan->context->live;
    delete plan;
  });
}

fftmux_status fftmux_plan_explain(fftmux_plan plan, char* text, size_t size, size_t* needed) {
  return guard("fftmux_plan_explain", [&] {
    require(plan, "plan");
    const Decision& d = plan->decision;
    copy_out(explain(plan->problem, d, &d.candidates[plan->chosen]) + threads_line(*plan), text,
             size, needed);
  });
}

fftmux_status fftmux_plan_backend(fftmux_plan plan, const char** backend, const char** variant) {
  return guard("fftmux_plan_backend", [&] {
    require(plan, "plan");
    if (backend)
      *backend = plan->backend->name().c_str();
    if (variant)
      *variant = plan->variant_name.c_str();
  });
}

fftmux_status fftmux_plan_desc(fftmux_plan plan, fftmux_desc* desc) {
  return guard("fftmux_plan_desc", [&] {
    require(plan, "plan");
    require(desc, "desc");
    read_desc(desc);
    std::memcpy(desc, &plan->problem.desc, std::min<size_t>(desc->struct_size, sizeof *desc));
  });
}

fftmux_status fftmux_execute(fftmux_plan plan, int direction, const void* in, void* out) {
  return guard("fftmux_execute", [&] {
    require(plan, "plan");
    const Problem& p = plan->problem;
    auto check = [&] {
      require(in, "in");
      check_direction(p, direction);
      bool local = plan->distributed; // a rank's buffers hold its boxes
      return const_cast<void*>(check_pair(p, in, out,
                                          local ? plan->local_in_bytes : p.in.span_bytes,
                                          local ? plan->local_out_bytes : p.out.span_bytes));
    };
    if (plan->distributed) // a wrong argument on any rank fails every rank
      return execute_distributed(*plan, direction, in, check);
    void* dst = check();
    plan->backend->call("execute", [&] {
      return plan->backend->table().execute(plan->handle, direction, in, dst);
    });
  });
}

fftmux_status fftmux_execute_buffers(fftmux_plan plan, int direction, fftmux_buffer in,
                                     fftmux_buffer out) {
  return guard("fftmux_execute_buffers", [&] {
    require(plan, "plan");
    require(in, "in");
    const Problem& p = plan->problem;
    check_direction(p, direction);
    auto* dst = static_cast<const fftmux_buffer_s*>(check_pair(p, in, out, 0, 0));
    using Use = std::tuple<const fftmux_buffer_s*, uint64_t, const char*>;
    for (auto [buf, need, name] :
         {Use{in, p.in.span_bytes, "in"}, Use{dst, p.out.span_bytes, "out"}}) {
      if (buf->backend != plan->backend)
        invalid(std::string(name) + " belongs to backend " + buf->backend->name() +
                ", the plan runs on " + plan->backend->name());
      if (buf->bytes < need)
        invalid(std::string(name) + " holds " + std::to_string(buf->bytes) +
                " bytes, the plan needs " + std::to_string(need));
      if (buf->devices != p.devices.indices)
        invalid(std::string(name) + " spans " +
                std::to_string(std::max<size_t>(buf->devices.size(), 1)) + " device(s), the plan " +
                std::to_string(std::max<size_t>(p.devices.indices.size(), 1)) +
                ": make the plan's buffers with fftmux_buffer_create_for_plan");
    }
    if (in->handle == dst->handle && !p.in_place())
      invalid("in and out wrap the same memory, but the plan is out-of-place");
    const fftmux_backend_v1& t = plan->backend->table();
    if (!t.execute_buffers)
      fail(FFTMUX_ERROR_UNSUPPORTED, plan->backend->name() + " has no buffers of its own");
    plan->backend->call("execute_buffers", [&] {
      return t.execute_buffers(plan->handle, direction, in->handle, dst->handle);
    });
  });
}

fftmux_status fftmux_plan_synchronize(fftmux_plan plan) {
  return guard("fftmux_plan_synchronize", [&] {
    require(plan, "plan");
    if (auto sync = plan->backend->table().synchronize)
      plan->backend->call("synchronize", [&] { return sync(plan->handle); });
  });
}

fftmux_status fftmux_plan_set_stream(fftmux_plan plan, uint64_t native_stream) {
  return guard("fftmux_plan_set_stream", [&] {
    require(plan, "plan");
    const fftmux_backend_v1& t = plan->backend->table();
    if (!FFTMUX_HAS_FIELD(&t, plan_set_stream))
      fail(FFTMUX_ERROR_UNSUPPORTED, plan->backend->name() + " has no streams");
    plan->backend->call("plan_set_stream",
                        [&] { return t.plan_set_stream(plan->handle, native_stream); });
  });
}

fftmux_status fftmux_buffer_create(fftmux_context ctx, const char* backend, uint64_t bytes,
                                   fftmux_buffer* buffer) {
  return guard("fftmux_buffer_create", [&] {
    require(ctx, "context");
    require(buffer, "buffer");
    *buffer = nullptr;
    if (bytes == 0)
      invalid("bytes = 0: a buffer holds at least one byte");
    Backend& b = named_backend(ctx, backend);
    void* handle = nullptr;
    b.call("buffer_alloc", [&] { return b.table().buffer_alloc(b.handle(), bytes, &handle); });
    *buffer = new_buffer(ctx, b, handle, bytes);
  });
}

fftmux_status fftmux_buffer_create_for_plan(fftmux_plan plan, uint64_t bytes,
                                            fftmux_buffer* buffer) {
  if (!plan) {
    set_last_error("fftmux_buffer_create_for_plan: plan is NULL");
    return FFTMUX_ERROR_INVALID_ARGUMENT;
  }
  if (!plan->problem.devices.spans())
    return fftmux_buffer_create(plan->context, plan->backend->name().c_str(), bytes, buffer);
  return guard("fftmux_buffer_create_for_plan", [&] {
    require(buffer, "buffer");
    *buffer = nullptr;
    if (bytes == 0)
      invalid("bytes = 0: a buffer holds at least one byte");
    Backend& b = *plan->backend;
    void* handle = nullptr;
    b.call("plan_buffer_alloc",
           [&] { return b.table().plan_buffer_alloc(plan->handle, bytes, &handle); });
    *buffer = new_buffer(plan->context, b, handle, bytes);
    (*buffer)->devices = plan->problem.devices.indices;
  });
}

fftmux_status fftmux_buffer_wrap(fftmux_context ctx, const char* backend, uint64_t native,
                                 uint64_t bytes, fftmux_buffer* buffer) {
  return guard("fftmux_buffer_wrap", [&] {
    require(ctx, "context");
    require(buffer, "buffer");
    *buffer = nullptr;
    if (bytes == 0)
      invalid("bytes = 0: a buffer holds at least one byte");
    if (native == 0)
      invalid("native = 0: not a valid handle");
    Backend& b = named_backend(ctx, backend);
    if (!b.table().buffer_wrap)
      fail(FFTMUX_ERROR_UNSUPPORTED, b.name() + " cannot wrap native buffers");
    void* handle = nullptr;
    b.call("buffer_wrap",
           [&] { return b.table().buffer_wrap(b.handle(), native, bytes, &handle); });
    *buffer = new_buffer(ctx, b, handle, bytes);
  });
}

fftmux_status fftmux_buffer_destroy(fftmux_buffer buf) {
  return guard("fftmux_buffer_destroy", [&] {
    if (!buf)
      return;
    buf->backend->table().buffer_free(buf->handle);
    --buf->context->live;
    delete buf;
  });
}

fftmux_status fftmux_buffer_write(fftmux_buffer buf, uint64_t offset, const void* src,
                                  uint64_t bytes) {
  return guard("fftmux_buffer_write", [&] {
    require(buf, "buffer");
    require(src, "src");
    check_range(buf, offset, bytes);
    buf->backend->call("buffer_write", [&] {
      return buf->backend->table().buffer_write(buf->handle, offset, src, bytes);
    });
  });
}

fftmux_status fftmux_buffer_read(fftmux_buffer buf, uint64_t offset, void* dst, uint64_t bytes) {
  return guard("fftmux_buffer_read", [&] {
    require(buf, "buffer");
    require(dst, "dst");
    check_range(buf, offset, bytes);
    buf->backend->call("buffer_read", [&] {
      return buf->backend->table().buffer_read(buf->handle, offset, dst, bytes);
    });
  });
}

fftmux_status fftmux_buffer_native(fftmux_buffer buf, uint64_t* native) {
  return guard("fftmux_buffer_native", [&] {
    require(buf, "buffer");
    require(native, "native");
    *native = buf->backend->table().buffer_native(buf->handle);
  });
}

void fftmux_piece_init(fftmux_piece* piece) {
  clear_sized(piece);
}

fftmux_status fftmux_buffer_piece_count(fftmux_buffer buf, uint32_t* count) {
  return guard("fftmux_buffer_piece_count", [&] {
    require(buf, "buffer");
    require(count, "count");
    *count = piece_of(buf, 0, nullptr);
  });
}

fftmux_status fftmux_buffer_piece(fftmux_buffer buf, uint32_t index, fftmux_piece* piece) {
  return guard("fftmux_buffer_piece", [&] {
    require(buf, "buffer");
    require(piece, "piece");
    fftmux_piece out = read_struct(piece, "fftmux_piece", sizeof(fftmux_piece));
    uint32_t count = piece_of(buf, index, &out);
    if (index >= count)
      invalid("index = " + std::to_string(index) + ": the buffer has " + std::to_string(count) +
              (count == 1 ? " piece" : " pieces"));
    std::memcpy(piece, &out, std::min<size_t>(piece->struct_size, sizeof out));
  });
}

fftmux_status fftmux_buffer_size(fftmux_buffer buf, uint64_t* bytes) {
  return guard("fftmux_buffer_size", [&] {
    require(buf, "buffer");
    require(bytes, "bytes");
    *bytes = buf->bytes;
  });
}

void fftmux_tune_options_init(fftmux_tune_options* o) {
  if (!clear_sized(o))
    return;
  o->repeats = 15;
  o->warmup = 3;
  o->write_cache = 1;
}

fftmux_status fftmux_autotune(fftmux_context ctx, const fftmux_desc* problems, size_t count,
                              const fftmux_tune_options* options) {
  return guard("fftmux_autotune", [&] {
    require(ctx, "context");
    if (count && !problems)
      invalid("problems is NULL but count = " + std::to_string(count));
    fftmux_tune_options o;
    fftmux_tune_options_init(&o);
    if (options)
      o = read_struct(options, "fftmux_tune_options", sizeof(fftmux_tune_options));
    if (o.repeats < 1)
      invalid("options->repeats = 0: at least one timed run is needed");
    if (o.budget_seconds < 0 || !std::isfinite(o.budget_seconds))
      invalid("options->budget_seconds must be 0 (no limit) or positive");
    if (o.exhaustive > 1)
      invalid("options->exhaustive = " + std::to_string(o.exhaustive) + ": use 0 or 1");
    if (!(o.skip_factor == 0 || (o.skip_factor >= 1 && std::isfinite(o.skip_factor))))
      invalid("options->skip_factor must be 0 (the default, 4) or a finite number of 1 or more");
    std::vector<Problem> all;
    for (size_t i = 0; i < count; ++i)
      try {
        all.push_back(validate(&problems[i]));
      } catch (const Error& e) {
        invalid("problems[" + std::to_string(i) + "]: " + e.what());
      }
    autotune(ctx, all, o);
  });
}

fftmux_status fftmux_autotune_problems(uint32_t set, fftmux_desc* problems, size_t capacity,
                                       size_t* count) {
  return guard("fftmux_autotune_problems", [&] {
    if (set > FFTMUX_TUNE_QUICK)
      invalid("set = " + std::to_string(set) +
              ": use FFTMUX_TUNE_DEFAULT (0) or FFTMUX_TUNE_QUICK (1)");
    if (capacity && !problems)
      invalid("problems is NULL but capacity = " + std::to_string(capacity));
    std::vector<fftmux_desc> all = tune_problems(set);
    if (count)
      *count = all.size();
    std::copy_n(all.begin(), std::min(capacity, all.size()), problems);
  });
}

fftmux_status fftmux_tuning_cache_path(fftmux_context ctx, char* text, size_t size,
                                       size_t* needed) {
  return guard("fftmux_tuning_cache_path", [&] {
    require(ctx, "context");
    copy_out(ctx->tuning_path, text, size, needed);
  });
}

const char* fftmux_last_error(void) {
  return last_error();
}

const char* fftmux_status_name(fftmux_status s) {
  static const char* names[] = {"ok",
                                "invalid argument",
                                "unsupported",
                                "not found",
                                "unavailable",
                                "backend error",
                                "out of memory",
                                "i/o error",
                                "internal error"};
  return unsigned(s) < sizeof names / sizeof *names ? names[s] : "unknown status";
}

const char* fftmux_backend_state_name(uint32_t state) {
  static const char* names[] = {"listed", "ready", "unavailable", "skipped"};
  return state < sizeof names / sizeof *names ? names[state] : "unknown state";
}

const char* fftmux_version(int* major, int* minor, int* patch) {
  if (major)
    *major = FFTMUX_VERSION_MAJOR;
  if (minor)
    *minor = FFTMUX_VERSION_MINOR;
  if (patch)
    *patch = FFTMUX_VERSION_PATCH;
  return FFTMUX_VERSION_STRING;
}

} // extern "C"
