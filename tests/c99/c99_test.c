/* The public header from C99 with -pedantic -Wall -Werror: a transform
 * through the C API, checked against a naive DFT written here, and the log
 * reaching a C callback. */
#include <fftmux/fftmux.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 12
#define BATCH 2

static int check(fftmux_status s, const char* what) {
  if (s != FFTMUX_OK)
    fprintf(stderr, "%s: %s\n", what, fftmux_last_error());
  return s == FFTMUX_OK;
}

/* Counts the warnings about the device below into *user. */
static void count_warnings(void* user, uint32_t level, const char* message) {
  if (level == FFTMUX_LOG_WARN && strstr(message, "'not-installed'"))
    ++*(int*)user;
}

/* A device for a backend that is not installed: the context warns. */
static int log_reaches_callback(void) {
  int warnings = 0;
  fftmux_context ctx = NULL;
  fftmux_context_options options;
  fftmux_native_device device = {"not-installed", {0}};
  fftmux_context_options_init(&options);
  options.devices = &device;
  options.device_count = 1;
  if (!check(fftmux_set_log_callback(count_warnings, &warnings, FFTMUX_LOG_WARN),
             "fftmux_set_log_callback") ||
      !check(fftmux_context_create(&options, &ctx), "fftmux_context_create") ||
      !check(fftmux_set_log_callback(NULL, NULL, FFTMUX_LOG_ENV), "fftmux_set_log_callback"))
    return 0;
  fftmux_context_destroy(ctx);
  if (warnings != 1)
    fprintf(stderr, "the log callback received %d warnings of the device, expected 1\n", warnings);
  return warnings == 1 && strcmp(fftmux_backend_state_name(FFTMUX_BACKEND_READY), "ready") == 0;
}

int main(void) {
  fftmux_context ctx = NULL;
  fftmux_plan plan = NULL;
  fftmux_desc desc;
  double in[2 * N * BATCH], out[2 * N * BATCH];
  double worst = 0;
  const double two_pi = 6.283185307179586476925286766559;
  int b, j, k;

  if (!log_reaches_callback())
    return 1;
  for (j = 0; j < 2 * N * BATCH; ++j)
    in[j] = sin(0.37 * j) + 0.25 * cos(1.3 * j * j);
  fftmux_desc_init(&desc);
  desc.n[0] = N;
  desc.batch = BATCH;
  desc.precision = FFTMUX_F64;
  if (!check(fftmux_context_create(NULL, &ctx), "fftmux_context_create") ||
      !check(fftmux_plan_create(ctx, &desc, NULL, &plan), "fftmux_plan_create") ||
      !check(fftmux_execute(plan, FFTMUX_FORWARD, in, out), "fftmux_execute"))
    return 1;
  for (b = 0; b < BATCH; ++b)
    for (k = 0; k < N; ++k) {
      double re = 0, im = 0;
      const double* x = in + 2 * N * b;
      for (j = 0; j < N; ++j) {
        double a = -two_pi * (double)((j * k) % N) / N;
        re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);
        im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);
      }
      re -= out[2 * (N * b + k)];
      im -= out[2 * (N * b + k) + 1];
      if (sqrt(re * re + im * im) > worst)
        worst = sqrt(re * re + im * im);
    }
  fftmux_plan_destroy(plan);
  fftmux_context_destroy(ctx);
  printf("largest difference from the naive DFT: %g\n", worst);
  return worst < 1e-12 ? 0 : 1;
}
