/*
 * fftmux: one stable C API for Fast Fourier Transforms, routed to the fastest
 * engine installed on the machine.
 *
 * Contract (docs/api.md has the long form):
 * - Every function returns an fftmux_status; FFTMUX_OK is 0. On failure
 *   fftmux_last_error() returns a message for the calling thread that names
 *   the function, the argument and the rule it broke.
 * - No function aborts, throws or prints on bad input.
 * - Structs passed in start with struct_size; initialize them with the
 *   matching *_init function so that fields added later get their defaults.
 * - Enum values are fixed forever; new values are only ever appended.
 */
#ifndef FFTMUX_FFTMUX_H
#define FFTMUX_FFTMUX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define FFTMUX_API __declspec(dllimport)
#else
#define FFTMUX_API __attribute__((visibility("default")))
#endif

#define FFTMUX_VERSION_MAJOR 0
#define FFTMUX_VERSION_MINOR 1
#define FFTMUX_VERSION_PATCH 0
#define FFTMUX_VERSION_STRING "0.1.0"

/* Largest rank a descriptor can hold. */
#define FFTMUX_MAX_RANK 3
/* The most threads a plan may ask for (fftmux_plan_options.threads). */
#define FFTMUX_MAX_THREADS 1024u
/* The most devices one plan may span (fftmux_plan_options.device_count). */
#define FFTMUX_MAX_DEVICES 16u

typedef enum fftmux_status {
  FFTMUX_OK = 0,
  FFTMUX_ERROR_INVALID_ARGUMENT = 1, /* the caller broke a documented rule */
  FFTMUX_ERROR_UNSUPPORTED = 2,      /* valid, but no (chosen) backend runs it */
  FFTMUX_ERROR_NOT_FOUND = 3,        /* no backend of that name */
  FFTMUX_ERROR_UNAVAILABLE = 4,      /* backend present but its device is not */
  FFTMUX_ERROR_BACKEND = 5,          /* the engine reported a failure */
  FFTMUX_ERROR_OUT_OF_MEMORY = 6,
  FFTMUX_ERROR_IO = 7, /* a file could not be read or written */
  FFTMUX_ERROR_INTERNAL = 8,
  /* Not a status: makes every non-negative int a valid value in C++ too, so
   * that values from newer or broken code can be passed around and reported
   * as unknown (fftmux_status_name) without undefined behaviour. */
  FFTMUX_STATUS_MAX_ENUM = 0x7fffffff
} fftmux_status;

typedef enum fftmux_kind {
  FFTMUX_C2C = 0, /* complex to complex */
  FFTMUX_R2C = 1, /* real to half complex, forward only */
  FFTMUX_C2R = 2, /* half complex to real, inverse only; of any complex input
                   * the part a real signal's spectrum can hold is used (the
                   * imaginary parts of the DC and Nyquist terms of the last
                   * axis are ignored), as numpy's irfftn and FFTW do */
  FFTMUX_R2R = 3  /* real to real: a DCT or DST per axis (fftmux_desc.r2r),
                   * both directions, the inverse running each axis's
                   * inverse kind (docs/api.md, "Real-to-real transforms") */
} fftmux_kind;

/* The transform of one axis of an R2R descriptor, as FFTW defines them
 * (FFTW_REDFT00 .. FFTW_RODFT11), unnormalized: for n points and logical
 * size N' = 2(n-1) for DCT-I, 2(n+1) for DST-I and 2n otherwise,
 *   DCT-I   y[k] = x[0] + (-1)^k x[n-1] + 2 sum_{j=1}^{n-2} x[j] cos(pi j k / (n-1))
 *   DCT-II  y[k] = 2 sum_j x[j] cos(pi (j+1/2) k / n)
 *   DCT-III y[k] = x[0] + 2 sum_{j>=1} x[j] cos(pi j (k+1/2) / n)
 *   DCT-IV  y[k] = 2 sum_j x[j] cos(pi (j+1/2) (k+1/2) / n)
 *   DST-I   y[k] = 2 sum_j x[j] sin(pi (j+1) (k+1) / (n+1))
 *   DST-II  y[k] = 2 sum_j x[j] sin(pi (j+1/2) (k+1) / n)
 *   DST-III y[k] = (-1)^k x[n-1] + 2 sum_{j<=n-2} x[j] sin(pi (j+1) (k+1/2) / n)
 *   DST-IV  y[k] = 2 sum_j x[j] sin(pi (j+1/2) (k+1/2) / n)
 * The inverse of II is III and of III is II; I and IV are their own, each
 * up to the factor N'. NONE marks an axis without one (every axis of the
 * other kinds). */
typedef enum fftmux_r2r_kind {
  FFTMUX_R2R_NONE = 0,
  FFTMUX_DCT1 = 1,
  FFTMUX_DCT2 = 2,
  FFTMUX_DCT3 = 3,
  FFTMUX_DCT4 = 4,
  FFTMUX_DST1 = 5,
  FFTMUX_DST2 = 6,
  FFTMUX_DST3 = 7,
  FFTMUX_DST4 = 8
} fftmux_r2r_kind;

