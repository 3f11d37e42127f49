// The tuning cache (core/tuning.cpp): any text is a list of measurements or
// an Error(INVALID_ARGUMENT) naming the file. What was read is written back
// (TOML and binary index) as the same entries, and routing's lookups over
// it, exact and interpolated, answer without failing.
#include "fuzz.hpp"
#include "measurements.hpp"

#include <error.hpp>

#include <set>
#include <tuple>

namespace {

using fftmux::Measurement;

// One problem of every family at a few sizes: the lookups of routing.
std::vector<fftmux::Problem> probes() {
  std::vector<fftmux::Problem> all;
  for (uint32_t kind : {FFTMUX_C2C, FFTMUX_R2C})
    for (uint32_t precision : {FFTMUX_F32, FFTMUX_F64})
      for (uint32_t placement : {FFTMUX_HOST, FFTMUX_DEVICE})
        for (uint32_t rank = 1; rank <= 3; ++rank)
          for (int64_t n : {2, 100, 4096}) {
            fftmux_desc d;
            fftmux_desc_init(&d);
            d.rank = rank;
            d.n[0] = d.n[1] = d.n[2] = n;
            d.kind = kind;
            d.precision = precision;
            d.placement = placement;
            all.push_back(fftmux::validate(&d));
          }
  return all;
}

void look_up(const std::vector<Measurement>& all) {
  static const std::vector<fftmux::Problem> problems = probes();
  fftmux::TuningCache cache;
  cache.assign(all);
  std::set<std::tuple<std::string, std::string, std::string>> asked;
  for (const Measurement& m : all) {
    fuzz::expect(cache.exact(m.problem, m.backend, m.hardware) != nullptr,
                 "every entry read is found by its key");
    if (asked.size() >= 8 || !asked.emplace(m.backend, m.hardware, m.variant).second)
      continue;
    for (const fftmux::Problem& p : problems)
      if (auto e = cache.interpolate(p, m.backend, m.hardware, m.variant))
        fuzz::expect(!e->how.empty(), "an estimate says how it was made");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<Measurement> all;
  try {
    all = fftmux::parse_cache(fuzz::text(data, size), "fuzz.toml");
  } catch (const fftmux::Error& e) {
    fuzz::expect(e.status() == FFTMUX_ERROR_INVALID_ARGUMENT, "a bad cache is INVALID_ARGUMENT");
    fuzz::expect(std::string(e.what()).rfind("fuzz.toml", 0) == 0, "the message names the file");
    return 0;
  }
  std::vector<Measurement> again = fftmux::parse_cache(fftmux::write_cache_text(all), "again");
  fuzz::expect(fuzz::same(all, again),
               "a cache written back reads as the same entries, to the bit");
  fftmux::FileIdentity id{uint64_t(size), 1, 2};
  auto indexed = fftmux::decode_index(fftmux::encode_index(all, id), id);
  fuzz::expect(indexed && fuzz::same(all, *indexed), "the index holds every bit");
  look_up(all);
  return 0;
}
