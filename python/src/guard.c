/* A call into compiled code that turns a panic into a return.
 *
 * The runtime of every postc shared library calls the calling thread's
 * panic handler with the message; this handler copies it and leaves with
 * longjmp to the setjmp taken here, before the call (compiled frames hold
 * no cleanups, and only this file's, libffi's and compiled frames lie in
 * between). The arena is then released to the mark taken before the call.
 * No Rust frame is ever jumped over. */
#include <ffi.h>
#include <setjmp.h>
#include <stddef.h>
#include <string.h>

typedef void (*postc_panic_handler)(const char *msg, size_t len, void *data);

/* The runtime entry points of one library (docs/abi.md). The arena's are
 * NULL in a library that allocates nothing: the static runtime library
 * adds only the parts the code uses. */
typedef struct postc_py_runtime {
  void (*set_panic_handler)(postc_panic_handler handler, void *data);
  void *(*arena_mark)(void);
  void (*arena_release)(void *mark);
} postc_py_runtime;

typedef struct guard {
  jmp_buf env;
  char *msg;
  size_t cap;
  size_t len;
} guard;

static void on_panic(const char *msg, size_t len, void *data) {
  guard *g = (guard *)data;
  size_t n = len < g->cap ? len : g->cap;
  memcpy(g->msg, msg, n);
  g->len = n;
  longjmp(g->env, 1);
}

/* Calls `fn` through `cif` with the handler set. Returns 0 when it
 * returned, 1 when it panicked: then `msg` holds the first `*len` bytes of
 * the message (at most `cap`). */
int postc_py_guarded_call(const postc_py_runtime *rt, ffi_cif *cif, void (*fn)(void), void *rvalue,
                          void **avalue, char *msg, size_t cap, size_t *len) {
  guard g;
  g.msg = msg;
  g.cap = cap;
  g.len = 0;
  void *const mark = rt->arena_mark ? rt->arena_mark() : NULL;
  rt->set_panic_handler(on_panic, &g);
  if (setjmp(g.env) == 0) {
    ffi_call(cif, fn, rvalue, avalue);
    rt->set_panic_handler(NULL, NULL);
    return 0;
  }
  rt->set_panic_handler(NULL, NULL);
  if (rt->arena_release) {
    rt->arena_release(mark);
  }
  *len = g.len;
  return 1;
}