/* F16 (IEEE half) and BF16 (bfloat16) are storage formats: the data are
 * 16-bit values (a complex one is 4 bytes, real and imaginary part), the
 * arithmetic is F32 with twiddles from double. GPU backends only. */
typedef enum fftmux_precision {
  FFTMUX_F32 = 0,
  FFTMUX_F64 = 1,
  FFTMUX_F16 = 2,
  FFTMUX_BF16 = 3
} fftmux_precision;

/* Which direction is scaled, as numpy.fft's norm argument. N is the number
 * of points; for R2R the product of the axes' logical sizes N', and ORTHO
 * also weighs the first and last terms of DCT-I..III and DST-II..III as
 * scipy.fft's orthogonalize does, making each axis orthogonal. */
typedef enum fftmux_norm {
  FFTMUX_NORM_NONE = 0,     /* never scaled */
  FFTMUX_NORM_BACKWARD = 1, /* 1/N on the inverse (numpy's default) */
  FFTMUX_NORM_ORTHO = 2,    /* 1/sqrt(N) both ways */
  FFTMUX_NORM_FORWARD = 3   /* 1/N on the forward */
} fftmux_norm;

/* Where the data lives: HOST plans are routed by end-to-end time (transfers
 * included), DEVICE plans by execution time on backend buffers. Both accept
 * fftmux_execute and fftmux_execute_buffers. */
typedef enum fftmux_placement { FFTMUX_HOST = 0, FFTMUX_DEVICE = 1 } fftmux_placement;

/* The order of a plan's output across devices (fftmux_plan_options.order,
 * fftmux_piece.order). */
typedef enum fftmux_order {
  FFTMUX_ORDER_NATURAL = 0, /* row-major, as a plan of one device writes it (the default) */
  FFTMUX_ORDER_PERMUTED = 1 /* as the engine leaves it after a transform across devices
                               (cuFFT's CUFFT_XT_FORMAT_INPLACE_SHUFFLED): no exchange after
                               the transform; DEVICE placement only */
} fftmux_order;

/* Sign of the exponent, as in FFTW. */
typedef enum fftmux_direction { FFTMUX_FORWARD = -1, FFTMUX_INVERSE = 1 } fftmux_direction;

/* Descriptor flags. The shifts follow numpy: SHIFT_INPUT transforms
 * ifftshift(input), SHIFT_OUTPUT returns fftshift(result), along every axis
 * except the halved last axis of the complex side of R2C/C2R. */
#define FFTMUX_SHIFT_INPUT 0x1u
#define FFTMUX_SHIFT_OUTPUT 0x2u
#define FFTMUX_IN_PLACE 0x4u
#define FFTMUX_FLAGS_ALL 0x7u

/*
 * A transform problem. Sizes are logical (real sizes for R2C/C2R). Strides
 * and distances count elements of the side's type (real or complex; both
 * sides of R2R are real); 0 means the default: contiguous row-major, and
 * for in-place R2C/C2R the real side padded to 2*(n[rank-1]/2+1) along its
 * last axis, as FFTW lays it out.
 */
typedef struct fftmux_desc {
  uint32_t struct_size;
  uint32_t rank;
  int64_t n[FFTMUX_MAX_RANK];
  int64_t batch;
  uint32_t kind;      /* fftmux_kind */
  uint32_t precision; /* fftmux_precision */
  uint32_t norm;      /* fftmux_norm */
  uint32_t placement; /* fftmux_placement */
  uint32_t flags;     /* FFTMUX_SHIFT_*, FFTMUX_IN_PLACE */
  uint32_t reserved;
  int64_t in_strides[FFTMUX_MAX_RANK];
  int64_t in_distance;
  int64_t out_strides[FFTMUX_MAX_RANK];
  int64_t out_distance;
  /* ---- added after the first release (an older struct_size reads as NONE) ---- */
  uint32_t r2r[FFTMUX_MAX_RANK]; /* fftmux_r2r_kind of each axis: set on the first
                                    rank axes for R2R, NONE for the other kinds */
  uint32_t reserved2;
  /* ---- added after the first release (an older struct_size reads as 0) ----
   * Zero padding without copies (docs/api.md, "Padded sides"). in_extent:
   * the points of each axis the input holds, the rest of its n[i] reading as
   * zero; out_extent: the points of each axis of the output written, the
   * prefix of the whole result. 0 = the whole axis. On the complex side of
   * R2C and C2R the last axis counts complex elements, at most n/2+1. The
   * strides, distance and fftmux_desc_layout of a side describe the array
   * of these extents. C2C, R2C and C2R, out of place, without shifts. */
  int64_t in_extent[FFTMUX_MAX_RANK];
  int64_t out_extent[FFTMUX_MAX_RANK];
} fftmux_desc;

