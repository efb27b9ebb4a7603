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
int postc_rt_libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/* Writes all of `buf` to standard error, or to file descriptor `fd` (what
 * can be written). */
void postc_rt_libc_write_stderr(const char *buf, size_t len);
void postc_rt_libc_write_fd(int fd, const char *buf, size_t len);
/* The C library's strtod and strtof of a whole string. */
double postc_rt_libc_strtod(const char *s);
float postc_rt_libc_strtof(const char *s);
_Noreturn void postc_rt_libc_abort(void);

/* pthreads and the rest of the C library that the thread pool uses
 * (src/parallel.c), reached as the functions above. */
#include <pthread.h>
int postc_rt_libc_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);
int postc_rt_libc_pthread_detach(pthread_t t);
int postc_rt_libc_pthread_mutex_lock(pthread_mutex_t *m);
int postc_rt_libc_pthread_mutex_trylock(pthread_mutex_t *m);
int postc_rt_libc_pthread_mutex_unlock(pthread_mutex_t *m);
int postc_rt_libc_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int postc_rt_libc_pthread_cond_signal(pthread_cond_t *c);
int postc_rt_libc_pthread_cond_broadcast(pthread_cond_t *c);
int postc_rt_libc_sched_getaffinity(int pid, size_t size, void *set);
const char *postc_rt_libc_getenv(const char *name);
/* Memory mappings and contexts, for the coroutines of the GPU emulation
 * (src/gpu_emulation.c). */
#include <ucontext.h>
void *postc_rt_libc_mmap(size_t size, int prot, int flags);
int postc_rt_libc_munmap(void *p, size_t size);
int postc_rt_libc_mprotect(void *p, size_t size, int prot);
int postc_rt_libc_getcontext(ucontext_t *c);
void postc_rt_libc_makecontext(ucontext_t *c, void (*f)(void));
int postc_rt_libc_swapcontext(ucontext_t *from, const ucontext_t *to);

void postc_rt_libc_pin_self(void *addr);

/* The calling thread's panic handler and its data. */
void postc_rt_get_panic_handler(postc_panic_handler *h, void **data);

/* Panics "out of memory (arena)". */
_Noreturn void postc_rt_oom(void);

#endif
