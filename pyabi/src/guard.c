/* Calls into compiled code that turn a panic into a return.
 *
 * The runtime of every postc shared library calls the calling thread's
 * panic handler with the message; this handler copies it into a
 * thread-local buffer and leaves with longjmp to the setjmp taken here,
 * before the call (compiled frames hold
 * no cleanups, and only this file's, libffi's and compiled frames lie in
 * between). The arena is then released to the mark taken before the call.
 * No Rust frame is ever jumped over.
 *
 * Three ways in:
 *   - postc_py_guarded_register_call: a function whose arguments all travel
 *     in registers, called through one wide prototype (below), no libffi;
 *   - postc_py_guarded_ffi_call: any other signature, through libffi;
 *   - postc_py_ufunc_loop: the inner loop registered with NumPy for a
 *     ufunc, which calls the ufunc's NAME_loop and turns a panic into a
 *     Python exception that NumPy raises when the loop returns. */
#include <fenv.h>
#include <ffi.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
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

/* The calling thread's last panic message (the first MESSAGE_CAP bytes),
 * read by src/guard.rs after a call reports a panic. */
enum { MESSAGE_CAP = 4096 };
static _Thread_local char message[MESSAGE_CAP];
static _Thread_local size_t message_len;

const char *postc_py_panic_message(size_t *len) {
  *len = message_len;
  return message;
}

/* The handler: `data` is the jmp_buf of the guarded call. */
static void on_panic(const char *msg, size_t len, void *data) {
  size_t n = len < MESSAGE_CAP ? len : MESSAGE_CAP;
  memcpy(message, msg, n);
  message_len = n;
  longjmp(*(jmp_buf *)data, 1);
}

/* Runs `call(ctx)` with the panic handler of `rt` set (NULL: a library
 * that cannot panic: no handler). Returns 0 when it returned, 1 when it
 * panicked: the arena is then released to where it was before the call and
 * the message is the thread's postc_py_panic_message. */
static int guarded(const postc_py_runtime *rt, void (*call)(void *), void *ctx) {
  if (!rt) {
    call(ctx);
    return 0;
  }
  jmp_buf env;
  void *const mark = rt->arena_mark ? rt->arena_mark() : NULL;
  rt->set_panic_handler(on_panic, &env);
  if (setjmp(env) == 0) {
    call(ctx);
    rt->set_panic_handler(NULL, NULL);
    return 0;
  }
  rt->set_panic_handler(NULL, NULL);
  if (rt->arena_release) {
    rt->arena_release(mark);
  }
  return 1;
}

/* Register calls.
 *
 * On the platforms postc supports (x86-64 System V and AArch64, docs/abi.md)
 * integer-class arguments (integers, Bool, pointers, the two halves of a
 * postc_str) take the general registers in order and floating-point ones
 * (Float16, Float32, Float64) the vector registers in order, each class
 * counted on its own. A function whose arguments fit in the first six
 * general and eight vector registers therefore receives exactly what it
 * expects when called through a prototype of six int64_t and eight double
 * parameters, with its integer-class arguments in the first integer slots
 * and its floating-point ones in the first double slots: the registers it
 * does not read are ignored, nothing goes on the stack. Narrower values are
 * already extended to 64 bits (what every narrower convention accepts); a
 * Float32 or Float16 sits in the low bits of its double slot, where the
 * callee reads it. The result comes back in the first general register, the
 * first vector register, or (a postc_str) the first two general ones: the
 * caller picks the prototype of its class and keeps the low bits. */
enum { POSTC_PY_INT_REGS = 6, POSTC_PY_FLOAT_REGS = 8 };

typedef struct postc_py_registers {
  int64_t ints[POSTC_PY_INT_REGS];
  double floats[POSTC_PY_FLOAT_REGS];
} postc_py_registers;

/* The class of the result: nothing or an integer class, a floating-point
 * class, a postc_str. */
enum { POSTC_PY_RETURNS_INT = 0, POSTC_PY_RETURNS_FLOAT = 1, POSTC_PY_RETURNS_PAIR = 2 };

typedef struct pair {
  int64_t first, second;
} pair;

#define WIDE_PARAMS int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, \
  double, double, double, double, double, double, double, double
typedef int64_t (*returns_int)(WIDE_PARAMS);
typedef double (*returns_float)(WIDE_PARAMS);
typedef pair (*returns_pair)(WIDE_PARAMS);
#define WIDE_ARGS(r) (r)->ints[0], (r)->ints[1], (r)->ints[2], (r)->ints[3], (r)->ints[4], (r)->ints[5], \
  (r)->floats[0], (r)->floats[1], (r)->floats[2], (r)->floats[3], (r)->floats[4], (r)->floats[5], \
  (r)->floats[6], (r)->floats[7]

