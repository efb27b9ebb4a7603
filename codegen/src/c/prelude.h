#include "postc.h"
#include "postc_runtime.h"
#include <string.h>

#if defined(__GNUC__)
/* A helper inlined into a function is on the line of its call in debug
 * information (`artificial`). */
#define POSTC_HELPER static inline __attribute__((unused, artificial))
#define POSTC_PRIVATE static __attribute__((unused))
#define POSTC_COLD __attribute__((cold, noinline))
/* Exported functions: calls from inside the library reach them, never a
 * function of the same name that another library exports. */
#define POSTC_EXPORT __attribute__((visibility("protected")))
#define POSTC_UNLIKELY(c) __builtin_expect(!!(c), 0)
#define POSTC_LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define POSTC_HELPER static inline
#define POSTC_PRIVATE static
#define POSTC_COLD
#define POSTC_EXPORT
#define POSTC_UNLIKELY(c) (c)
#define POSTC_LIKELY(c) (c)
#endif

/* A function too large for the optimiser (its time grows faster than the
 * function; postc's own passes have run): compiled as at -O0. */
#if defined(__clang__)
#define POSTC_UNOPTIMISED __attribute__((optnone, noinline))
#elif defined(__GNUC__)
#define POSTC_UNOPTIMISED __attribute__((optimize("O0"), noinline))
#else
#define POSTC_UNOPTIMISED
#endif

/* `legalize`'s functions (Python's arithmetic) compute each operation as
 * written; GCC's vectoriser fuses a complex product's multiplications and
 * additions whatever `-ffp-contract` says, so not in them (and they are
 * then not inlined into a function that it vectorises). */
#if defined(__GNUC__) && !defined(__clang__)
#define POSTC_EXACT __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define POSTC_EXACT
#endif

/* The C library's (ufunc scratch copies). */
void *malloc(size_t size);
void free(void *ptr);

/* Where element 0 of an array is. */
POSTC_HELPER char *postc_base(const DLTensor *a) { return (char *)a->data + a->byte_offset; }

/* A compiled function's returned array joins the caller's arena. */
POSTC_HELPER DLTensor *postc_adopt(DLManagedTensor *m) {
  postc_rt_arena_adopt(m);
  return &m->dl_tensor;
}

/* A fresh compact C-order array of `ndim` axes in the caller's arena. */
POSTC_HELPER DLTensor *postc_alloc_nd(int64_t ndim, const int64_t *dims, uint8_t code, uint8_t bits, int64_t elsize) {
  return &((DLManagedTensor *)postc_rt_alloc_nd(ndim, dims, code, bits, elsize))->dl_tensor;
}

/* A view of `base` in the caller's arena (`insert-checks` checked it). */
POSTC_HELPER DLTensor *postc_view(const DLTensor *base, int64_t offset, int64_t ndim, const int64_t *extents,
                                  const int64_t *strides, int64_t elsize) {
  return &((DLManagedTensor *)postc_rt_view(base, offset, ndim, extents, strides, elsize))->dl_tensor;
}

/* A fresh 1-D array in the caller's arena. */
POSTC_HELPER DLTensor *postc_alloc(int64_t n, uint8_t code, uint8_t bits, int64_t elsize) {
  return &((DLManagedTensor *)postc_rt_alloc_array(n, code, bits, elsize))->dl_tensor;
}

POSTC_HELPER postc_str postc_concat(postc_str a, postc_str b) {
  postc_rt_str x, y, r;
  postc_str s;
  x.ptr = a.ptr;
  x.len = a.len;
  y.ptr = b.ptr;
  y.len = b.len;
  r = postc_rt_str_concat(x, y);
  s.ptr = r.ptr;
  s.len = r.len;
  return s;
}

/* The byte stride of an axis (compact row-major when strides is NULL);
 * wrapping, as the multiplication cannot fail for a valid tensor. */
POSTC_HELPER int64_t postc_stride(const DLTensor *a, int64_t axis, int64_t ndim, int64_t size) {
  uint64_t s = 1;
  int64_t k;
  if (a->strides) return (int64_t)((uint64_t)a->strides[axis] * (uint64_t)size);
  for (k = axis + 1; k < ndim; k++) s *= (uint64_t)a->shape[k];
  return (int64_t)(s * (uint64_t)size);
}

POSTC_HELPER double postc_f64_bits(uint64_t bits) {
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

POSTC_HELPER float postc_f32_bits(uint32_t bits) {
  float x;
  memcpy(&x, &bits, sizeof x);
  return x;
}