/* Sets struct_size and defaults: rank 1, n = {1}, batch 1, C2C, F32,
 * NORM_BACKWARD, HOST, out-of-place, default strides, r2r NONE, no padding. */
FFTMUX_API void fftmux_desc_init(fftmux_desc* desc);

/* Resolved layout of a valid descriptor: element counts and byte spans that
 * the input and output buffers must hold. */
typedef struct fftmux_layout {
  uint32_t struct_size;
  uint32_t reserved;
  int64_t in_strides[FFTMUX_MAX_RANK];
  int64_t in_distance;
  int64_t out_strides[FFTMUX_MAX_RANK];
  int64_t out_distance;
  uint64_t in_bytes;  /* bytes from the first to one past the last input element */
  uint64_t out_bytes; /* same for the output */
} fftmux_layout;

FFTMUX_API fftmux_status fftmux_desc_layout(const fftmux_desc* desc, fftmux_layout* layout);

typedef struct fftmux_context_s* fftmux_context;
typedef struct fftmux_plan_s* fftmux_plan;
typedef struct fftmux_buffer_s* fftmux_buffer;

/* An application's own device, for a backend to use instead of opening its
 * own, so that the application's buffers can be wrapped (fftmux_buffer_wrap).
 * handles[] is backend-specific (docs/api.md, "An application's device"):
 * for "vulkan", VkInstance, VkPhysicalDevice, VkDevice, the queue family
 * index, the queue index and flags (bit 0: shaderFloat64 is enabled). */
typedef struct fftmux_native_device {
  const char* backend;
  uint64_t handles[8];
} fftmux_native_device;

typedef struct fftmux_context_options {
  uint32_t struct_size;
  uint32_t reserved;
  const char* config_path; /* NULL: $FFTMUX_CONFIG, then $XDG_CONFIG_HOME/fftmux/fftmux.toml */
  const char* plugin_path; /* NULL: the usual discovery (docs/plugins.md) */
  /* Application devices, one a backend at most (NULL: every backend opens
   * its own). They must outlive the context. */
  const fftmux_native_device* devices;
  uint32_t device_count;
  uint32_t reserved2;
} fftmux_context_options;

FFTMUX_API void fftmux_context_options_init(fftmux_context_options* options);

/* options may be NULL. A broken plugin or config never fails this call: it
 * is reported by fftmux_backend_get and the log. */
FFTMUX_API fftmux_status fftmux_context_create(const fftmux_context_options* options,
                                               fftmux_context* context);
/* Plans and buffers of the context must be destroyed before it. */
FFTMUX_API fftmux_status fftmux_context_destroy(fftmux_context context);

/* What the context noticed while starting: plugins skipped and why, a config
 * or tuning cache it could not use. One line each; same conventions as
 * fftmux_plan_explain. */
FFTMUX_API fftmux_status fftmux_context_notes(fftmux_context context, char* text, size_t size,
                                              size_t* needed);

/* ---- Backends ---- */

typedef enum fftmux_backend_state {
  FFTMUX_BACKEND_LISTED = 0,      /* announced by a manifest, not loaded yet */
  FFTMUX_BACKEND_READY = 1,       /* loaded and initialized */
  FFTMUX_BACKEND_UNAVAILABLE = 2, /* loaded, but init failed (no device, no driver) */
  FFTMUX_BACKEND_SKIPPED = 3      /* not loadable: see reason */
} fftmux_backend_state;

typedef struct fftmux_backend_info {
  uint32_t struct_size;
  uint32_t state; /* fftmux_backend_state */
  char name[64];
  char version[64];
  char library[1024];     /* path of the shared library */
  char reason[512];       /* why UNAVAILABLE or SKIPPED */
  char devices[512];      /* the devices the backend runs on, one per line */
  char variants[256];     /* comma-separated variant names: as many whole names as fit
                             (fftmux_backend_variants gives them all) */
  char hardware_key[512]; /* identity of the engine and device for the tuning cache */
  /* ---- added after the first release (an older struct_size leaves it out) ---- */
  uint32_t max_devices; /* the most devices one plan spans: 1 for a backend of one device,
                           0 while the backend is not initialized */
} fftmux_backend_info;

FFTMUX_API void fftmux_backend_info_init(fftmux_backend_info* info);

/* Flags of fftmux_backend_get. */
#define FFTMUX_PROBE 0x1u /* load and initialize the backend before describing it */

FFTMUX_API fftmux_status fftmux_backend_count(fftmux_context context, uint32_t* count);
FFTMUX_API fftmux_status fftmux_backend_get(fftmux_context context, uint32_t index, uint32_t flags,
                                            fftmux_backend_info* info);
/* Every variant name of backend `index`, comma-separated, in the backend's
 * order (the preferred first): the whole list where fftmux_backend_info's
 * field holds what fits. Same text conventions as fftmux_plan_explain. */
