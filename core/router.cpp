#include "router.hpp"

#include "devices.hpp"
#include "error.hpp"
#include "paths.hpp"

#include <fftmux/plugin_support.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fftmux {

namespace {

// How a side departs from the default layout ("the input strides {2} are
// not the default layout's {1}"); "" where it does not.
std::string layout_departure(const fftmux_desc& d, bool input) {
  plugin::Shape def = plugin::default_layout(d, input);
  std::string side = input ? "the input " : "the output ";
  if (plugin::custom_strides(d, input))
    return side + "strides " + list_text(input ? d.in_strides : d.out_strides, d.rank) +
           " are not the default layout's " +
           list_text(def.stride + FFTMUX_MAX_RANK - d.rank, d.rank);
  if (plugin::custom_distance(d, input))
    return side + "distance " + std::to_string(input ? d.in_distance : d.out_distance) +
           " is not the default layout's " + std::to_string(def.distance);
  return "";
}

// The first capability the problem needs that the backend's table does not
// advertise, as the reason of a decline made before the plugin is asked; ""
// when the table covers the problem.
std::string capability_gap(const std::string& name, const fftmux_backend_v1& t,
                           const fftmux_desc& d) {
  std::string layout = layout_departure(d, true);
  if (layout.empty())
    layout = layout_departure(d, false);
  struct Rule {
    bool needed;
    uint32_t cap;
    const char* cap_name;
    std::string why;
  };
  const Rule rules[] = {
      {d.precision == FFTMUX_F32, FFTMUX_CAP_F32, "F32", "the problem is in single precision"},
      {d.precision == FFTMUX_F64, FFTMUX_CAP_F64, "F64", "the problem is in double precision"},
      {d.precision == FFTMUX_F16, FFTMUX_CAP_F16, "F16", "the problem is in half precision"},
      {d.precision == FFTMUX_BF16, FFTMUX_CAP_BF16, "BF16", "the problem is in bfloat16"},
      {d.kind == FFTMUX_C2C, FFTMUX_CAP_C2C, "C2C", "the problem is a C2C transform"},
      {geometry::halved_kind(d), FFTMUX_CAP_R2C, "R2C", "the problem is an R2C or C2R transform"},
      {d.kind == FFTMUX_R2R, FFTMUX_CAP_R2R, "R2R",
       "the problem is a real-to-real (DCT or DST) transform"},
      {geometry::padded(d), FFTMUX_CAP_PADDING, "PADDING",
       "the problem pads its input or cuts its output (in_extent, out_extent)"},
      {(d.flags & FFTMUX_IN_PLACE) != 0, FFTMUX_CAP_IN_PLACE, "IN_PLACE",
       "the problem is in place"},
      {(d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT)) != 0, FFTMUX_CAP_SHIFT, "SHIFT",
       "the problem shifts its input or output"},
      {!layout.empty(), FFTMUX_CAP_STRIDES, "STRIDES", layout},
  };
  for (const Rule& r : rules)
    if (r.needed && !(t.caps & r.cap))
      return "backend " + name + " lacks FFTMUX_CAP_" + r.cap_name + ": " + r.why;
  if (d.rank > t.max_rank)
    return "backend " + name + " runs rank " + std::to_string(t.max_rank) +
           " at most (max_rank): the problem has rank " + std::to_string(d.rank);
  if (d.placement == FFTMUX_DEVICE && !t.buffer_alloc)
    return "backend " + name +
           " has no buffers of its own (no buffer_alloc): DEVICE placement needs them";
  return "";
}

std::string backend_override(const char* option, std::string& how) {
  if (option && *option && std::string(option) != "auto") {
    how = "forced by the plan option backend = \"" + std::string(option) + "\"";
    return option;
  }
  std::string e = env("FFTMUX_BACKEND");
  if (!e.empty() && e != "auto") {
    how = "forced by FFTMUX_BACKEND=" + e;
    return e;
  }
  return "";
}

int preference_rank(const Config& config, const std::string& name) {
  auto it = std::find(config.preference.begin(), config.preference.end(), name);
  return int(it - config.preference.begin());
}

// The work an answer reports; nothing where a term is not a finite count.
Work work_of(const fftmux_answer_v1& a) {
  auto count = [](double v) { return std::isfinite(v) && v > 0 ? v : 0.0; };
  Work w{count(a.launches), count(a.device_bytes), count(a.host_bytes), count(a.flops),
         std::isfinite(a.estimate_seconds) ? a.estimate_seconds : -1.0};
  return w;
}

} // namespace

