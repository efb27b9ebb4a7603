/* Small helpers of compiled code: the stride of an axis, the call depth. */
#include "internal.h"

_Thread_local int64_t postc_rt_depth;

/* For code that cannot name thread-local data itself (QBE's IL reaches it
   only with the local-exec model, which a shared library cannot use). */
int64_t *postc_rt_depth_addr(void) { return &postc_rt_depth; }

int64_t postc_rt_stride(const void *tensor, int64_t axis, int64_t elsize) {
  const rt_tensor *t = tensor;
  if (t->strides) {
    return t->strides[axis] * elsize;
  }
  int64_t acc = elsize;
  for (int64_t k = axis + 1; k < t->ndim; k++) {
    acc *= t->shape[k];
  }
  return acc;
}
