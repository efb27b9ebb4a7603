/* The time per element of a ufunc's NAME_loop entry point, called as NumPy
 * calls it: examples/axpy.pir's axpy_loop over N Float64 elements (1,000 by
 * default, in cache), with every step 8 (contiguous: the vectorised loop),
 * with `a` broadcast (step 0) and with every other element (step 16): the
 * loop over run-time steps. Prints the three best-of-five times (CPU time
 * of the calling thread), in nanoseconds per element, separated by spaces,
 * after checking the results.
 * Build: cc -O2 benches/c/loop_call.c -o loop_call LIB.so */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void axpy_loop(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* a busy machine disturbs it less than wall time */
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Best of five rounds of `calls` calls, in ns per element; 0 on a wrong result. */
static double run(long n, long calls, intptr_t astep, intptr_t step) {
  long span = 2 * n;
  double *a = malloc(8 * span), *x = malloc(8 * span), *y = malloc(8 * span), *out = malloc(8 * span);
  for (long i = 0; i < span; i++) {
    a[i] = 2;
    x[i] = (double)i;
    y[i] = 1;
    out[i] = 0;
  }
  char *args[4] = {(char *)a, (char *)x, (char *)y, (char *)out};
  intptr_t dims[1] = {n};
  intptr_t steps[4] = {astep, step, step, step};
  double best = 1e30;
  for (int round = 0; round < 5; round++) {
    double t0 = now();
    for (long c = 0; c < calls; c++) {
      axpy_loop(args, dims, steps, NULL);
    }
    double ns = (now() - t0) * 1e9 / calls / n;
    if (ns < best) {
      best = ns;
    }
  }
  long k = step / 8;
  int ok = out[(n - 1) * k] == 2.0 * (double)((n - 1) * k) + 1;
  free(a);
  free(x);
  free(y);
  free(out);
  return ok ? best : 0;
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 20000;
  long n = argc > 2 ? atol(argv[2]) : 1000;
  double t[3] = {run(n, calls, 8, 8), run(n, calls, 0, 8), run(n, calls, 16, 16)};
  for (int i = 0; i < 3; i++) {
    if (t[i] == 0) {
      fprintf(stderr, "wrong result in case %d\n", i);
      return 1;
    }
  }
  printf("%.3f %.3f %.3f\n", t[0], t[1], t[2]);
  return 0;
}
