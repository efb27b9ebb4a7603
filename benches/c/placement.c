/* One kernel of benches/py/arrays.py from several shared libraries of the
 * module, taking turns call by call in one process: the same code placed
 * at different addresses (libraries linked after padding of 0, 16, 32 and
 * 48 bytes), or two builds of it. Prints the best and the median of the
 * calls of each library, and each one's ratio to the first library's.
 *
 *   postc-driver runtime --out-dir rt
 *   postc-driver compile -O3 --emit obj benches/py/arrays.py -o arrays.o
 *   for n in 0 16 32 48; do
 *     printf '.text\n.p2align 6\npad: .skip %d, 0x90\nret\n.section .note.GNU-stack,"",@progbits\n' $n | as -o pad$n.o
 *     cc -shared -o arrays$n.so pad$n.o arrays.o rt/libpostc_runtime.a -lm -ldl -lpthread
 *   done
 *   cc -O2 -Irt benches/c/placement.c -ldl -o placement
 *   ./placement sum_rows 10 1000 ./arrays0.so ./arrays16.so ./arrays32.so ./arrays48.so
 *
 * Arguments: the kernel (`sum_rows`, `row_views`, `total`, `temporary`,
 * `windows`), the row length (0: a 1-D array of 10^6 Float64; otherwise
 * 10^6 / ROW rows of ROW), the rounds, then the libraries. */
#define _POSIX_C_SOURCE 200809L
#include "postc.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s KERNEL ROW ROUNDS LIBRARY...\n", argv[0]);
    return 2;
  }
  const char *kernel = argv[1];
  long n = 1000000, row = atol(argv[2]);
  int rounds = atoi(argv[3]), libs = argc - 4;
  if (rounds < 1 || row < 0 || row > n) return 2;
  double *d = malloc(sizeof(double) * n);
  if (!d) return 2;
  for (long i = 0; i < n; i++) d[i] = (double)((i * 7919) % 1000) / 997.0;
  int64_t shape[2] = {n, 1};
  if (row) {
    shape[0] = n / row;
    shape[1] = row;
  }
  DLTensor t = {0};
  t.data = d;
  t.device.device_type = kDLCPU;
  t.ndim = row ? 2 : 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 64;
  t.dtype.lanes = 1;
  t.shape = shape;
  double (**fs)(const DLTensor *) = calloc(libs, sizeof *fs);
  double **ts = calloc(libs, sizeof *ts);
  for (int v = 0; v < libs; v++) {
    void *h = dlopen(argv[v + 4], RTLD_NOW | RTLD_LOCAL);
    if (!h || !(fs[v] = (double (*)(const DLTensor *))dlsym(h, kernel))) {
      fprintf(stderr, "%s: %s\n", argv[v + 4], dlerror());
      return 1;
    }
    ts[v] = malloc(sizeof(double) * rounds);
    printf("%s: %s = %.6f\n", argv[v + 4], kernel, fs[v](&t));
  }
  for (int r = 0; r < rounds; r++) {
    for (int j = 0; j < libs; j++) {
      int v = (j + r) % libs; /* each library first in turn */
      double start = now();
      volatile double x = fs[v](&t);
      (void)x;
      ts[v][r] = now() - start;
    }
  }
  for (int v = 0; v < libs; v++) qsort(ts[v], rounds, sizeof(double), by_value);
  for (int v = 0; v < libs; v++) {
    printf("%-24s min %.4f ms (%.3f)  median %.4f ms (%.3f)\n", argv[v + 4], ts[v][0] * 1e3, ts[v][0] / ts[0][0],
           ts[v][rounds / 2] * 1e3, ts[v][rounds / 2] / ts[0][rounds / 2]);
  }
  return 0;
}