FFTMUX_API fftmux_status fftmux_backend_variants(fftmux_context context, uint32_t index, char* text,
                                                 size_t size, size_t* needed);

/* ---- Negotiation ---- */

typedef struct fftmux_support {
  uint32_t struct_size;
  uint32_t supported;      /* 1 when some variant of the backend accepts it */
  char backend[64];        /* the backend asked */
  char variants[256];      /* comma-separated variants that accept the problem (whole
                              names, as many as fit) */
  char reason[512];        /* why not, when supported == 0 */
  double estimate_seconds; /* the backend's own estimate, < 0 when it has none */
} fftmux_support;

FFTMUX_API void fftmux_support_init(fftmux_support* support);

/* Asks one backend whether it can run the problem. */
FFTMUX_API fftmux_status fftmux_query(fftmux_context context, const fftmux_desc* desc,
                                      const char* backend, fftmux_support* support);

/* ---- Plans ---- */

typedef struct fftmux_plan_options {
  uint32_t struct_size;
  uint32_t reserved;
  const char*
      backend; /* NULL or "auto": routed; else a backend name. FFTMUX_BACKEND overrides "auto". */
  const char* variant; /* NULL: the backend's best; else a variant name */
  /* ---- added after the first release (an older struct_size reads as 0) ---- */
  /* The threads the plan runs on; 0: the backend's default. Backends
   * without a per-plan count ignore it, and fftmux_plan_explain says so. */
  uint32_t threads;
  /* ---- added after the first release (an older struct_size reads as one device) ---- */
  uint32_t reserved2;
  /* The devices of one backend the plan spans (docs/api.md, "Several devices"): the
   * first device_count of them, or those listed in device_list (device_list_length
   * distinct indices; device_count then 0 or the same length). No list and a count of
   * 0 or 1: one device, the backend's own. Only backends that span devices accept such
   * a plan; fftmux never splits a problem itself. */
  const uint32_t* device_list;
  uint32_t device_list_length;
  uint32_t device_count; /* at most FFTMUX_MAX_DEVICES */
  uint32_t order;        /* fftmux_order of a DEVICE plan's output across devices */
  uint32_t reserved3;
} fftmux_plan_options;

FFTMUX_API void fftmux_plan_options_init(fftmux_plan_options* options);

FFTMUX_API fftmux_status fftmux_plan_create(fftmux_context context, const fftmux_desc* desc,
                                            const fftmux_plan_options* options, fftmux_plan* plan);
/* fftmux_query of the plan options would make (its devices and order); the
 * options' backend and variant are ignored. options may be NULL. */
FFTMUX_API fftmux_status fftmux_query_plan(fftmux_context context, const fftmux_desc* desc,
                                           const char* backend, const fftmux_plan_options* options,
                                           fftmux_support* support);
FFTMUX_API fftmux_status fftmux_plan_destroy(fftmux_plan plan);

/* Writes the routing decision as text. needed (may be NULL) receives the
 * length including the terminating zero; text is truncated to size. */
FFTMUX_API fftmux_status fftmux_plan_explain(fftmux_plan plan, char* text, size_t size,
                                             size_t* needed);
/* Name of the backend and variant running the plan; valid while the plan lives. */
FFTMUX_API fftmux_status fftmux_plan_backend(fftmux_plan plan, const char** backend,
                                             const char** variant);
FFTMUX_API fftmux_status fftmux_plan_desc(fftmux_plan plan, fftmux_desc* desc);

/* Host memory. In-place plans take out == in (or out == NULL). One call at a
 * time per plan; different plans may run concurrently. */
FFTMUX_API fftmux_status fftmux_execute(fftmux_plan plan, int direction, const void* in, void* out);
/* Backend memory: buffers of the plan's backend. */
FFTMUX_API fftmux_status fftmux_execute_buffers(fftmux_plan plan, int direction, fftmux_buffer in,
                                                fftmux_buffer out);
/* Waits until work submitted through the plan has finished. */
FFTMUX_API fftmux_status fftmux_plan_synchronize(fftmux_plan plan);
/* Queues the plan's work on a native queue of its backend: a cudaStream_t
 * (CUstream) on cuda; 0 returns the plan to its own queue. The caller orders
 * buffer reads after that queue. Backends without queues answer
 * FFTMUX_ERROR_UNSUPPORTED. */
FFTMUX_API fftmux_status fftmux_plan_set_stream(fftmux_plan plan, uint64_t native_stream);

/* ---- Buffers: memory owned by a backend ---- */

FFTMUX_API fftmux_status fftmux_buffer_create(fftmux_context context, const char* backend,
                                              uint64_t bytes, fftmux_buffer* buffer);
/* A buffer on the backend that runs plan. */
FFTMUX_API fftmux_status fftmux_buffer_create_for_plan(fftmux_plan plan, uint64_t bytes,
                                                       fftmux_buffer* buffer);