static void register_call(void (*code)(void), int returns, const postc_py_registers *r, int64_t out[2]) {
  switch (returns) {
  case POSTC_PY_RETURNS_FLOAT: {
    double d = ((returns_float)code)(WIDE_ARGS(r));
    memcpy(out, &d, sizeof d);
    break;
  }
  case POSTC_PY_RETURNS_PAIR: {
    pair p = ((returns_pair)code)(WIDE_ARGS(r));
    out[0] = p.first;
    out[1] = p.second;
    break;
  }
  default:
    out[0] = ((returns_int)code)(WIDE_ARGS(r));
    break;
  }
}

typedef struct register_call_args {
  void (*code)(void);
  int returns;
  const postc_py_registers *regs;
  int64_t *out;
} register_call_args;

static void run_register_call(void *ctx) {
  const register_call_args *a = (const register_call_args *)ctx;
  register_call(a->code, a->returns, a->regs, a->out);
}

/* Calls `code` with the arguments in `regs`, the result's bits written to
 * `out`, guarded (above). Returns 1 when it panicked. */
int postc_py_guarded_register_call(const postc_py_runtime *rt, void (*code)(void), int returns,
                                   const postc_py_registers *regs, int64_t out[2]) {
  register_call_args a = {code, returns, regs, out};
  return guarded(rt, run_register_call, &a);
}

typedef struct ffi_call_args {
  ffi_cif *cif;
  void (*fn)(void);
  void *rvalue;
  void **avalue;
} ffi_call_args;

static void run_ffi_call(void *ctx) {
  const ffi_call_args *a = (const ffi_call_args *)ctx;
  ffi_call(a->cif, a->fn, a->rvalue, a->avalue);
}

/* As postc_py_guarded_register_call, through the libffi interface `cif`
 * with the argument pointers `avalue`, the result written to `rvalue`. */
int postc_py_guarded_ffi_call(const postc_py_runtime *rt, ffi_cif *cif, void (*fn)(void), void *rvalue,
                              void **avalue) {
  ffi_call_args a = {cif, fn, rvalue, avalue};
  return guarded(rt, run_ffi_call, &a);
}

/* Ufunc loops.
 *
 * NumPy runs a ufunc's inner loop from C, usually with the GIL released,
 * once or many times per operation (once per buffer or outer index), and
 * looks for a Python exception when the operation's loops are done
 * (NumPy 2: PyErr_Occurred after the loop, or NpyIter_Deallocate's check).
 * The loop NumPy holds is postc_py_ufunc_loop with a postc_py_ufunc_data
 * as its data: it calls NAME_loop (or, for a parallel ufunc, the
 * runtime's postc_rt_parallel_ufunc_loop) with the panic handler set; on a panic
 * it releases the arena, clears the floating-point status (so that NumPy's
 * floating-point error check warns of nothing on top of the exception),
 * raises the exception (src/guard.rs, taking the GIL) and marks the
 * thread. While the thread is marked and a Python exception is pending,
 * the operation is still the one that panicked: further calls return at
 * once, so the first panic is the one raised. Once the exception has been
 * taken (the operation returned), the next call clears the mark and runs.
 */
typedef struct postc_py_ufunc_data {
  void (*loop)(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);
  const postc_py_runtime *rt;
  void *data; /* what `loop` is called with: NULL for a NAME_loop */
} postc_py_ufunc_data;

/* src/guard.rs: raise the exception of a panic message; whether a Python
 * exception is pending. Both take the GIL. */
void postc_py_ufunc_raise(const char *msg, size_t len);
int postc_py_error_pending(void);
/* src/printing.rs: writes what the loop printed, taking the GIL when
 * something was. */
void postc_py_flush_printed(void);

static _Thread_local int ufunc_panicked;

typedef struct ufunc_loop_args {
  const postc_py_ufunc_data *loop;
  char **args;
  const intptr_t *dimensions;
  const intptr_t *steps;
} ufunc_loop_args;

static void run_ufunc_loop(void *ctx) {
  const ufunc_loop_args *a = (const ufunc_loop_args *)ctx;
  a->loop->loop(a->args, a->dimensions, a->steps, a->loop->data);
}

void postc_py_ufunc_loop(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data) {
  const postc_py_ufunc_data *l = (const postc_py_ufunc_data *)data;
  if (ufunc_panicked) {
    if (postc_py_error_pending()) {
      return;
    }
    ufunc_panicked = 0;
  }
  ufunc_loop_args a = {l, args, dimensions, steps};
  if (guarded(l->rt, run_ufunc_loop, &a)) {
    feclearexcept(FE_ALL_EXCEPT);
    ufunc_panicked = 1;
    postc_py_flush_printed();
    postc_py_ufunc_raise(message, message_len);
    return;
  }
  postc_py_flush_printed();
}
