#include "router.hpp"

#include "error.hpp"
#include "paths.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace fftmux {

namespace {

// Declines from the static capability summary, without initializing devices.
std::string capability_gap(const fftmux_backend_v1& t, const fftmux_desc& d) {
  struct Rule {
    bool needed;
    uint32_t cap;
    const char* what;
  };
  const Rule rules[] = {
      {d.precision == FFTMUX_F32, FFTMUX_CAP_F32, "F32"},
      {d.precision == FFTMUX_F64, FFTMUX_CAP_F64, "F64"},
      {d.kind == FFTMUX_C2C, FFTMUX_CAP_C2C, "C2C"},
      {d.kind != FFTMUX_C2C, FFTMUX_CAP_R2C, "R2C/C2R"},
      {(d.flags & FFTMUX_IN_PLACE) != 0, FFTMUX_CAP_IN_PLACE, "in-place transforms"},
      {(d.flags & (FFTMUX_SHIFT_INPUT | FFTMUX_SHIFT_OUTPUT)) != 0, FFTMUX_CAP_SHIFT,
       "shift flags"},
  };
  for (const Rule& r : rules)
    if (r.needed && !(t.caps & r.cap))
      return std::string(r.what) + " not supported";
  if (d.rank > t.max_rank)
    return "rank " + std::to_string(d.rank) + " exceeds its maximum rank " +
           std::to_string(t.max_rank);
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

} // namespace

std::vector<Candidate> ask(Backend& backend, const Problem& problem) {
  Candidate base;
  base.backend = &backend;
  backend.load();
  if (backend.state() == FFTMUX_BACKEND_SKIPPED) {
    base.reason = "skipped: " + backend.reason();
    return {base};
  }
  if (std::string gap = capability_gap(backend.table(), problem.desc); !gap.empty()) {
    base.reason = gap;
    return {base};
  }
  if (!backend.ready()) {
    base.reason = "unavailable: " + backend.reason();
    return {base};
  }
  std::vector<Candidate> out;
  std::vector<std::string> names = backend.variants();
  for (uint32_t v = 0; v < names.size(); ++v) {
    Candidate c = base;
    c.variant = v;
    c.variant_name = names[v];
    fftmux_answer_v1 a{};
    a.struct_size = sizeof a;
    a.estimate_seconds = -1;
    clear_plugin_message();
    int s = backend.table().query(backend.handle(), &problem.desc, v, &a); // see check()
    a.reason[sizeof a.reason - 1] = '\0';
    if (s != FFTMUX_OK) {
      c.reason = "query failed: " + std::string(last_plugin_message());
    } else {
      c.accepted = a.supported != 0;
      c.reason = a.reason;
      c.estimate = a.estimate_seconds;
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
    std::string hw = c.backend->hardware_key();
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

// The order of trial, and the sentence explain gives for it.
std::string rank(std::vector<Candidate>& all, const Config& config) {
  auto group = [](const Candidate& c) {
    return !c.accepted ? 3 : c.tuned_failed ? 2 : c.seconds >= 0 ? 0 : 1;
  };
  bool estimates = std::all_of(
      all.begin(), all.end(), [&](const Candidate& c) { return group(c) != 1 || c.estimate >= 0; });
  std::stable_sort(all.begin(), all.end(), [&](const Candidate& a, const Candidate& b) {
    int ga = group(a), gb = group(b);
    if (ga != gb)
      return ga < gb;
    if (ga == 0)
      return a.seconds < b.seconds;
    if (ga == 1 && estimates)
      return a.estimate < b.estimate;
    return preference_rank(config, a.backend->name()) < preference_rank(config, b.backend->name());
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
  return estimates ? "heuristic: no measurement applies; ordered by the backends' own estimates"
                   : "heuristic: no measurement applies; first capable backend in the "
                     "preference order (" +
                         prefs + ")";
}

} // namespace

Decision route(fftmux_context ctx, const Problem& problem, const char* backend_opt,
               const char* variant_opt) {
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
      if (b->state() != FFTMUX_BACKEND_SKIPPED)
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
  std::string order = rank(d.candidates, ctx->config);
  d.how = d.how.empty() ? order : d.how + "; " + order;
  return d;
}

std::string explain(const Problem& problem, const Decision& d, const Candidate* chosen) {
  std::ostringstream s;
  s << "problem: " << describe(problem.desc) << '\n';
  if (chosen)
    s << "chosen: " << chosen->backend->name() << '/' << chosen->variant_name << '\n';
  else
    s << "chosen: none\n";
  s << "decision: " << d.how << '\n' << "candidates:\n";
  for (const Candidate& c : d.candidates) {
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
      s << " (estimate " << c.estimate * 1e6 << " us)";
    s << '\n';
  }
  return s.str();
}

} // namespace fftmux