/* Wraps a native handle the caller owns: a host pointer (fftw), a CUdeviceptr
 * (cuda), a VkBuffer (vulkan), a GL buffer name (opengl). */
FFTMUX_API fftmux_status fftmux_buffer_wrap(fftmux_context context, const char* backend,
                                            uint64_t native, uint64_t bytes, fftmux_buffer* buffer);
FFTMUX_API fftmux_status fftmux_buffer_destroy(fftmux_buffer buffer);
FFTMUX_API fftmux_status fftmux_buffer_write(fftmux_buffer buffer, uint64_t offset, const void* src,
                                             uint64_t bytes);
FFTMUX_API fftmux_status fftmux_buffer_read(fftmux_buffer buffer, uint64_t offset, void* dst,
                                            uint64_t bytes);
FFTMUX_API fftmux_status fftmux_buffer_native(fftmux_buffer buffer, uint64_t* native);
FFTMUX_API fftmux_status fftmux_buffer_size(fftmux_buffer buffer, uint64_t* bytes);

/* One device's piece of a buffer. A buffer of a plan across devices
 * (fftmux_buffer_create_for_plan) has one a device, in the plan's device
 * order; any other buffer is one piece, the whole. */
typedef struct fftmux_piece {
  uint32_t struct_size;
  uint32_t device; /* the backend's index of the device holding it (0: the backend's own
                      where the backend does not tell) */
  uint64_t native; /* its memory, as fftmux_buffer_native (a CUdeviceptr on cuda) */
  uint64_t offset; /* bytes of the buffer's pieces before it */
  uint64_t bytes;  /* its size */
  uint32_t order;  /* fftmux_order of the data it holds now */
  uint32_t reserved;
} fftmux_piece;

FFTMUX_API void fftmux_piece_init(fftmux_piece* piece);
FFTMUX_API fftmux_status fftmux_buffer_piece_count(fftmux_buffer buffer, uint32_t* count);
FFTMUX_API fftmux_status fftmux_buffer_piece(fftmux_buffer buffer, uint32_t index,
                                             fftmux_piece* piece);

/* ---- Autotuning: measurements that route "auto" plans ---- */

/* One measurement of one problem on one backend variant, as autotune reports
 * it through its progress callback. */
typedef struct fftmux_tune_record {
  uint32_t struct_size;
  uint32_t ok;            /* 1: measured and its round trip verified */
  uint32_t problem_index; /* 0-based, of problem_count */
  uint32_t problem_count;
  fftmux_desc desc;
  char backend[64];
  char variant[64];
  char reason[512]; /* why not ok: declined, failed, wrong result, skipped */
  double plan_seconds;
  double upload_seconds;  /* host to backend memory, < 0 when the backend has none */
  double execute_seconds; /* on backend memory */
  double download_seconds;
  double median_seconds;   /* what routing compares: HOST end to end, DEVICE execution */
  double spread_seconds;   /* interquartile range of the timed runs */
  double round_trip_error; /* relative L2 error of inverse(forward(x)) against x */
  double gbytes_per_second;
  double elapsed_seconds; /* since autotune started */
  double eta_seconds;     /* estimate of what is left, < 0 when unknown */
  /* ---- added after the first release ---- */
  char same_as[64]; /* the variant whose kernels this one runs, timed once for both; "" */
  uint32_t runs;    /* timed runs behind median_seconds (a race times the losers less) */
  uint32_t reserved;
  double check_seconds; /* the round trip's check, with the data's allocation and upload */
} fftmux_tune_record;

typedef void (*fftmux_tune_progress)(void* user, const fftmux_tune_record* record);

typedef struct fftmux_tune_options {
  uint32_t struct_size;
  uint32_t repeats;              /* timed runs per candidate; default 15 */
  uint32_t warmup;               /* untimed runs first; default 3 */
  uint32_t write_cache;          /* 1 (default): merge the results into the tuning cache */
  double budget_seconds;         /* start no problem after this long; 0: no limit */
  const char* backends;          /* comma-separated backend names; NULL: all */
  const char* cache_path;        /* NULL: the context's tuning cache */
  uint64_t seed;                 /* of the random interleaving and data; 0: fixed default */
  fftmux_tune_progress progress; /* called after every record; may be NULL */
  void* user;
  /* ---- added after the first release ---- */
  uint32_t exhaustive; /* 1: every distinct candidate gets every repeat; 0 (default): a race */
  uint32_t reserved;
  double skip_factor; /* race: candidates whose estimate is over skip_factor times the best
                         time measured are skipped, and recorded so; 0: 4 */
} fftmux_tune_options;

FFTMUX_API void fftmux_tune_options_init(fftmux_tune_options* options);

