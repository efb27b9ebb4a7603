/* The C library as the runtime calls it.
 *
 * In an executable, or a shared library linked ahead of the C library, a
 * program's exported `malloc` would take the runtime's calls of `malloc`.
 * Each function is therefore looked up on first use with dlsym on a handle
 * of the C library, which searches that library (and the loader it
 * depends on), never the program. The runtime references no C library
 * symbol but dlopen and dlsym, which programs may not export. */
#include "internal.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <sys/types.h>

#ifdef __GLIBC__
#define RT_LIBC_NAME "libc.so.6"
#else
#define RT_LIBC_NAME "libc.so"
#endif

static _Atomic(void *) libc_handle;

/* Function `name` of the library `library`, whose handle `handle` keeps
 * once opened; traps when there is none. */
static void *library_symbol(_Atomic(void *) *handle, const char *library, const char *name) {
  void *h = atomic_load_explicit(handle, memory_order_relaxed);
  if (!h) {
    h = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) {
      h = dlopen(library, RTLD_LAZY);
    }
    if (!h) {
      __builtin_trap();
    }
    atomic_store_explicit(handle, h, memory_order_relaxed);
  }
  void *f = dlsym(h, name);
  if (!f) {
    __builtin_trap();
  }
  return f;
}

static void *lookup(_Atomic(void *) *slot, const char *name) {
  void *f = atomic_load_explicit(slot, memory_order_relaxed);
  if (!f) {
    f = library_symbol(&libc_handle, RT_LIBC_NAME, name);
    atomic_store_explicit(slot, f, memory_order_relaxed);
  }
  return f;
}

/* `type (*)(params)` of C library function `name`, looked up once. */
#define RT_LIBC(name, type, params)                                                                                  \
  ({                                                                                                                 \
    static _Atomic(void *) slot_;                                                                                    \
    (type(*) params) lookup(&slot_, name);                                                                           \
  })

void *postc_rt_libc_malloc(size_t n) { return RT_LIBC("malloc", void *, (size_t))(n); }

void *postc_rt_libc_calloc(size_t n, size_t size) { return RT_LIBC("calloc", void *, (size_t, size_t))(n, size); }

void postc_rt_libc_free(void *p) { RT_LIBC("free", void, (void *))(p); }

void postc_rt_libc_memcpy(void *dst, const void *src, size_t n) {
  if (n) {
    RT_LIBC("memcpy", void *, (void *, const void *, size_t))(dst, src, n);
  }
}

int postc_rt_libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
  return RT_LIBC("vsnprintf", int, (char *, size_t, const char *, va_list))(buf, size, fmt, ap);
}

void postc_rt_libc_write_fd(int fd, const char *buf, size_t len) {
  ssize_t (*wr)(int, const void *, size_t) = RT_LIBC("write", ssize_t, (int, const void *, size_t));
  while (len > 0) {
    ssize_t n = wr(fd, buf, len);
    if (n <= 0) {
      return;
    }
    buf += n;
    len -= (size_t)n;
  }
}

void postc_rt_libc_write_stderr(const char *buf, size_t len) { postc_rt_libc_write_fd(2, buf, len); }

double postc_rt_libc_strtod(const char *s) { return RT_LIBC("strtod", double, (const char *, char **))(s, 0); }

float postc_rt_libc_strtof(const char *s) { return RT_LIBC("strtof", float, (const char *, char **))(s, 0); }

_Noreturn void postc_rt_libc_abort(void) {
  RT_LIBC("abort", void, (void))();
  __builtin_trap();
}

int postc_rt_libc_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) {
  return RT_LIBC("pthread_create", int, (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))(t, a, f, arg);
}
int postc_rt_libc_pthread_detach(pthread_t t) { return RT_LIBC("pthread_detach", int, (pthread_t))(t); }
int postc_rt_libc_pthread_mutex_lock(pthread_mutex_t *m) { return RT_LIBC("pthread_mutex_lock", int, (pthread_mutex_t *))(m); }
int postc_rt_libc_pthread_mutex_trylock(pthread_mutex_t *m) {
  return RT_LIBC("pthread_mutex_trylock", int, (pthread_mutex_t *))(m);
}
int postc_rt_libc_pthread_mutex_unlock(pthread_mutex_t *m) { return RT_LIBC("pthread_mutex_unlock", int, (pthread_mutex_t *))(m); }
int postc_rt_libc_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  return RT_LIBC("pthread_cond_wait", int, (pthread_cond_t *, pthread_mutex_t *))(c, m);
}
int postc_rt_libc_pthread_cond_signal(pthread_cond_t *c) { return RT_LIBC("pthread_cond_signal", int, (pthread_cond_t *))(c); }
int postc_rt_libc_pthread_cond_broadcast(pthread_cond_t *c) {
  return RT_LIBC("pthread_cond_broadcast", int, (pthread_cond_t *))(c);
}
int postc_rt_libc_sched_getaffinity(int pid, size_t size, void *set) {
  return RT_LIBC("sched_getaffinity", int, (int, size_t, void *))(pid, size, set);
}
void *postc_rt_libc_mmap(size_t size, int prot, int flags) {
  return RT_LIBC("mmap", void *, (void *, size_t, int, int, int, off_t))(0, size, prot, flags, -1, 0);
}
int postc_rt_libc_munmap(void *p, size_t size) { return RT_LIBC("munmap", int, (void *, size_t))(p, size); }
int postc_rt_libc_mprotect(void *p, size_t size, int prot) {
  return RT_LIBC("mprotect", int, (void *, size_t, int))(p, size, prot);
}
int postc_rt_libc_getcontext(ucontext_t *c) { return RT_LIBC("getcontext", int, (ucontext_t *))(c); }
void postc_rt_libc_makecontext(ucontext_t *c, void (*f)(void)) {
  RT_LIBC("makecontext", void, (ucontext_t *, void (*)(void), int, ...))(c, f, 0);
}
int postc_rt_libc_swapcontext(ucontext_t *from, const ucontext_t *to) {
  return RT_LIBC("swapcontext", int, (ucontext_t *, const ucontext_t *))(from, to);
}
const char *postc_rt_libc_getenv(const char *name) { return RT_LIBC("getenv", const char *, (const char *))(name); }

#if defined(__GLIBC__)
#define RT_LIBM_NAME "libm.so.6"
#else
#define RT_LIBM_NAME "libc.so" /* musl: the math is in the C library */
#endif

void *postc_rt_libm_symbol(const char *name) {
  static _Atomic(void *) libm_handle;
  return library_symbol(&libm_handle, RT_LIBM_NAME, name);
}

/* Keeps the shared object that holds `addr` loaded for the life of the
 * process (the pool's workers run its code). */
void postc_rt_libc_pin_self(void *addr) {
  struct {
    const char *fname;
    void *fbase;
    const char *sname;
    void *saddr;
  } info;
  if (RT_LIBC("dladdr", int, (const void *, void *))(addr, &info) && info.fname) {
    dlopen(info.fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
}
