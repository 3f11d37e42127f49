/*
 * fftmux plugin ABI, version 1. docs/plugins.md is the contract in prose.
 *
 * A plugin is a shared library exporting
 *     const fftmux_backend_v1* fftmux_plugin_entry(uint32_t host_abi_version);
 * announced by a TOML manifest beside it. The returned table lives as long
 * as the library; it only ever grows at its end, and struct_size tells the
 * host which fields exist. Only C types cross the boundary; every function
 * catches its own exceptions and may be called from any thread (a plugin
 * serializes internally what its engine cannot do concurrently). Failing
 * functions call host->set_error with a full sentence and return a status.
 */
#ifndef FFTMUX_PLUGIN_H
#define FFTMUX_PLUGIN_H

#include "fftmux.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FFTMUX_PLUGIN_ABI_VERSION 1u
#define FFTMUX_PLUGIN_ENTRY "fftmux_plugin_entry"

/* What the host gives a plugin at init. The table itself is valid only
 * during init (it belongs to one context; the library may serve several):
 * copy it, into the backend that init creates, not into a global: inits of
 * different contexts may run at the same time on different threads. Its
 * functions stay valid while the library is loaded; config, host_data and
 * cache_dir only during init. */
typedef struct fftmux_host_v1 {
  uint32_t struct_size;
  uint32_t abi_version;
  /* Sets the message fftmux_last_error() returns on the calling thread. */
  void (*set_error)(const char* message);
  /* A value of the plugin's own table [backends.<name>] of the config file,
   * as text; NULL when absent. */
  const char* (*config)(void* host_data, const char* key);
  void* host_data;
  /* Folder for the plugin's persistent caches (wisdom, SPIR-V, cubins),
   * created on demand by the plugin. */
  const char* cache_dir;
  /* Replaces a file atomically (temporary file, then rename), creating its
   * folders: for caches that another process may read at the same time. */
  fftmux_status (*write_file)(const char* path, const void* data, size_t size);
  /* The application's device for this backend (fftmux_native_device's
   * handles, native_count of them), NULL when it gave none. Added after the
   * first release: read it only when struct_size covers it. */
  const uint64_t* native;
  uint32_t native_count;
} fftmux_host_v1;

/* Memory domains of fftmux_backend_v1.domain. */
typedef enum fftmux_domain {
  FFTMUX_DOMAIN_HOST = 0,   /* native handle: a host pointer */
  FFTMUX_DOMAIN_CUDA = 1,   /* CUdeviceptr */
  FFTMUX_DOMAIN_VULKAN = 2, /* VkBuffer */
  FFTMUX_DOMAIN_OPENGL = 3  /* GL buffer name */
} fftmux_domain;

/* Capability bits of fftmux_backend_v1.caps: a summary the host checks
 * before asking query, so a plugin is not loaded for what it never runs. */
#define FFTMUX_CAP_F32 0x1u
#define FFTMUX_CAP_F64 0x2u
#define FFTMUX_CAP_C2C 0x4u
#define FFTMUX_CAP_R2C 0x8u /* R2C and C2R */
#define FFTMUX_CAP_STRIDES 0x10u
#define FFTMUX_CAP_IN_PLACE 0x20u
#define FFTMUX_CAP_SHIFT 0x40u
/* Distributed plans (the distributed entries at the table's end). */
#define FFTMUX_CAP_DISTRIBUTED 0x80u
/* FFTMUX_R2R (DCT and DST); added after the first release: the host never
 * asks a plugin without it about an R2R problem. */
#define FFTMUX_CAP_R2R 0x100u
/* Half-precision storage (FFTMUX_F16, FFTMUX_BF16; arithmetic in F32). */
#define FFTMUX_CAP_F16 0x200u
#define FFTMUX_CAP_BF16 0x400u
/* Plans across several of the backend's devices (query_v2, plan_create_v2,
 * plan_buffer_alloc and buffer_piece read or make them); added after the
 * first release: the host never asks a plugin without it about such a plan. */
#define FFTMUX_CAP_DEVICES 0x800u
/* Padded sides (fftmux_desc.in_extent, out_extent); added after the first
 * release: the host never asks a plugin without it about a padded problem. */
#define FFTMUX_CAP_PADDING 0x1000u
/* A product fused into a forward plan (fftmux_plan_params_v1.product);
 * added after the first release: the host never hands a product to a
 * plugin without it, and one with it declines a product it cannot fuse. */
#define FFTMUX_CAP_PRODUCT 0x2000u

