// The device profiles: one entry an API, and what the kind of device leaves
// a variant's open options. (docs/codegen-rules.md: device_defaults,
// dialect_limits)
#include <fftmux/codegen.hpp>

namespace fftmux::codegen {
namespace {

Profile vulkan() {
  Profile p{Api::vulkan};
  p.group_value_bytes = 1 << 15; // NVIDIA's compiler spends several registers a value
  return p;
}

Profile opengl() {
  Profile p{Api::opengl};
  p.max_composite = 25;           // no radix 27
  p.large_composites_from = 2048; // composites above 16 from 2048 points
  p.sm_shared_bytes = 65536;      // NVIDIA's GL driver grants an SM 64 KiB
  return p;
}

Profile cuda() {
  Profile p{Api::cuda};
  p.max_composite = 49;
  p.launch_bounds = true;
  p.sm90 = true;
  p.long_f64_columns = true;
  p.f32_real_rows = true;
  return p;
}

} // namespace

Api api_of(Dialect dialect) {
  return dialect == Dialect::cuda     ? Api::cuda
         : dialect == Dialect::opengl ? Api::opengl
                                      : Api::vulkan;
}

const Profile& profile(Api api) {
  static const Profile table[] = {vulkan(), opengl(), cuda()}; // in Api's order
  return table[int(api)];
}

Device dialect_limits(Device d, Dialect dialect) {
  d.api = api_of(dialect);
  const Profile& p = profile(d.api);
  d.max_composite = p.max_composite;
  d.large_composites_from = p.large_composites_from;
  d.sm_shared_bytes = p.sm_shared_bytes;
  d.group_value_bytes = p.group_value_bytes;
  if (!p.sm90) {
    d.cluster = 0;
    d.bulk_copy = false;
  }
  return d;
}

Options device_defaults(Options o, bool cpu) {
  struct Kind {
    uint32_t group_threads, values_per_thread; // 0: by precision
  };
  static constexpr Kind gpu{64, 0}, cpu_driver{256, 4};
  const Kind& k = cpu ? cpu_driver : gpu;
  if (!o.group_threads)
    o.group_threads = k.group_threads;
  if (!o.values_per_thread)
    o.values_per_thread = k.values_per_thread;
  return o;
}

} // namespace fftmux::codegen
