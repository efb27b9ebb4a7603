/* The per-call time of a ufunc's NAME_dl entry point on 1-element tensors:
 * examples/axpy.pir's axpy_dl(a, x, y, out), each operand a Float64 array
 * of shape (1,). Prints the best of five rounds, in nanoseconds per call.
 * Build: cc -O2 benches/c/dl_call.c -I include -o dl_call LIB.so */
#include "postc.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void axpy_dl(DLTensor *a, DLTensor *x, DLTensor *y, DLTensor *out);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 2000000;
  double a = 2, x = 3, y = 4, out = 0;
  int64_t one = 1;
  DLTensor ta = {&a, {kDLCPU, 0}, 1, POSTC_DTYPE_FLOAT64, &one, NULL, 0};
  DLTensor tx = {&x, {kDLCPU, 0}, 1, POSTC_DTYPE_FLOAT64, &one, NULL, 0};
  DLTensor ty = {&y, {kDLCPU, 0}, 1, POSTC_DTYPE_FLOAT64, &one, NULL, 0};
  DLTensor to = {&out, {kDLCPU, 0}, 1, POSTC_DTYPE_FLOAT64, &one, NULL, 0};
  double best = 1e30;
  for (int round = 0; round < 5; round++) {
    double t0 = now();
    for (long i = 0; i < calls; i++) {
      axpy_dl(&ta, &tx, &ty, &to);
    }
    double ns = (now() - t0) * 1e9 / calls;
    if (ns < best) {
      best = ns;
    }
  }
  if (out != 10) {
    fprintf(stderr, "wrong result %g\n", out);
    return 1;
  }
  printf("%.1f\n", best);
  return 0;
}
