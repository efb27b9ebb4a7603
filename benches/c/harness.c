/*
 * Times the kernels of two shared libraries built from the same kernels
 * (benches/kernels.pir by postc, benches/c/kernels.c by clang), calling
 * both through the same ABI (docs/abi.md) on the same large arrays.
 *
 *   harness [--reps N] [--cpu-time] NAME=LIB.so [NAME=LIB.so ...]
 *
 * Prints one line per kernel and library: `KERNEL NAME SECONDS`, the best
 * of N repetitions (default 5) after one checked call, the libraries taking
 * turns within each repetition, and exits 1 when the libraries' results
 * disagree. With --cpu-time, a call's time is the CPU time of the calling
 * thread rather than the wall-clock time, so that time spent waiting for a
 * core on a loaded machine does not count.
 */
#define _POSIX_C_SOURCE 200809L
#include "postc.h"
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*saxpy_fn)(float, DLTensor *, DLTensor *);
typedef double (*dot_fn)(DLTensor *, DLTensor *);
typedef void (*matmul_fn)(DLTensor *, DLTensor *, DLTensor *);
typedef double (*sum2d_fn)(DLTensor *);

#define SAXPY_N (1 << 24)
#define DOT_N (1 << 24)
#define MM_N 384
#define S2_ROWS 2048
#define S2_COLS 4096

static clockid_t timing_clock = CLOCK_MONOTONIC;

