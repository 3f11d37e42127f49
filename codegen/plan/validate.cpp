// The combinations of a kernel's modes that the emitter supports, checked on every kernel the
// planner makes (validate()).
#include "plan/planner.hpp"

#include <stdexcept>

namespace fftmux::codegen {

namespace {

// Throws the rule's message where it does not hold.
void require(bool holds, const Kernel& k, const char* rule) {
  if (!holds)
    throw std::logic_error("kernel " + k.name + " breaks a rule: " + rule);
}

// Sides through another mapping or a flat run: only for several lines a group, each in elements
// a flat run can take.
void mappings(const Kernel& k) {
  bool direct = k.load_mapping == Mapping::direct && k.store_mapping == Mapping::direct;
  require(direct || k.teams > 1, k, "an alt or flat mapping needs several lines a group");
  require(k.load_mapping != Mapping::flat || k.load.access == Access::complex, k,
          "a flat load reads complex elements");
  require(k.store_mapping != Mapping::flat || k.store.access == Access::complex ||
              k.store.access == Access::real_pair,
          k, "a flat store writes complex elements or real pairs");
  require(k.load.access != Access::fold_ends, k, "folded ends are stored, never loaded");
}

// Chunked exchanges, streamed lines and clusters: one line a group, or the cluster's columns.
void exchanges(const Kernel& k) {
  bool chunked = k.exchange == Exchange::chunked;
  require(chunked == (k.chunks > 1), k, "chunks above 1 exactly in a chunked exchange");
  require(!chunked || k.teams == 1, k, "a chunked exchange holds one line a group");
  require(!planning::r2c_post(k) || k.exchange == Exchange::whole || k.cluster > 1, k,
          "R2C's post step reads both components of shared memory: a whole exchange");
  bool streamed = k.exchange == Exchange::streamed;
  require(!streamed || k.teams == 1, k, "a streamed line is one a group");
  require(!streamed || (k.load_mapping == Mapping::direct && k.load.access == Access::complex), k,
          "a streamed line is copied whole: a direct complex load");
  require(!streamed || (k.cluster == 1 && k.resident_groups == 1), k,
          "a streamed group loops alone on its multiprocessor, in no cluster");
  require(k.cluster_columns == 1 || k.cluster > 1, k, "cluster columns only in a cluster");
  require(k.cluster == 1 || k.teams == k.cluster_columns, k, "a cluster's group holds its columns");
}

// The real steps: mirror lines in whole pairs of a group, mirror pairs sides direct.
void real_steps(const Kernel& k) {
  bool lines = k.real_step == RealStep::mirror_lines;
  bool pairs = k.real_step == RealStep::mirror_pairs;
  require(lines == (k.mirror_lines > 0) && pairs == (k.mirror_pairs > 0), k,
          "mirror_lines and mirror_pairs are counts of their real step alone");
  require(!lines || (k.mirror_lines % 2 == 0 && k.teams % 2 == 0 && !k.digits.empty() &&
                     k.digits[0] == k.mirror_lines),
          k, "mirror lines: digit 0 of an even extent, whole pairs in a group");
  require(!pairs || (k.load_mapping == Mapping::direct && k.store_mapping == Mapping::direct), k,
          "mirror pairs load and store both outputs of a slot directly");
  for (size_t i = 0; i + 1 < k.steps.size(); ++i)
    require(k.steps[i].kind != Step::r2c_post, k, "R2C's post step is the last");
}

} // namespace

bool planning::tail_fits(const Kernel& k) {
  const Step* last = nullptr;
  for (const Step& s : k.steps)
    if (s.kind == Step::stage)
      last = &s;
    else if (s.kind != Step::multiply)
      return false;
  bool plain =
      k.exchange == Exchange::whole && k.cluster == 1 && k.store_mapping == Mapping::direct;
  int64_t threads = int64_t(k.threads);
  return plain && last && (k.length / last->radix + threads - 1) / threads > 1;
}

void validate(const Kernel& k) {
  mappings(k);
  exchanges(k);
  real_steps(k);
  require(!k.butterfly_tail || planning::tail_fits(k), k,
          "a butterfly tail runs a last stage followed by multiplications alone, exchanged whole "
          "outside a cluster, stored in its layout, of several butterflies a thread");
  require(k.store_weights.offset < 0 || (k.store_mapping != Mapping::flat && k.cluster == 1), k,
          "store weights index the stored values by their position along the line: no flat "
          "store, no cluster");
}

} // namespace fftmux::codegen
