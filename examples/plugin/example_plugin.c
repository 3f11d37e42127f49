/*
 * The smallest useful fftmux plugin, in C99: a naive DFT backend named
 * "example" that runs contiguous, out-of-place, rank-1 C2C transforms in
 * double precision and declines everything else with a reason.
 * docs/plugins.md walks through it; the tests build and load it.
 */
#include <fftmux/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int64_t n, batch;
  double scale[2]; /* forward, inverse */
} plan_t;

/* No devices to open: the backend is a copy of the host table, which is
 * valid only during init. One library serves every context of the process,
 * each calling init, maybe at the same time: keep the copy per backend,
 * never in a global. */
static fftmux_status init(const fftmux_host_v1* h, void** backend) {
  fftmux_host_v1* copy = malloc(sizeof *copy);
  if (!copy) {
    h->set_error("example: out of memory");
    return FFTMUX_ERROR_OUT_OF_MEMORY;
  }
  *copy = *h;
  *backend = copy;
  return FFTMUX_OK;
}

static void shutdown(void* backend) {
  free(backend);
}

static fftmux_status about(void* backend, fftmux_about_v1* a) {
  (void)backend;
  snprintf(a->devices, sizeof a->devices, "CPU (naive DFT)");
  snprintf(a->hardware_key, sizeof a->hardware_key, "example 1.0");
  return FFTMUX_OK;
}

static int contiguous(const fftmux_desc* d) {
  return d->in_strides[0] == 1 && d->out_strides[0] == 1 && d->in_distance == d->n[0] &&
         d->out_distance == d->n[0];
}

static fftmux_status query(void* backend, const fftmux_desc* d, uint32_t variant,
                           fftmux_answer_v1* a) {
  (void)backend;
  (void)variant;
  const char* why = NULL;
  if (d->kind != FFTMUX_C2C || d->precision != FFTMUX_F64)
    why = "runs only C2C in double precision";
  else if (d->rank != 1 || !contiguous(d) || d->flags)
    why = "runs only contiguous, out-of-place, unshifted rank-1 transforms";
  a->supported = why == NULL;
  if (why)
    snprintf(a->reason, sizeof a->reason, "%s", why);
  a->estimate_seconds = 1e-9 * (double)d->n[0] * (double)d->n[0] * (double)d->batch;
  if (FFTMUX_ANSWER_HAS(a, flops)) { /* a host that prices work: 8 flops a term of the DFT */
    a->launches = 1;
    a->flops = 8.0 * (double)d->n[0] * (double)d->n[0] * (double)d->batch;
  }
  return FFTMUX_OK;
}

static double norm_scale(const fftmux_desc* d, int inverse) {
  double n = (double)d->n[0];
  switch (d->norm) {
  case FFTMUX_NORM_BACKWARD: return inverse ? 1.0 / n : 1.0;
  case FFTMUX_NORM_ORTHO: return 1.0 / sqrt(n);
  case FFTMUX_NORM_FORWARD: return inverse ? 1.0 : 1.0 / n;
  default: return 1.0;
  }
}

static fftmux_status plan_create(void* backend, const fftmux_desc* d, uint32_t variant,
                                 void** out) {
  plan_t* p = malloc(sizeof *p);
  const fftmux_host_v1* host = backend;
  (void)variant;
  if (!p) {
    host->set_error("example: out of memory");
    return FFTMUX_ERROR_OUT_OF_MEMORY;
  }
  p->n = d->n[0];
  p->batch = d->batch;
  p->scale[0] = norm_scale(d, 0);
  p->scale[1] = norm_scale(d, 1);
  *out = p;
  return FFTMUX_OK;
}

static void plan_destroy(void* p) {
  free(p);
}

static fftmux_status execute(void* plan, int direction, const void* in, void* out) {
  const plan_t* p = plan;
  const double* x = in;
  double* y = out;
  const double two_pi = 6.283185307179586476925286766559;
  double s = p->scale[direction == FFTMUX_INVERSE];
  int64_t b, j, k;
  for (b = 0; b < p->batch; ++b, x += 2 * p->n, y += 2 * p->n)
    for (k = 0; k < p->n; ++k) {
      double re = 0, im = 0;
      for (j = 0; j < p->n; ++j) {
        double a = direction * two_pi * (double)((j * k) % p->n) / (double)p->n;
        re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);
        im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);
      }
      y[2 * k] = re * s;
      y[2 * k + 1] = im * s;
    }
  return FFTMUX_OK;
}

static const char* const variants[] = {"naive"};

static const fftmux_backend_v1 table = {
    sizeof(fftmux_backend_v1),
    FFTMUX_PLUGIN_ABI_VERSION,
    "example",
    "1.0",
    FFTMUX_CAP_F64 | FFTMUX_CAP_C2C,
    1,
    FFTMUX_DOMAIN_HOST,
    1,
    variants,
    init,
    shutdown,
    about,
    query,
    plan_create,
    plan_destroy,
    execute,
    NULL,
    NULL, /* no buffers of its own: execute_buffers, synchronize */
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL, /* plan_set_stream: no queues */
    NULL, /* plan_create_v2: it runs on one thread */
    NULL, /* no distributed plans: distributed_agree, query_distributed, */
    NULL, /* plan_create_distributed, plan_local */
    NULL,
    NULL,
    NULL, /* no plans across devices: query_v2, plan_buffer_alloc, buffer_piece */
    NULL,
    NULL};

FFTMUX_PLUGIN_EXPORT const fftmux_backend_v1* fftmux_plugin_entry(uint32_t host_abi_version) {
  return host_abi_version >= 1 ? &table : NULL;
}