/* Measures every problem on the capable backends and variants and merges
 * the results into the tuning cache, which routes later "auto" plans.
 * Variants that run the same kernels are timed once and recorded under
 * every name. By default a race: each candidate a short timing, the faster
 * half more runs, and so on, those estimated far slower than the best time
 * skipped; options->exhaustive times every candidate fully. Every timed
 * candidate's round trip is checked; plan, upload, execute and download of
 * each backend's best are timed apart; warm-up, median of repeats,
 * candidates interleaved in random order. */
FFTMUX_API fftmux_status fftmux_autotune(fftmux_context context, const fftmux_desc* problems,
                                         size_t count, const fftmux_tune_options* options);

/* Problem sets of autotune: FFTMUX_TUNE_DEFAULT covers what users run,
 * FFTMUX_TUNE_QUICK a short subset. Writes up to capacity descriptors and
 * the set's full size to count. */
#define FFTMUX_TUNE_DEFAULT 0u
#define FFTMUX_TUNE_QUICK 1u
FFTMUX_API fftmux_status fftmux_autotune_problems(uint32_t set, fftmux_desc* problems,
                                                  size_t capacity, size_t* count);

/* Path of the tuning cache the context reads and autotune writes. */
FFTMUX_API fftmux_status fftmux_tuning_cache_path(fftmux_context context, char* text, size_t size,
                                                  size_t* needed);

/* ---- Errors and version ---- */

/* Message of the last failed call on this thread ("" after a success).
 * Valid until the next fftmux call on this thread. */
FFTMUX_API const char* fftmux_last_error(void);
FFTMUX_API const char* fftmux_status_name(fftmux_status status);
/* "listed", "ready", "unavailable", "skipped" for an fftmux_backend_state;
 * "unknown state" for any other value. */
FFTMUX_API const char* fftmux_backend_state_name(uint32_t state);
FFTMUX_API const char* fftmux_version(int* major, int* minor, int* patch);

/* ---- Log: what the library notices (a skipped plugin, an unusable cache) ---- */

/* A message's level; as a threshold, messages at it or more severe (lower
 * values) pass. */
typedef enum fftmux_log_level {
  FFTMUX_LOG_ERROR = 0,
  FFTMUX_LOG_WARN = 1,
  FFTMUX_LOG_INFO = 2,
  FFTMUX_LOG_DEBUG = 3,
  /* Thresholds only, never a message's level: */
  FFTMUX_LOG_OFF = 0x100, /* no message passes */
  FFTMUX_LOG_ENV = 0x101  /* the level $FFTMUX_LOG names (error, warn, info, debug);
                             OFF when it is unset or names none */
} fftmux_log_level;

/* Receives one message: its fftmux_log_level, the text (NUL-terminated,
 * valid during the call) and the user pointer given with it. Called on
 * whichever thread the message arises, possibly on several at once. */
typedef void (*fftmux_log_callback)(void* user, uint32_t level, const char* message);

/* Where the library's messages go, for the whole process (messages arise
 * where no context is at hand, e.g. while plugins are discovered, and
 * FFTMUX_LOG is process-wide too). callback NULL: printed to stderr, as
 * before any call; else passed to callback and not printed. threshold: a
 * level, FFTMUX_LOG_OFF or FFTMUX_LOG_ENV, the default.
 * fftmux_set_log_callback(NULL, NULL, FFTMUX_LOG_ENV) restores the default.
 * When it returns, the previous callback is running nowhere and is never
 * called again. Messages of fftmux calls made inside the callback go to
 * stderr as FFTMUX_LOG says, never to the callback again; calling this
 * function from inside the callback fails. */
FFTMUX_API fftmux_status fftmux_set_log_callback(fftmux_log_callback callback, void* user,
                                                 uint32_t threshold);

/* ---- Tuning that travels: show, export, import and clear measurements ---- */

/* The measurements the context routes by, as tuning-cache TOML
 * (config/tuning.example.toml): the system cache's entries beneath the
 * user's, the user's winning where both measured one problem. */
FFTMUX_API fftmux_status fftmux_tuning_show(fftmux_context context, char* text, size_t size,
                                            size_t* needed);

/* Writes a copy of the user's tuning cache to path, atomically. */
FFTMUX_API fftmux_status fftmux_tuning_export(fftmux_context context, const char* path);

/* Merges the tuning file at path into the user's cache under the lock
 * autotune takes. An entry in both keeps the later measurement (a tie keeps
 * the user's). A file of another schema or one that cannot be parsed is
 * refused (FFTMUX_ERROR_INVALID_ARGUMENT) and nothing changes. Writes the
 * number of entries the file held to imported (may be NULL). */
FFTMUX_API fftmux_status fftmux_tuning_import(fftmux_context context, const char* path,
                                              size_t* imported);

/* Removes the user's measurements of backend (NULL: every one) atomically,
 * under the same lock; writes how many went to removed (may be NULL). */
FFTMUX_API fftmux_status fftmux_tuning_clear(fftmux_context context, const char* backend,
                                             size_t* removed);

/* Path of the system tuning cache, read beneath the user's by every context
 * and written by `fftmux autotune --system`. */
