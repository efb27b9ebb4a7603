/*
 * C baselines of benches/kernels.pir, over the same ABI as code compiled
 * by postc (docs/abi.md): arrays are DLTensor pointers whose strides (in
 * elements, NULL for compact row-major) and byte_offset are honoured.
 * Built with `clang-22 -O2 -fPIC -shared` by scripts/bench-codegen and
 * called from benches/c/harness.c next to the postc build of kernels.pir.
 */
#include "postc.h"

static inline void *base(const DLTensor *t) {
  return (char *)t->data + t->byte_offset;
}

static inline int64_t stride(const DLTensor *t, int axis) {
  if (t->strides)
    return t->strides[axis];
  int64_t s = 1;
  for (int a = t->ndim - 1; a > axis; a--)
    s *= t->shape[a];
  return s;
}

/* y[i] = a * x[i] + y[i] (Float32). */
void saxpy(float a, const DLTensor *x, DLTensor *y) {
  const float *xp = base(x);
  float *yp = base(y);
  int64_t n = y->shape[0], sx = stride(x, 0), sy = stride(y, 0);
  for (int64_t i = 0; i < n; i++)
    yp[i * sy] = a * xp[i * sx] + yp[i * sy];
}

/* sum of x[i] * y[i] (Float64, accumulated in order). */
double dot(const DLTensor *x, const DLTensor *y) {
  const double *xp = base(x), *yp = base(y);
  int64_t n = x->shape[0], sx = stride(x, 0), sy = stride(y, 0);
  double acc = 0.0;
  for (int64_t i = 0; i < n; i++)
    acc += xp[i * sx] * yp[i * sy];
  return acc;
}

/* c = a @ b (Float64), the i, j, p loop order of the POST kernel. */
void matmul(const DLTensor *a, const DLTensor *b, DLTensor *c) {
  const double *ap = base(a), *bp = base(b);
  double *cp = base(c);
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
  int64_t a0 = stride(a, 0), a1 = stride(a, 1), b0 = stride(b, 0), b1 = stride(b, 1);
  int64_t c0 = stride(c, 0), c1 = stride(c, 1);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double acc = 0.0;
      for (int64_t p = 0; p < k; p++)
        acc += ap[i * a0 + p * a1] * bp[p * b0 + j * b1];
      cp[i * c0 + j * c1] = acc;
    }
}

/* Sum of a 2-D view (Float64) in logical row-major order, any strides. */
double sum2d(const DLTensor *a) {
  const double *ap = base(a);
  int64_t m = a->shape[0], n = a->shape[1], s0 = stride(a, 0), s1 = stride(a, 1);
  double acc = 0.0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      acc += ap[i * s0 + j * s1];
  return acc;
}
