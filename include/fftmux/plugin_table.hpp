// A backend's function table and entry point, written once for every
// plugin. The plugin defines, in its namespace, the functions named as
// fftmux_backend_v1's fields (init, shutdown, about, query, plan_create,
// plan_destroy, execute, execute_buffers, synchronize, buffer_alloc,
// buffer_wrap, buffer_free, buffer_write, buffer_read, buffer_native) and
// a function that returns its identity, then at global scope:
//
//   FFTMUX_PLUGIN_TABLE(my::backend, identity(), nullptr)   // or its plan_set_stream
//
// which defines the table and exports fftmux_plugin_entry (plugin.h); the
// fields added later are null. FFTMUX_PLUGIN_TABLE_OPTIONAL names each
// optional field: plan_set_stream, plan_create_v2 (nullptr where absent);
// FFTMUX_PLUGIN_TABLE_DISTRIBUTED adds the distributed entries;
// FFTMUX_PLUGIN_TABLE_DEVICES those of plans across devices.
#pragma once

#include "plugin.h"

#include <vector>

namespace fftmux::plugin {

// The capabilities of the whole descriptor of ABI 1: a backend that runs
// every precision, kind, layout, placement in place and shift.
constexpr uint32_t whole_api = FFTMUX_CAP_F32 | FFTMUX_CAP_F64 | FFTMUX_CAP_C2C | FFTMUX_CAP_R2C |
                               FFTMUX_CAP_STRIDES | FFTMUX_CAP_IN_PLACE | FFTMUX_CAP_SHIFT;
// The 16-bit storage precisions: a backend that runs them, or declines them
// in query with a reason of its own, adds these.
constexpr uint32_t half_caps = FFTMUX_CAP_F16 | FFTMUX_CAP_BF16;

// What a backend is, beside its functions.
struct Identity {
  const char* name;
  const char* version;
  uint32_t caps;
  uint32_t max_rank;
  uint32_t domain; // fftmux_domain of its buffers
  uint32_t variant_count;
  const char* const* variants; // the preferred first
};

// A whole-API backend of this SDK's version: its name, the fftmux_domain of
// its buffers and its variant names (the preferred first), which must outlive
// it; `more` adds capabilities (half_caps).
inline Identity whole_identity(const char* name, uint32_t domain,
                               const std::vector<const char*>& variants, uint32_t more = 0) {
  return {name,   FFTMUX_VERSION_STRING,     whole_api | more, FFTMUX_MAX_RANK,
          domain, uint32_t(variants.size()), variants.data()};
}

} // namespace fftmux::plugin

// The table is made on the first call of the entry point (an identity may
// allocate its variant names); failing to, the plugin declines to load.
#define FFTMUX_PLUGIN_TABLE(NS, IDENTITY, PLAN_SET_STREAM)                                         \
  FFTMUX_PLUGIN_TABLE_OPTIONAL(NS, IDENTITY, PLAN_SET_STREAM, nullptr)
#define FFTMUX_PLUGIN_TABLE_OPTIONAL(NS, IDENTITY, PLAN_SET_STREAM, PLAN_CREATE_V2)                \
  FFTMUX_PLUGIN_TABLE_TAIL(NS, IDENTITY, PLAN_SET_STREAM, PLAN_CREATE_V2, nullptr, nullptr,        \
                           nullptr, nullptr, nullptr, nullptr, nullptr)
// A distributed backend's: NS also defines distributed_agree,
// query_distributed, plan_create_distributed and plan_local.
#define FFTMUX_PLUGIN_TABLE_DISTRIBUTED(NS, IDENTITY, PLAN_CREATE_V2)                              \
  FFTMUX_PLUGIN_TABLE_TAIL(NS, IDENTITY, nullptr, PLAN_CREATE_V2, distributed_agree,               \
                           query_distributed, plan_create_distributed, plan_local, nullptr,        \
                           nullptr, nullptr)
// A backend whose plans span devices: NS also defines plan_create_v2,
// query_v2, plan_buffer_alloc and buffer_piece (caps with FFTMUX_CAP_DEVICES).
#define FFTMUX_PLUGIN_TABLE_DEVICES(NS, IDENTITY, PLAN_SET_STREAM)                                 \
  FFTMUX_PLUGIN_TABLE_TAIL(NS, IDENTITY, PLAN_SET_STREAM, plan_create_v2, nullptr, nullptr,        \
                           nullptr, nullptr, query_v2, plan_buffer_alloc, buffer_piece)
// The table with the optional fields given in order after plan_set_stream.
#define FFTMUX_PLUGIN_TABLE_TAIL(NS, IDENTITY, ...)                                                \
  namespace NS {                                                                                   \
  const fftmux_backend_v1& plugin_table() {                                                        \
    static const ::fftmux::plugin::Identity id = IDENTITY;                                         \
    static const fftmux_backend_v1 table = {sizeof(fftmux_backend_v1),                             \
                                            FFTMUX_PLUGIN_ABI_VERSION,                             \
                                            id.name,                                               \
                                            id.version,                                            \
                                            id.caps,                                               \
                                            id.max_rank,                                           \
                                            id.domain,                                             \
                                            id.variant_count,                                      \
                                            id.variants,                                           \
                                            init,                                                  \
                                            shutdown,                                              \
                                            about,                                                 \
                                            query,                                                 \
                                            plan_create,                                           \
                                            plan_destroy,                                          \
                                            execute,                                               \
                                            execute_buffers,                                       \
                                            synchronize,                                           \
                                            buffer_alloc,                                          \
                                            buffer_wrap,                                           \
                                            buffer_free,                                           \
                                            buffer_write,                                          \
                                            buffer_read,                                           \
                                            buffer_native,                                         \
                                            __VA_ARGS__};                                          \
    return table;                                                                                  \
  }                                                                                                \
  }                                                                                                \
  extern "C" FFTMUX_PLUGIN_EXPORT const fftmux_backend_v1* fftmux_plugin_entry(                    \
      uint32_t host_abi) {                                                                         \
    try {                                                                                          \
      return host_abi >= 1 ? &NS::plugin_table() : nullptr;                                        \
    } catch (...) {                                                                                \
      return nullptr;                                                                              \
    }                                                                                              \
  }