FFTMUX_API fftmux_status fftmux_system_tuning_path(fftmux_context context, char* text, size_t size,
                                                   size_t* needed);

/* ---- Convolution and correlation (docs/api.md, "Convolution") ----
 *
 * Linear or circular convolution of signals with filters through the
 * library's own plans: the signals zero-padded to an FFT size L (per axis
 * the next 2,3,5,7-smooth size >= n + m - 1; n itself when circular), one
 * forward plan, the filters transformed once on the same backend, a
 * pointwise product, one inverse plan, the mode's window cut out. */

typedef enum fftmux_conv_mode {
  FFTMUX_CONV_FULL = 0,    /* n + m - 1 points an axis */
  FFTMUX_CONV_SAME = 1,    /* n points, centred on the full result as scipy.signal's */
  FFTMUX_CONV_VALID = 2,   /* n - m + 1 points: no zero padding involved; m <= n */
  FFTMUX_CONV_CIRCULAR = 3 /* n points, indices modulo n; m <= n */
} fftmux_conv_mode;

/* How fftmux_convolution_create's filter is given. */
typedef enum fftmux_filter_layout {
  FFTMUX_FILTER_SIGNAL = 0,  /* filters x m[] elements of the data's type */
  FFTMUX_FILTER_SPECTRUM = 1 /* filters x the forward transform of each filter, zero-padded
                                to the FFT size (fftmux_convolution_sizes): complex, the last
                                axis halved to L/2+1 for real data; unnormalized */
} fftmux_filter_layout;

/* One convolution problem. Signals are batch x n[] elements, contiguous;
 * the output is batch x filters x the mode's size, contiguous, signal-major:
 * every filter against every signal. */
typedef struct fftmux_conv_desc {
  uint32_t struct_size;
  uint32_t rank;              /* 1..FFTMUX_MAX_RANK */
  int64_t n[FFTMUX_MAX_RANK]; /* signal sizes */
  int64_t m[FFTMUX_MAX_RANK]; /* filter sizes */
  int64_t batch;              /* signals */
  int64_t filters;            /* filters */
  uint32_t kind;              /* FFTMUX_C2C: complex data; FFTMUX_R2C: real data */
  uint32_t precision;         /* fftmux_precision */
  uint32_t mode;              /* fftmux_conv_mode */
  uint32_t correlate;         /* 1: correlation, as scipy.signal.correlate (the filter
                                 reversed and conjugated); 0: convolution */
  uint32_t placement;         /* FFTMUX_HOST or FFTMUX_DEVICE */
  uint32_t reserved;
} fftmux_conv_desc;

/* Sets struct_size and defaults: rank 1, n = m = {1}, batch 1, filters 1,
 * C2C, F32, FULL, convolution, HOST. */
FFTMUX_API void fftmux_conv_desc_init(fftmux_conv_desc* desc);

typedef struct fftmux_convolution_options {
  uint32_t struct_size;
  uint32_t threads;    /* as fftmux_plan_options.threads; 0: the backend's default */
  const char* backend; /* NULL or "auto": routed by the padded forward transform */
  const char* variant; /* NULL: the backend's best */
} fftmux_convolution_options;

FFTMUX_API void fftmux_convolution_options_init(fftmux_convolution_options* options);

typedef struct fftmux_convolution_s* fftmux_convolution;

/* The mode's output sizes and the FFT sizes L of a valid descriptor (either
 * pointer may be NULL); the axes past its rank are written as 1. */
FFTMUX_API fftmux_status fftmux_convolution_sizes(const fftmux_conv_desc* desc,
                                                  int64_t out_n[FFTMUX_MAX_RANK],
                                                  int64_t fft_n[FFTMUX_MAX_RANK]);

/* Plans the convolution and transforms the filters once (filter_layout
 * SIGNAL) or copies their spectra (SPECTRUM). A filter holding NaN or
 * infinity is refused. options may be NULL. The filter is not kept. */
FFTMUX_API fftmux_status fftmux_convolution_create(fftmux_context context,
                                                   const fftmux_conv_desc* desc, const void* filter,
                                                   uint32_t filter_layout,
                                                   const fftmux_convolution_options* options,
                                                   fftmux_convolution* convolution);
FFTMUX_API fftmux_status fftmux_convolution_destroy(fftmux_convolution convolution);

/* Host memory: signal holds batch x n[] elements, out batch x filters x the
 * mode's sizes; they may overlap (the signal is copied first). One call at a
 * time per convolution. */
FFTMUX_API fftmux_status fftmux_convolution_execute(fftmux_convolution convolution,
                                                    const void* signal, void* out);

/* DEVICE placement: signal and out are buffers of the convolution's backend
 * (fftmux_convolution_backend), the same layouts as fftmux_convolution_execute's;
 * they must not overlap. One call at a time per convolution. */
