/* The row loops of benches/py/arrays.py called from C, without Python:
 * `row_views` (`r = a[i]; s += r.sum()`, NumPy's pairwise row sums) and
 * `sum_rows` (`s += row_sum(a[i])`, in order) over a C-contiguous
 * 100,000 x COLS Float64 array (COLS 10 by default). Prints the best of
 * 300 calls of each, in milliseconds, the two kernels taking turns, and
 * their results. Build, against an object of either optimisation level:
 *
 *   postc-driver runtime --out-dir rt
 *   postc-driver compile -O3 --emit obj benches/py/arrays.py -o arrays.o
 *   cc -O2 -Irt benches/c/row_sums.c arrays.o rt/libpostc_runtime.a -lm -lpthread -ldl -o row_sums
 *   ./row_sums [COLS]
 */
#define _POSIX_C_SOURCE 200809L
#include "postc.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double row_views(const DLTensor *a);
double sum_rows(const DLTensor *a);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  long rows = 100000, cols = argc > 1 ? atol(argv[1]) : 10;
  double *d = malloc(sizeof(double) * rows * cols);
  if (!d || cols < 1) return 2;
  for (long i = 0; i < rows * cols; i++) d[i] = (double)((i * 7919) % 1000) / 997.0;
  int64_t shape[2] = {rows, cols};
  DLTensor t = {0};
  t.data = d;
  t.device.device_type = kDLCPU;
  t.ndim = 2;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 64;
  t.dtype.lanes = 1;
  t.shape = shape;
  double best_views = 1e9, best_rows = 1e9, views = 0, in_order = 0;
  for (int r = 0; r < 300; r++) {
    double t0 = now();
    views = row_views(&t);
    double t1 = now();
    in_order = sum_rows(&t);
    double t2 = now();
    if (t1 - t0 < best_views) best_views = t1 - t0;
    if (t2 - t1 < best_rows) best_rows = t2 - t1;
  }
  printf("row_views %.3f ms (%.17g)  sum_rows %.3f ms (%.17g)\n", best_views * 1e3, views, best_rows * 1e3, in_order);
  free(d);
  return 0;
}