std::vector<Candidate> ask(Backend& backend, const Problem& problem) {
  Candidate base;
  base.backend = &backend;
  backend.load();
  if (backend.state() == FFTMUX_BACKEND_SKIPPED) {
    base.reason = "skipped: " + backend.reason();
    return {base};
  }
  std::string gap = capability_gap(backend.name(), backend.table(), problem.desc);
  if (gap.empty())
    gap = devices_gap(backend.name(), backend.table(), problem.devices);
  if (gap.empty() && problem.product &&
      !((backend.table().caps & FFTMUX_CAP_PRODUCT) &&
        FFTMUX_HAS_FIELD(&backend.table(), plan_create_v2)))
    gap = "backend " + backend.name() +
          " lacks FFTMUX_CAP_PRODUCT: the plan multiplies its output by a convolution's filter";
  if (!gap.empty()) {
    base.reason = gap;
    return {base};
  }
  if (!backend.ready()) {
    base.reason = "unavailable: " + backend.reason();
    return {base};
  }
  std::vector<Candidate> out;
  std::vector<std::string> names = backend.variants();
  const fftmux_backend_v1& t = backend.table();
  fftmux_plan_params_v1 params = plan_params(problem, 0);
  for (uint32_t v = 0; v < names.size(); ++v) {
    Candidate c = base;
    c.variant = v;
    c.variant_name = names[v];
    fftmux_answer_v1 a{};
    a.struct_size = sizeof a;
    a.estimate_seconds = -1;
    clear_plugin_message();
    int s = FFTMUX_HAS_FIELD(&t, query_v2) // never held in an enum variable: see check()
                ? t.query_v2(backend.handle(), &problem.desc, v, &params, &a)
                : t.query(backend.handle(), &problem.desc, v, &a);
    a.reason[sizeof a.reason - 1] = '\0';
    a.fingerprint[sizeof a.fingerprint - 1] = '\0';
    if (s != FFTMUX_OK) {
      c.reason = "query failed: " + std::string(last_plugin_message());
    } else {
      c.accepted = a.supported != 0;
      c.reason = a.reason;
      c.work = work_of(a);
      c.estimate = a.estimate_seconds;
      c.fingerprint = a.fingerprint;
    }
    out.push_back(c);
  }
  return out;
}

namespace {

// Attaches what the tuning cache knows about each accepted candidate.
void attach_measurements(const TuningCache& cache, const Problem& p,
                         std::vector<Candidate>& candidates) {
  std::string key = problem_key(p);
  for (Candidate& c : candidates) {
    if (!c.accepted)
      continue;
    std::string hw = engine_key(*c.backend, p.devices);
    const Measurement* m = cache.exact(key, c.backend->name(), hw);
    if (m && m->failed) {
      c.tuned_failed = true;
      c.basis = "failed when tuned: " + m->reason;
    } else if (m && m->times.count(c.variant_name)) {
      c.seconds = m->times.at(c.variant_name);
      c.basis = "measured";
    } else if (auto e = cache.interpolate(p, c.backend->name(), hw, c.variant_name)) {
      c.seconds = e->seconds;
      c.basis = e->how;
    }
  }
}

// Prices the unmeasured candidates with their backends' device models,
// calibrating a backend on first need when more than one backend competes.
void price(fftmux_context ctx, const Problem& p, std::vector<Candidate>& all,
           std::vector<std::string>& models) {
  std::vector<Backend*> open;
  for (const Candidate& c : all)
    if (c.accepted && !c.tuned_failed && c.seconds < 0 &&
        std::find(open.begin(), open.end(), c.backend) == open.end())
      open.push_back(c.backend);
  bool measure = open.size() > 1 && ctx->config.calibrate;
  for (Backend* b : open) {
    std::string note = ctx->config.calibrate ? "" : "calibrate = false in the config";
    std::shared_ptr<const Model> model;
    if (ctx->config.calibrate)
      model = ctx->calibrations.get(*b, measure, note);
    if (model)
      models.push_back(b->name() + ": " + model->describe());
    for (Candidate& c : all) {
      if (c.backend != b || !c.accepted)
        continue;
      double priced =
          model ? model->price(c.work, p.desc.precision, double(p.points), odd_rows(p.desc)) : -1;
      if (priced >= 0) {
        c.estimate = priced;
        c.estimate_basis = "calibrated";
      } else {
        c.estimate_basis = "its own estimate" + (note.empty() ? "" : " (" + note + ")");
      }
    }
  }
}

// The order of trial, and the sentence explain gives for it.
std::string rank(std::vector<Candidate>& all, const Config& config) {
  auto group = [](const Candidate& c) {
    return !c.accepted ? 3 : c.tuned_failed ? 2 : c.seconds >= 0 ? 0 : 1;
  };
  bool estimates = std::all_of(
      all.begin(), all.end(), [&](const Candidate& c) { return group(c) != 1 || c.estimate >= 0; });
  auto preference = [&](const Candidate& c) { return preference_rank(config, c.backend->name()); };
  std::stable_sort(all.begin(), all.end(), [&](const Candidate& a, const Candidate& b) {
    int ga = group(a), gb = group(b);
    if (ga != gb)
      return ga < gb;
    if (ga == 0)
      return a.seconds < b.seconds;
    if (ga == 1 && estimates && a.estimate != b.estimate)
      return a.estimate < b.estimate;
    return preference(a) < preference(b);
  });
  if (all.empty() || group(all.front()) > 1)
    return "no candidate";
  const Candidate& top = all.front();
  char time[64];
  std::snprintf(time, sizeof time, "%.3g us", top.seconds * 1e6);
  if (group(top) == 0)
    return (top.basis == "measured" ? "cache hit: " : "tuning cache, ") + top.basis + ", " + time +
           " on this hardware";
  std::string prefs;
  for (size_t i = 0; i < config.preference.size(); ++i)
    prefs += (i ? ", " : "") + config.preference[i];
  if (!estimates)
    return "heuristic: no measurement applies; first capable backend in the preference order (" +
           prefs + ")";
  bool calibrated = std::all_of(all.begin(), all.end(), [&](const Candidate& c) {
    return group(c) != 1 || c.estimate_basis == "calibrated";
  });
  return calibrated ? "estimate: no measurement applies; ordered by the device models' prices of "
                      "each plan's work"
                    : "estimate: no measurement applies; ordered by estimates, not all of them "
                      "calibrated (see each candidate)";
}

// Points each candidate at the first one of its backend with the same
// fingerprint: the same code, timed once.
void mark_duplicates(std::vector<Candidate>& all) {
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = 0; j < i && !all[i].fingerprint.empty(); ++j)
      if (all[j].same_as < 0 && all[j].backend == all[i].backend && all[j].accepted &&
          all[i].accepted && all[j].fingerprint == all[i].fingerprint) {
        all[i].same_as = int(j);
        break;
      }
}

} // namespace