FFTMUX_API fftmux_status fftmux_convolution_execute_buffers(fftmux_convolution convolution,
                                                            fftmux_buffer signal,
                                                            fftmux_buffer out);

/* The backend and variant the convolution runs on (either pointer may be
 * NULL), as fftmux_plan_backend: where a DEVICE convolution's buffers are made. */
FFTMUX_API fftmux_status fftmux_convolution_backend(fftmux_convolution convolution,
                                                    const char** backend, const char** variant);

/* The sizes and the plans' routing decisions as text, conventions as
 * fftmux_plan_explain. */
FFTMUX_API fftmux_status fftmux_convolution_explain(fftmux_convolution convolution, char* text,
                                                    size_t size, size_t* needed);

/* ---- Distributed transforms (docs/distributed.md) ----
 *
 * One transform over the ranks of an MPI communicator. The descriptor stays
 * global (whole sizes); each rank holds a box of each side. The core links
 * no MPI: the communicator crosses as its Fortran handle (MPI_Comm_c2f in C,
 * comm.py2f() in mpi4py), which the backend converts back. Every call on a
 * distributed plan is collective: all ranks of the communicator make it,
 * and a failure on any rank (a descriptor unlike the others', a box, a
 * buffer) is every rank's, with the same status and message. Arguments
 * without which no communicator is known (NULL context, plan or
 * distribution) fail on their rank alone. Distributed plans may overwrite
 * their input, in place or not (a SHIFT_OUTPUT phase is applied to it, C2R
 * uses it as workspace); they are never timed or routed by the tuning
 * cache: the first backend by name that accepts runs. */

/* The part of one side a rank holds, in the side's global coordinates
 * (real sizes on a real side, n/2+1 on the halved last axis of a complex
 * one): lower <= index < upper on each axis of the descriptor's rank, an
 * empty box where lower == upper. strides[] place the box's elements, in
 * elements of the side's type, the batch interleaved innermost (FFTW's
 * howmany): element (i, j, k) of transform b sits at sum((i - lower) *
 * strides) + b. 0 = C order within the box, the real side of R2C/C2R in
 * rows padded to 2*(n/2+1), as FFTW-MPI lays it out. */
typedef struct fftmux_box {
  int64_t lower[FFTMUX_MAX_RANK];
  int64_t upper[FFTMUX_MAX_RANK];
  int64_t strides[FFTMUX_MAX_RANK];
} fftmux_box;

typedef enum fftmux_decomposition {
  FFTMUX_SLABS = 0,                /* slabs of the first axis on both sides */
  FFTMUX_SLABS_TRANSPOSED_OUT = 1, /* the output in slabs of the second axis, its first two
                                      axes stored swapped (FFTW_MPI_TRANSPOSED_OUT) */
  FFTMUX_SLABS_TRANSPOSED_IN = 2,  /* the input so (FFTW_MPI_TRANSPOSED_IN): what a
                                      TRANSPOSED_OUT plan wrote, for the way back */
  FFTMUX_GIVEN = 3                 /* the caller's boxes, accepted where they are one of
                                      the above on every rank */
} fftmux_decomposition;

typedef struct fftmux_distribution {
  uint32_t struct_size;
  uint32_t decomposition; /* fftmux_decomposition */
  uint64_t comm;          /* MPI_Comm_c2f(comm), or FFTMUX_COMM_WORLD */
  fftmux_box in_box;      /* GIVEN: this rank's boxes; otherwise ignored */
  fftmux_box out_box;
} fftmux_distribution;

/* MPI_COMM_WORLD of the backend's MPI, for programs that do not link MPI
 * (the fftmux command: docs/distributed.md). */
#define FFTMUX_COMM_WORLD UINT64_MAX

/* Sets struct_size and defaults: SLABS, FFTMUX_COMM_WORLD, empty boxes. */
FFTMUX_API void fftmux_distribution_init(fftmux_distribution* distribution);

/* A plan of desc over distribution's communicator; collective. desc's
 * strides and distances must be 0 (the boxes lay the data out); options as
 * fftmux_plan_create's (backend NULL or "auto": the first distributed
 * backend by name that accepts). */
FFTMUX_API fftmux_status fftmux_plan_create_distributed(fftmux_context context,
                                                        const fftmux_desc* desc,
                                                        const fftmux_plan_options* options,
                                                        const fftmux_distribution* distribution,
                                                        fftmux_plan* plan);

/* This rank's boxes and the bytes its input and output buffers must hold
 * (the engine's local sizes, which can exceed the boxes: FFTW-MPI's
 * transposes need room). Any output pointer may be NULL. Not collective. */
FFTMUX_API fftmux_status fftmux_plan_local(fftmux_plan plan, fftmux_box* in_box,
                                           fftmux_box* out_box, uint64_t* in_bytes,
                                           uint64_t* out_bytes);

#ifdef __cplusplus
}
#endif

#endif /* FFTMUX_FFTMUX_H */
