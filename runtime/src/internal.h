/* What the runtime's sources share. Built with -fvisibility=hidden: only
 * POSTC_RT_EXPORT functions are visible outside a shared library. */
#ifndef POSTC_RT_INTERNAL_H
#define POSTC_RT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "postc_runtime.h"

#define POSTC_RT_EXPORT __attribute__((visibility("default")))

/* DLPack's DLTensor and DLManagedTensor (docs/abi.md 3). */
typedef struct rt_tensor {
  void *data;
  int32_t device_type, device_id;
  int32_t ndim;
  uint8_t code, bits;
  uint16_t lanes;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} rt_tensor;

typedef struct rt_managed {
  rt_tensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct rt_managed *);
} rt_managed;

_Static_assert(sizeof(rt_tensor) == 48, "DLTensor is 48 bytes");
_Static_assert(sizeof(rt_managed) == 64, "DLManagedTensor is 64 bytes");
_Static_assert(offsetof(rt_tensor, strides) == 32, "DLTensor.strides at 32");

/* The C library's functions, reached past a program's own exports of the
 * same names (a program may export `malloc` or `write`; docs/abi.md 1):
 * looked up once with dlsym in the C library itself. */
void *postc_rt_libc_malloc(size_t n);
void *postc_rt_libc_calloc(size_t n, size_t size);
void postc_rt_libc_free(void *p);
void postc_rt_libc_memcpy(void *dst, const void *src, size_t n);
int postc_rt_libc_memcmp(const void *a, const void *b, size_t n);
int postc_rt_libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/* Writes all of `buf` to standard error (what can be written). */
void postc_rt_libc_write_stderr(const char *buf, size_t len);
_Noreturn void postc_rt_libc_abort(void);

/* Panics "out of memory (arena)". */
_Noreturn void postc_rt_oom(void);

#endif