static double now(void) {
  struct timespec ts;
  clock_gettime(timing_clock, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static DLTensor tensor(void *data, int ndim, int64_t *shape, int64_t *strides, DLDataType dt) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = ndim;
  t.dtype = dt;
  t.shape = shape;
  t.strides = strides;
  return t;
}

static void *need(void *lib, const char *path, const char *sym) {
  void *p = dlsym(lib, sym);
  if (!p) {
    fprintf(stderr, "harness: %s has no symbol %s\n", path, sym);
    exit(2);
  }
  return p;
}

static int close_enough(double a, double b) {
  return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

int main(int argc, char **argv) {
  int reps = 5, nlib = 0, status = 0;
  const char *names[8], *paths[8];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--cpu-time")) {
      timing_clock = CLOCK_THREAD_CPUTIME_ID;
    } else if (strchr(argv[i], '=') && nlib < 8) {
      char *eq = strchr(argv[i], '=');
      *eq = 0;
      names[nlib] = argv[i];
      paths[nlib++] = eq + 1;
    } else {
      fprintf(stderr, "usage: harness [--reps N] [--cpu-time] NAME=LIB.so [NAME=LIB.so ...]\n");
      return 2;
    }
  }
  float *x32 = malloc(sizeof(float) * SAXPY_N), *y32 = malloc(sizeof(float) * SAXPY_N);
  float *y32_first = malloc(sizeof(float) * SAXPY_N);
  double *xd = malloc(sizeof(double) * DOT_N), *yd = malloc(sizeof(double) * DOT_N);
  double *ma = malloc(sizeof(double) * MM_N * MM_N), *mb = malloc(sizeof(double) * MM_N * MM_N);
  double *mc = malloc(sizeof(double) * MM_N * MM_N), *mc_first = malloc(sizeof(double) * MM_N * MM_N);
  double *s2 = malloc(sizeof(double) * S2_ROWS * S2_COLS);
  for (int64_t i = 0; i < SAXPY_N; i++) x32[i] = (float)((i % 1000) * 0.001);
  for (int64_t i = 0; i < DOT_N; i++) xd[i] = (i % 977) * 0.5, yd[i] = 1.0 / (1 + i % 13);
  for (int64_t i = 0; i < MM_N * MM_N; i++) ma[i] = (i % 17) * 0.25, mb[i] = (i % 11) - 5.0;
  for (int64_t i = 0; i < (int64_t)S2_ROWS * S2_COLS; i++) s2[i] = (i % 101) * 0.125;

  int64_t sh_saxpy[1] = {SAXPY_N}, sh_dot[1] = {DOT_N}, sh_mm[2] = {MM_N, MM_N};
  DLTensor tx32 = tensor(x32, 1, sh_saxpy, NULL, POSTC_DTYPE_FLOAT32);
  DLTensor ty32 = tensor(y32, 1, sh_saxpy, NULL, POSTC_DTYPE_FLOAT32);
  DLTensor txd = tensor(xd, 1, sh_dot, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tyd = tensor(yd, 1, sh_dot, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor ta = tensor(ma, 2, sh_mm, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tb = tensor(mb, 2, sh_mm, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tc = tensor(mc, 2, sh_mm, NULL, POSTC_DTYPE_FLOAT64);
  /* s2[1::2, ::3] of a C-order 2048 x 4096 array: strides (2*4096, 3),
   * byte_offset one row. */
  int64_t sh_s2[2] = {S2_ROWS / 2, (S2_COLS + 2) / 3}, st_s2[2] = {2 * S2_COLS, 3};
  DLTensor ts2 = tensor(s2, 2, sh_s2, st_s2, POSTC_DTYPE_FLOAT64);
  ts2.byte_offset = sizeof(double) * S2_COLS;

  /* Results first: every library must agree with the first. */
  saxpy_fn saxpy[8];
  dot_fn dot[8];
  matmul_fn matmul[8];
  sum2d_fn sum2d[8];
  double dot_first = 0, sum_first = 0;
  for (int l = 0; l < nlib; l++) {
    void *lib = dlopen(paths[l], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      fprintf(stderr, "harness: %s\n", dlerror());
      return 2;
    }
    saxpy[l] = (saxpy_fn)need(lib, paths[l], "saxpy");
    dot[l] = (dot_fn)need(lib, paths[l], "dot");
    matmul[l] = (matmul_fn)need(lib, paths[l], "matmul");
    sum2d[l] = (sum2d_fn)need(lib, paths[l], "sum2d");

    for (int64_t i = 0; i < SAXPY_N; i++) y32[i] = (float)(i % 7);
    saxpy[l](2.5f, &tx32, &ty32);
    if (l == 0)
      memcpy(y32_first, y32, sizeof(float) * SAXPY_N);
    else if (memcmp(y32_first, y32, sizeof(float) * SAXPY_N)) {
      fprintf(stderr, "harness: saxpy of %s differs from %s\n", names[l], names[0]);
      status = 1;
    }
    double d = dot[l](&txd, &tyd);
    if (l == 0)
      dot_first = d;
    else if (!close_enough(d, dot_first)) {
      fprintf(stderr, "harness: dot of %s = %.17g, %s = %.17g\n", names[l], d, names[0], dot_first);
      status = 1;
    }
    memset(mc, 0, sizeof(double) * MM_N * MM_N);
    matmul[l](&ta, &tb, &tc);
    if (l == 0)
      memcpy(mc_first, mc, sizeof(double) * MM_N * MM_N);
    else
      for (int64_t i = 0; i < MM_N * MM_N; i++)
        if (!close_enough(mc[i], mc_first[i])) {
          fprintf(stderr, "harness: matmul of %s differs at %ld\n", names[l], (long)i);
          status = 1;
          break;
        }
    double s = sum2d[l](&ts2);
    if (l == 0)
      sum_first = s;
    else if (!close_enough(s, sum_first)) {
      fprintf(stderr, "harness: sum2d of %s = %.17g, %s = %.17g\n", names[l], s, names[0], sum_first);
      status = 1;
    }
  }

  /* Then the times, the libraries taking turns within each repetition so
   * that a slow stretch of a shared machine falls on all of them. */
  double best[4][8];
  for (int k = 0; k < 4; k++)
    for (int l = 0; l < nlib; l++) best[k][l] = INFINITY;
  volatile double sink = 0;
  for (int r = 0; r < reps; r++) {
    for (int l = 0; l < nlib; l++) {
      double t = now();
      saxpy[l](1e-6f, &tx32, &ty32);
      t = now() - t;
      best[0][l] = t < best[0][l] ? t : best[0][l];

      t = now();
      sink += dot[l](&txd, &tyd);
      t = now() - t;
      best[1][l] = t < best[1][l] ? t : best[1][l];

      t = now();
      matmul[l](&ta, &tb, &tc);
      t = now() - t;
      best[2][l] = t < best[2][l] ? t : best[2][l];

      t = now();
      sink += sum2d[l](&ts2);
      t = now() - t;
      best[3][l] = t < best[3][l] ? t : best[3][l];
    }
  }
  const char *kernels[4] = {"saxpy", "dot", "matmul", "sum2d"};
  for (int l = 0; l < nlib; l++)
    for (int k = 0; k < 4; k++) printf("%s %s %.6f\n", kernels[k], names[l], best[k][l]);
  fflush(stdout);
  return status;
}