/* Answer of query: supported, or declined with a reason. */
typedef struct fftmux_answer_v1 {
  uint32_t struct_size;
  uint32_t supported;
  double estimate_seconds; /* < 0: no estimate */
  char reason[512];

  /* ---- added after the first release: write them only when the host's
   * struct_size covers them (FFTMUX_ANSWER_HAS) ---- */

  /* The work of one execution of the plan the plugin would make, which the
   * host prices with a model of the device calibrated on this machine
   * (docs/routing.md); 0 where a term does not apply. */
  double launches;     /* kernel launches, dispatches or engine calls */
  double device_bytes; /* bytes read plus written in the engine's memory, every pass counted */
  double host_bytes;   /* bytes copied between host and engine memory (HOST placement) */
  double flops;        /* floating-point operations */
  /* The same text for two variants exactly when they run the same code on
   * this problem (a hash of the kernels, say); "" when the plugin cannot
   * tell. The host times such variants once. */
  char fingerprint[64];
} fftmux_answer_v1;

/* The size of the first release's answer. */
#define FFTMUX_ANSWER_V1_MIN_SIZE offsetof(fftmux_answer_v1, launches)

/* Whether the host's answer a has room for field, e.g. FFTMUX_ANSWER_HAS(a, flops). */
#define FFTMUX_ANSWER_HAS(a, field)                                                                \
  ((a)->struct_size >= offsetof(fftmux_answer_v1, field) + sizeof((a)->field))

/* What plan_create_v2 gets beyond plan_create's arguments, and answers.
 * It only ever grows at its end: struct_size tells the plugin which fields
 * the host wrote. */
typedef struct fftmux_plan_params_v1 {
  uint32_t struct_size;
  /* In: the threads the plan is to run on, 0 for the backend's default.
   * Out: the most threads the plan runs on; 0 where the backend cannot tell. */
  uint32_t threads;
  /* ---- added after the first release: read them only where struct_size covers them ---- */
  /* In: the device_count distinct devices the plan spans, as the application
   * listed them (fftmux_plan_options); NULL and 0: one device, the backend's
   * own. Never set for a plugin without FFTMUX_CAP_DEVICES. */
  const uint32_t* devices;
  uint32_t device_count;
  uint32_t order; /* In: fftmux_order of a DEVICE plan's output across devices */
  /* In: a spectrum that multiplies the forward transform's output element
   * by element, the same for every transform of the batch: product_points
   * complex values (interleaved doubles) in the packed layout of one
   * transform's output, which the plan's output then has (a C2C plan's
   * inverse direction runs without it). A convolution's
   * filter, so that its product takes no pass of its own. product_points
   * may be F times one output's points, F spectra: each output value is
   * then stored F times, the f-th times spectrum f at its place plus f
   * outputs, the outputs F outputs apart (out_distance). NULL: none.
   * Never set for a plugin without FFTMUX_CAP_PRODUCT; read only during
   * plan_create_v2. */
  const double* product;
  int64_t product_points;
} fftmux_plan_params_v1;

/* What the ranks of a communicator agree on before and while they run a
 * distributed plan: each rank's status and message in, the same verdict on
 * every rank out. */
typedef struct fftmux_agreement_v1 {
  uint32_t struct_size;
  /* In: this rank's status (an fftmux_status). Out: the status of the
   * lowest failing rank, or FFTMUX_OK where none failed. */
  int32_t status;
  /* In: text every rank must give alike (the problem), NULL for none; a
   * rank whose text differs from rank 0's fails with a message naming it. */
  const char* key;
  /* In, before an execution: the rank's arrays, for the backend to agree in
   * the same step on what it needs of them (FFTW-MPI: their alignment);
   * NULL otherwise. */
  const void* in;
  const void* out;
  /* In: this rank's message where its status fails. Out: the agreed one. */
  char message[1024];
} fftmux_agreement_v1;

/* Description of an initialized backend. */
typedef struct fftmux_about_v1 {
  uint32_t struct_size;
  uint32_t reserved;
  char devices[512];      /* one line per device */
  char hardware_key[512]; /* engine version, device name, driver, UUID / CPU model, threads */
  /* ---- added after the first release: write it only where struct_size covers it ---- */
  uint32_t max_devices; /* the most devices one plan spans; 0: one */
  uint32_t reserved2;
} fftmux_about_v1;

