/*
 * fftmux from C99: list the backends, find the frequencies in a sampled signal with a
 * real-to-complex plan, run it back with the inverse, and show how failures are reported.
 * Exits non-zero when a result is wrong, so the test suite runs it as a check.
 */
#include <fftmux/fftmux.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 256
#define HALF (N / 2 + 1)

static const double pi = 3.14159265358979323846;

/* Prints the library's message and stops: every call below must succeed. */
static void check(fftmux_status status, const char* what) {
  if (status != FFTMUX_OK) {
    fprintf(stderr, "%s failed (%s): %s\n", what, fftmux_status_name(status), fftmux_last_error());
    exit(1);
  }
}

static void list_backends(fftmux_context ctx) {
  uint32_t count = 0, i;
  check(fftmux_backend_count(ctx, &count), "fftmux_backend_count");
  for (i = 0; i < count; ++i) {
    fftmux_backend_info info;
    fftmux_backend_info_init(&info);
    check(fftmux_backend_get(ctx, i, FFTMUX_PROBE, &info), "fftmux_backend_get");
    printf("backend %-8s %s\n", info.name,
           info.state == FFTMUX_BACKEND_READY ? info.devices : info.reason);
  }
}

static fftmux_plan make_plan(fftmux_context ctx, uint32_t kind) {
  fftmux_desc desc;
  fftmux_plan plan = NULL;
  fftmux_desc_init(&desc);
  desc.n[0] = N;
  desc.kind = kind;
  desc.precision = FFTMUX_F64;
  desc.norm = FFTMUX_NORM_FORWARD; /* amplitudes come out as the signal's own */
  check(fftmux_plan_create(ctx, &desc, NULL, &plan), "fftmux_plan_create");
  return plan;
}

/* Two tones, at bins 10 and 37, with amplitudes 1.5 and 0.25. */
static void make_signal(double* x) {
  int i;
  for (i = 0; i < N; ++i)
    x[i] = 1.5 * cos(2 * pi * 10 * i / N) + 0.25 * sin(2 * pi * 37 * i / N);
}

/* Each real tone shows as half its amplitude in the one-sided spectrum. */
static int check_spectrum(const double* spectrum) {
  int k, bad = 0;
  for (k = 0; k < HALF; ++k) {
    double magnitude = hypot(spectrum[2 * k], spectrum[2 * k + 1]);
    double expected = k == 10 ? 0.75 : k == 37 ? 0.125 : 0.0;
    if (fabs(magnitude - expected) > 1e-12) {
      fprintf(stderr, "bin %d: |X| = %g, expected %g\n", k, magnitude, expected);
      bad = 1;
    }
  }
  return bad;
}

static void show_error_reporting(fftmux_context ctx) {
  fftmux_desc desc;
  fftmux_plan plan = NULL;
  fftmux_status status;
  fftmux_desc_init(&desc);
  desc.n[0] = 0;
  status = fftmux_plan_create(ctx, &desc, NULL, &plan);
  printf("a plan of n = 0 is refused (%s): %s\n", fftmux_status_name(status), fftmux_last_error());
}

int main(void) {
  fftmux_context ctx = NULL;
  fftmux_plan forward, inverse;
  double signal[N], back[N], spectrum[2 * HALF], worst = 0;
  char why[1024];
  int i, bad;

  check(fftmux_context_create(NULL, &ctx), "fftmux_context_create");
  printf("fftmux %s\n", fftmux_version(NULL, NULL, NULL));
  list_backends(ctx);

  forward = make_plan(ctx, FFTMUX_R2C);
  inverse = make_plan(ctx, FFTMUX_C2R);
  check(fftmux_plan_explain(forward, why, sizeof why, NULL), "fftmux_plan_explain");
  printf("r2c plan: %s\n", why);

  make_signal(signal);
  check(fftmux_execute(forward, FFTMUX_FORWARD, signal, spectrum), "fftmux_execute");
  bad = check_spectrum(spectrum);
  check(fftmux_execute(inverse, FFTMUX_INVERSE, spectrum, back), "fftmux_execute");
  for (i = 0; i < N; ++i)
    worst = fmax(worst, fabs(back[i] - signal[i]));
  printf("tones found at bins 10 and 37; round-trip error %.3g\n", worst);
  bad |= worst > 1e-12;

  show_error_reporting(ctx);
  check(fftmux_plan_destroy(forward), "fftmux_plan_destroy");
  check(fftmux_plan_destroy(inverse), "fftmux_plan_destroy");
  check(fftmux_context_destroy(ctx), "fftmux_context_destroy");
  puts(bad ? "FAILED" : "ok");
  return bad;
}
