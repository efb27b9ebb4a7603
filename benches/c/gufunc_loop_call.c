/* The time per index of generalized ufuncs' NAME_loop entry points, called
 * as NumPy calls them, on examples/abi_demo.pir's ufuncs: rowdot over 1,000
 * rows of 16 Float64, matmul over 250 products of 4x4 matrices, and cross
 * over 1,000 triples, contiguous and with `b`'s elements 16 bytes apart
 * (which its Float64[]Shape[3] parameter does not accept: a scratch copy
 * per index). Prints the four best-of-five times (CPU time of the calling
 * thread), in nanoseconds per index, separated by spaces, after checking a
 * result of each.
 * Build: cc -O2 benches/c/gufunc_loop_call.c -o gufunc_loop_call LIB.so */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void loop_fn(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);
loop_fn rowdot_loop, matmul_loop, cross_loop;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* a busy machine disturbs it less than wall time */
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Best of five rounds of `calls` calls of `f` over `n` indexes, in ns per index. */
static double time_loop(loop_fn *f, char **args, intptr_t *dims, intptr_t *steps, long calls) {
  double best = 1e30;
  for (int round = 0; round < 5; round++) {
    double t0 = now();
    for (long c = 0; c < calls; c++) {
      f(args, dims, steps, NULL);
    }
    double ns = (now() - t0) * 1e9 / calls / dims[0];
    if (ns < best) {
      best = ns;
    }
  }
  return best;
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 2000;
  double t[4];
  int bad = 0;
  {
    enum { N = 1000, K = 16 };
    double *a = malloc(8 * N * K), *b = malloc(8 * N * K), *r = malloc(8 * N);
    for (long i = 0; i < N * K; i++) {
      a[i] = 1;
      b[i] = (double)(i % K);
    }
    char *args[3] = {(char *)a, (char *)b, (char *)r};
    intptr_t dims[2] = {N, K}, steps[5] = {8 * K, 8 * K, 8, 8, 8};
    t[0] = time_loop(rowdot_loop, args, dims, steps, calls);
    bad |= r[N - 1] != 120;
    free(a);
    free(b);
    free(r);
  }
  {
    enum { N = 250, M = 4 };
    double *a = malloc(8 * N * M * M), *b = malloc(8 * N * M * M), *c = malloc(8 * N * M * M);
    for (long i = 0; i < N * M * M; i++) {
      a[i] = 1;
      b[i] = 2;
    }
    char *args[3] = {(char *)a, (char *)b, (char *)c};
    intptr_t dims[4] = {N, M, M, M};
    intptr_t steps[9] = {8 * M * M, 8 * M * M, 8 * M * M, 8 * M, 8, 8 * M, 8, 8 * M, 8};
    t[1] = time_loop(matmul_loop, args, dims, steps, calls);
    bad |= c[N * M * M - 1] != 2 * M;
    free(a);
    free(b);
    free(c);
  }
  for (int spread = 1; spread <= 2; spread++) {
    enum { N = 1000 };
    double *a = malloc(8 * 3 * N), *b = malloc(8 * 6 * N), *c = malloc(8 * 3 * N);
    for (long i = 0; i < N; i++) {
      for (long k = 0; k < 3; k++) {
        a[3 * i + k] = k == 0;
        b[3 * spread * i + spread * k] = k == 1;
      }
    }
    char *args[3] = {(char *)a, (char *)b, (char *)c};
    intptr_t dims[2] = {N, 3}, steps[6] = {24, 24 * spread, 24, 8, 8 * spread, 8};
    t[1 + spread] = time_loop(cross_loop, args, dims, steps, calls);
    bad |= c[3 * N - 1] != 1; /* x cross y = z */
    free(a);
    free(b);
    free(c);
  }
  if (bad) {
    fprintf(stderr, "wrong result\n");
    return 1;
  }
  printf("%.2f %.2f %.2f %.2f\n", t[0], t[1], t[2], t[3]);
  return 0;
}