typedef struct fftmux_backend_v1 {
  uint32_t struct_size;
  uint32_t abi_version; /* the ABI the plugin was built for */
  const char* name;     /* lower case, [a-z0-9_-] */
  const char* version;
  uint32_t caps; /* FFTMUX_CAP_* */
  uint32_t max_rank;
  uint32_t domain; /* fftmux_domain of its buffers */
  uint32_t variant_count;
  const char* const* variants; /* variant names, the preferred first */

  /* Probes devices. Failure (no driver, no device) leaves the backend
   * listed as unavailable with the message given to set_error. */
  fftmux_status (*init)(const fftmux_host_v1* host, void** backend);
  void (*shutdown)(void* backend);
  fftmux_status (*about)(void* backend, fftmux_about_v1* about);

  /* The descriptor given to query and plan_create is valid and has its
   * strides and distances resolved (never 0). */
  fftmux_status (*query)(void* backend, const fftmux_desc* desc, uint32_t variant,
                         fftmux_answer_v1* answer);
  fftmux_status (*plan_create)(void* backend, const fftmux_desc* desc, uint32_t variant,
                               void** plan);
  void (*plan_destroy)(void* plan);
  /* Host pointers; out == in for in-place plans. */
  fftmux_status (*execute)(void* plan, int direction, const void* in, void* out);
  fftmux_status (*execute_buffers)(void* plan, int direction, void* in, void* out);
  fftmux_status (*synchronize)(void* plan);

  fftmux_status (*buffer_alloc)(void* backend, uint64_t bytes, void** buffer);
  fftmux_status (*buffer_wrap)(void* backend, uint64_t native, uint64_t bytes, void** buffer);
  void (*buffer_free)(void* buffer);
  fftmux_status (*buffer_write)(void* buffer, uint64_t offset, const void* src, uint64_t bytes);
  fftmux_status (*buffer_read)(void* buffer, uint64_t offset, void* dst, uint64_t bytes);
  uint64_t (*buffer_native)(void* buffer);

  /* ---- added after the first release: check struct_size before use ---- */

  /* Runs the plan's work on a native queue of the backend (a cudaStream_t
   * for CUDA); 0 returns it to the plan's own. May be NULL. */
  fftmux_status (*plan_set_stream)(void* plan, uint64_t native_stream);
  /* plan_create with parameters, which the host then calls instead of
   * plan_create. A plugin that has it honours params->threads or declines
   * the plan; one without it runs its own threads. May be NULL. */
  fftmux_status (*plan_create_v2)(void* backend, const fftmux_desc* desc, uint32_t variant,
                                  fftmux_plan_params_v1* params, void** plan);

  /* Distributed plans (FFTMUX_CAP_DISTRIBUTED; all four, or none). Every one
   * but plan_local is collective over the communicator. */
  /* The agreement above over comm (a Fortran handle, or FFTMUX_COMM_WORLD);
   * plan: NULL, or a distributed plan of the backend whose communicator
   * serves: the host agrees so, with the arrays, before every execute of
   * it. Returns a failure only where the communication failed. */
  fftmux_status (*distributed_agree)(void* backend, uint64_t comm, void* plan,
                                     fftmux_agreement_v1* agreement);
  /* query of a distributed problem: the same answer on every rank (it
   * decides on the descriptor and decomposition, never on GIVEN boxes). */
  fftmux_status (*query_distributed)(void* backend, const fftmux_desc* desc, uint32_t variant,
                                     const fftmux_distribution* distribution,
                                     fftmux_answer_v1* answer);
  /* plan_create_v2 of a distributed problem. The descriptor is the same on
   * every rank; GIVEN boxes are checked here, and a failure on any rank is
   * every rank's, with the same message. */
  fftmux_status (*plan_create_distributed)(void* backend, const fftmux_desc* desc, uint32_t variant,
                                           fftmux_plan_params_v1* params,
                                           const fftmux_distribution* distribution, void** plan);
  /* The rank's boxes and buffer bytes (fftmux_plan_local). */
  fftmux_status (*plan_local)(void* plan, fftmux_box* in_box, fftmux_box* out_box,
                              uint64_t* in_bytes, uint64_t* out_bytes);

  /* Plans across devices (FFTMUX_CAP_DEVICES; all three with plan_create_v2,
   * or none). query with the plan's parameters (params->devices), which the
   * host calls instead of query; threads is 0 there. */
  fftmux_status (*query_v2)(void* backend, const fftmux_desc* desc, uint32_t variant,
                            const fftmux_plan_params_v1* params, fftmux_answer_v1* answer);
  /* A buffer of at least bytes laid out across the plan's devices as its
   * transform needs (cuFFT: cufftXtMalloc); buffer_free frees it. */
  fftmux_status (*plan_buffer_alloc)(void* plan, uint64_t bytes, void** buffer);
  /* The number of pieces of any of the backend's buffers into *count and,
   * where index < *count, that piece into *piece (struct_size set by the host). */
  fftmux_status (*buffer_piece)(void* buffer, uint32_t index, uint32_t* count, fftmux_piece* piece);
} fftmux_backend_v1;

/* The size of the first release's table: the least a host accepts. */
#define FFTMUX_BACKEND_V1_MIN_SIZE offsetof(fftmux_backend_v1, plan_set_stream)

/* Whether table t has the field added later, e.g. FFTMUX_HAS_FIELD(t, plan_set_stream). */
#define FFTMUX_HAS_FIELD(t, field)                                                                 \
  ((t)->struct_size >= offsetof(fftmux_backend_v1, field) + sizeof((t)->field) && (t)->field)

typedef const fftmux_backend_v1* (*fftmux_plugin_entry_fn)(uint32_t host_abi_version);

#if defined(_WIN32)
#define FFTMUX_PLUGIN_EXPORT __declspec(dllexport)
#else
#define FFTMUX_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif

#endif /* FFTMUX_PLUGIN_H */