Decision route(fftmux_context ctx, const Problem& problem, const char* backend_opt,
               const char* variant_opt, const std::vector<std::string>& only) {
  Decision d;
  std::string forced = backend_override(backend_opt, d.how);
  std::vector<Backend*> asked;
  if (!forced.empty()) {
    Backend* b = ctx->registry.find(forced);
    if (!b)
      fail(FFTMUX_ERROR_NOT_FOUND, "no backend named '" + forced + "' is installed (" + d.how +
                                       "); `fftmux backends` lists them");
    asked.push_back(b);
  } else {
    for (auto& b : ctx->registry.all())
      if (b->state() != FFTMUX_BACKEND_SKIPPED &&
          (only.empty() || std::find(only.begin(), only.end(), b->name()) != only.end()))
        asked.push_back(b.get());
  }
  for (Backend* b : asked)
    for (Candidate& c : ask(*b, problem))
      d.candidates.push_back(std::move(c));
  if (variant_opt && *variant_opt) {
    if (forced.empty())
      invalid("variant = \"" + std::string(variant_opt) + "\" needs a backend named as well");
    auto it = std::find_if(d.candidates.begin(), d.candidates.end(),
                           [&](const Candidate& c) { return c.variant_name == variant_opt; });
    if (it == d.candidates.end() && !d.candidates.front().variant_name.empty())
      fail(FFTMUX_ERROR_NOT_FOUND, "backend " + forced + " has no variant '" + variant_opt + "'");
    if (it != d.candidates.end())
      d.candidates = {*it};
    d.how += ", variant " + std::string(variant_opt);
  }
  attach_measurements(*ctx->tuning(), problem, d.candidates);
  price(ctx, problem, d.candidates, d.models);
  std::string order = rank(d.candidates, ctx->config);
  mark_duplicates(d.candidates);
  d.how = d.how.empty() ? order : d.how + "; " + order;
  return d;
}

std::string explain(const Problem& problem, const Decision& d, const Candidate* chosen) {
  std::ostringstream s;
  s << "problem: " << describe(problem.desc) << '\n';
  if (problem.devices.spans())
    s << "spans: " << devices_text(problem.devices) << '\n';
  if (chosen)
    s << "chosen: " << chosen->backend->name() << '/' << chosen->variant_name << '\n';
  else
    s << "chosen: none\n";
  s << "decision: " << d.how << '\n' << "candidates:\n";
  for (size_t i = 0; i < d.candidates.size(); ++i) {
    const Candidate& c = d.candidates[i];
    if (c.same_as >= 0)
      continue; // listed with the first of its code
    std::string id = c.backend->name() + (c.variant_name.empty() ? "" : "/" + c.variant_name);
    char line[160];
    std::snprintf(line, sizeof line, "  %-24s ", id.c_str());
    s << line;
    if (!c.accepted)
      s << "declined: " << c.reason;
    else if (!c.failure.empty())
      s << "accepted, then failed: " << c.failure;
    else
      s << "accepted" << (c.reason.empty() ? "" : ": " + c.reason);
    if (c.seconds >= 0)
      s << " (" << c.basis << ": " << c.seconds * 1e6 << " us)";
    else if (!c.basis.empty())
      s << " (" << c.basis << ")";
    if (c.estimate >= 0)
      s << " (estimate " << c.estimate * 1e6 << " us"
        << (c.estimate_basis.empty() ? "" : ", " + c.estimate_basis) << ")";
    std::string same;
    for (const Candidate& o : d.candidates)
      if (o.same_as == int(i))
        same += (same.empty() ? "" : ", ") + o.variant_name;
    if (!same.empty())
      s << " (the same kernels as " << same << ")";
    s << '\n';
  }
  if (!d.models.empty())
    s << "device models:\n";
  for (const std::string& m : d.models)
    s << "  " << m << '\n';
  return s.str();
}

} // namespace fftmux
