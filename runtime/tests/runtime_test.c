/* The runtime library on its own: the arena, DLPack export and adoption,
 * strings, strides, panics through a handler that leaves with longjmp, the
 * thread pool's stop flag and the parallel ufunc loop. Run by tests/runtime.rs:
 * with no argument it prints "ok" (or the failed checks); the other modes
 * panic without a usable handler and must abort. */
#include "postc_runtime.h"

#include <fenv.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  void *data;
  int32_t device_type, device_id;
  int32_t ndim;
  uint8_t code, bits;
  uint16_t lanes;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} tensor;

typedef struct managed {
  tensor t;
  void *ctx;
  void (*deleter)(struct managed *);
} managed;

static int failures;
#define CHECK(c)                                                                                                     \
  do {                                                                                                               \
    if (!(c)) {                                                                                                      \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                                         \
      failures++;                                                                                                    \
    }                                                                                                                \
  } while (0)

/* ---- Panics ------------------------------------------------------------ */

static jmp_buf escape;
static char message[4096];
static size_t message_len;
static void *message_data;
static int handler_calls;

static void on_panic(const char *msg, size_t len, void *data) {
  handler_calls++;
  memcpy(message, msg, len < sizeof message ? len + 1 : sizeof message);
  message_len = len;
  message_data = data;
  longjmp(escape, 1);
}

/* Runs f(arg) with the handler set; 1 when it panicked. */
static int panics(void (*f)(void *), void *arg) {
  message[0] = '\0';
  message_len = 0;
  if (setjmp(escape)) {
    return 1;
  }
  f(arg);
  return 0;
}

static void panic_index(void *arg) {
  (void)arg;
  postc_rt_panic("panic: index %lld is out of range for axis %lld with size %lld at %s", 5LL, 0LL, 3LL, "f.py:3:12");
}

static void panic_with_newline(void *arg) {
  postc_rt_panic("panic: %s %llu %g %.*s\n", "mixed", 18446744073709551615ULL, 2.5, 3, (const char *)arg);
}

static void panic_long(void *arg) {
  (void)arg;
  static char xs[3001];
  memset(xs, 'x', 3000);
  postc_rt_panic("panic: %s!", xs);
}

static void alloc_huge(void *arg) {
  (void)arg;
  postc_rt_arena_alloc(INT64_MAX);
}

static void alloc_array_overflow(void *arg) {
  (void)arg;
  postc_rt_alloc_array(INT64_MAX / 4, 2, 64, 8);
}

static void test_panics(void) {
  int token;
  postc_rt_set_panic_handler(on_panic, &token);
  CHECK(panics(panic_index, NULL));
  const char *want = "panic: index 5 is out of range for axis 0 with size 3 at f.py:3:12";
  CHECK(strcmp(message, want) == 0);
  CHECK(message_len == strlen(want));
  CHECK(message_data == &token);
  /* After leaving by longjmp, the next panic works the same. */
  CHECK(panics(panic_with_newline, "abcdef"));
  CHECK(strcmp(message, "panic: mixed 18446744073709551615 2.5 abc") == 0);
  CHECK(message_len == strlen(message));
  CHECK(panics(panic_long, NULL));
  CHECK(message_len == 3008 && message[7] == 'x' && message[3006] == 'x' && message[3007] == '!' && message[3008] == 0);
  CHECK(panics(panic_index, NULL) && message_len == strlen(want));
  CHECK(panics(alloc_huge, NULL));
  CHECK(strcmp(message, "panic: out of memory (arena)") == 0);
  CHECK(panics(alloc_array_overflow, NULL));
  CHECK(strcmp(message, "panic: out of memory (arena)") == 0);
  CHECK(handler_calls == 6);
}

/* ---- The arena --------------------------------------------------------- */

static void test_arena(void) {
  void *m0 = postc_rt_arena_mark();
  char *a = postc_rt_arena_alloc(24);
  char *b = postc_rt_arena_alloc(0);
  CHECK(a && b && a != b);
  CHECK(((uintptr_t)a % 16) == 0 && ((uintptr_t)b % 16) == 0);
  int zero = 1;
  for (int i = 0; i < 24; i++) {
    zero &= a[i] == 0;
  }
  CHECK(zero);
  CHECK(postc_rt_arena_mark() != m0);
  postc_rt_arena_release(m0);
  CHECK(postc_rt_arena_mark() == m0);

  /* Arrays: a 1-D DLManagedTensor in the arena. */
  managed *x = postc_rt_alloc_array(5, 2, 64, 8);
  CHECK(x->t.ndim == 1 && x->t.shape[0] == 5 && x->t.strides == NULL && x->t.byte_offset == 0);
  CHECK(x->t.code == 2 && x->t.bits == 64 && x->t.lanes == 1 && x->t.device_type == 1 && x->t.device_id == 0);
  CHECK(((uintptr_t)x->t.data % 16) == 0 && (char *)x->t.data == (char *)x + 80);
  CHECK(x->deleter != NULL);
  double *xd = x->t.data;
  CHECK(xd[0] == 0 && xd[4] == 0);
  managed *empty = postc_rt_alloc_array(-3, 0, 32, 4);
  CHECK(empty->t.shape[0] == 0);

  /* `alloc.empty`'s arrays: the header as postc_rt_alloc_array's even in
   * memory that held something else (a block just freed, scribbled over,
   * which malloc hands out again), the elements as they are. */
  void *before_empty = postc_rt_arena_mark();
  managed *dirty = postc_rt_alloc_array(64, 2, 64, 8);
  memset(dirty, 0xa5, 80 + 64 * 8);
  postc_rt_arena_release(before_empty);
  managed *u = postc_rt_alloc_array_empty(64, 2, 64, 8);
  CHECK(u->t.ndim == 1 && u->t.shape[0] == 64 && u->t.strides == NULL && u->t.byte_offset == 0);
  CHECK(u->t.code == 2 && u->t.bits == 64 && u->t.lanes == 1 && u->t.device_type == 1 && u->t.device_id == 0);
  CHECK(u->ctx == NULL && u->deleter != NULL && (char *)u->t.data == (char *)u + 80);
  for (int i = 0; i < 64; i++) {
    ((double *)u->t.data)[i] = i;
  }
  CHECK(((double *)u->t.data)[63] == 63);
  int64_t dims34[2] = {3, -4};
  managed *u2 = postc_rt_alloc_nd_empty(2, dims34, 2, 32, 4);
  CHECK(u2->t.ndim == 2 && u2->t.shape[0] == 3 && u2->t.shape[1] == 0 && u2->t.strides == NULL);
  CHECK(u2->t.byte_offset == 0 && u2->t.device_id == 0 && u2->ctx == NULL && u2->t.bits == 32);
  CHECK(((uintptr_t)u2->t.data % 16) == 0 && (char *)u2->t.data == (char *)u2 + 80);
  postc_rt_arena_release(before_empty);

  /* Exporting an array of the arena detaches it and releases the rest. */
  void *inner = postc_rt_arena_mark();
  managed *y = postc_rt_alloc_array(3, 2, 64, 8);
  postc_rt_arena_alloc(100);
  ((double *)y->t.data)[2] = 7.5;
  managed *ry = postc_rt_arena_export(inner, y);
  CHECK(ry == y);
  CHECK(postc_rt_arena_mark() == inner);
  postc_rt_arena_release(m0);
  CHECK(((double *)ry->t.data)[2] == 7.5); /* still ours */
  ry->deleter(ry);

  /* Any other tensor: a new header that shares its data. */
  double buf[6] = {1, 2, 3, 4, 5, 6};
  int64_t shape[2] = {2, 3}, strides[2] = {3, 1};
  tensor arg = {buf, 1, 0, 2, 2, 64, 1, shape, strides, 8};
  managed *ra = postc_rt_arena_export(postc_rt_arena_mark(), &arg);
  CHECK((void *)ra != (void *)&arg && ra->t.data == buf && ra->t.byte_offset == 8 && ra->t.ndim == 2);
  CHECK(ra->t.shape != shape && ra->t.shape[0] == 2 && ra->t.shape[1] == 3);
  CHECK(ra->t.strides != strides && ra->t.strides[0] == 3 && ra->t.strides[1] == 1);
  shape[0] = 99;
  CHECK(ra->t.shape[0] == 2);
  ra->deleter(ra);
  arg.strides = NULL;
  managed *rc = postc_rt_arena_export(postc_rt_arena_mark(), &arg);
  CHECK(rc->t.strides == NULL && rc->t.shape[1] == 3);
  postc_rt_managed_deleter(rc);
  postc_rt_managed_deleter(NULL);

  /* Views: a view of a view of an array of the call, exported, owns the
   * chain; adopted by a caller and exported again, it still does. */
  {
    void *caller = postc_rt_arena_mark();
    void *call = postc_rt_arena_mark();
    managed *a = postc_rt_alloc_array(6, 2, 64, 8);
    double *ad = a->t.data;
    for (int k = 0; k < 6; k++) {
      ad[k] = k;
    }
    int64_t ext[1] = {3}, back[1] = {-16};
    managed *v = postc_rt_view(a, 40, 1, ext, back, 8); /* a[5::-2] */
    CHECK(v->t.ndim == 1 && v->t.shape[0] == 3 && v->t.strides[0] == -2 && v->t.byte_offset == 0);
    CHECK((double *)v->t.data == ad + 5 && v->t.code == 2 && v->t.bits == 64 && v->t.device_type == 1);
    int64_t ext2[1] = {2};
    managed *w = postc_rt_view(v, -16, 1, ext2, back, 8); /* a[3::-2] */
    postc_rt_arena_alloc(100);
    managed *rw = postc_rt_arena_export(call, w);
    CHECK(rw == w && postc_rt_arena_mark() == caller);
    CHECK(((double *)rw->t.data)[0] == 3 && ((double *)rw->t.data)[-2] == 1);
    postc_rt_arena_adopt(rw);
    CHECK(postc_rt_arena_mark() != caller);
    managed *again = postc_rt_arena_export(caller, rw);
    CHECK(again == rw && postc_rt_arena_mark() == caller);
    CHECK(((double *)again->t.data)[0] == 3 && ((double *)again->t.data)[-2] == 1);
    again->deleter(again); /* frees w, v and a */

    /* A view of an argument borrows it: its deleter frees the header. */
    int64_t next[1] = {8};
    managed *va = postc_rt_view(&arg, 8, 1, ext2, next, 8);
    managed *rva = postc_rt_arena_export(caller, va);
    CHECK(rva == va && (double *)rva->t.data == buf + 2 && rva->t.strides[0] == 1);
    postc_rt_managed_deleter(rva);
    CHECK(buf[2] == 3);

    /* An argument returned by a callee, then returned by its caller, whose
     * arena holds the argument's memory: the caller's export keeps it. */
    void *outer_call = postc_rt_arena_mark();
    managed *mine = postc_rt_alloc_array(2, 2, 64, 8);
    ((double *)mine->t.data)[1] = 2.5;
    managed *echoed = postc_rt_arena_export(postc_rt_arena_mark(), &mine->t);
    CHECK(echoed != mine);
    postc_rt_arena_adopt(echoed);
    managed *out = postc_rt_arena_export(outer_call, echoed);
    CHECK(out == echoed && postc_rt_arena_mark() == outer_call && ((double *)out->t.data)[1] == 2.5);
    out->deleter(out); /* frees the header and `mine` */
    postc_rt_arena_release(caller);
  }

  /* A returned array adopted by a caller is freed with the caller's arena. */
  void *outer = postc_rt_arena_mark();
  void *callee = postc_rt_arena_mark();
  managed *z = postc_rt_arena_export(callee, postc_rt_alloc_array(4, 0, 64, 8));
  CHECK(postc_rt_arena_mark() == outer);
  postc_rt_arena_adopt(z);
  CHECK(postc_rt_arena_mark() != outer);
  postc_rt_arena_adopt(NULL);
  postc_rt_arena_release(outer);
  CHECK(postc_rt_arena_mark() == outer);
  postc_rt_arena_release(NULL);
  CHECK(postc_rt_arena_mark() == NULL);
}

/* The arena and the handler are the thread's own. */
static void *other_thread(void *arg) {
  (void)arg;
  void *mark = postc_rt_arena_mark();
  postc_rt_arena_alloc(8);
  void *after = postc_rt_arena_mark();
  postc_rt_arena_release(NULL);
  return (mark == NULL && after != NULL) ? (void *)1 : NULL;
}

static void test_threads(void) {
  void *m0 = postc_rt_arena_mark();
  postc_rt_arena_alloc(8);
  pthread_t t;
  void *ok = NULL;
  CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
  CHECK(pthread_join(t, &ok) == 0);
  CHECK(ok == (void *)1);
  CHECK(postc_rt_arena_mark() != m0);
  postc_rt_arena_release(m0);
}

/* ---- Strings and strides ------------------------------------------------ */

static postc_rt_str S(const char *s) { return (postc_rt_str){s, (int64_t)strlen(s)}; }

static void test_strings(void) {
  postc_rt_str c = postc_rt_str_concat(S("to"), (postc_rt_str){"talx", 3});
  CHECK(c.len == 5 && memcmp(c.ptr, "total", 6) == 0);
  postc_rt_str e = postc_rt_str_concat((postc_rt_str){NULL, 0}, (postc_rt_str){NULL, 0});
  CHECK(e.len == 0 && e.ptr[0] == 0);
}

static void test_strides(void) {
  int64_t shape[3] = {2, 3, 4}, strides[3] = {-12, 4, 1};
  tensor t = {NULL, 1, 0, 3, 2, 64, 1, shape, NULL, 0};
  CHECK(postc_rt_stride(&t, 0, 8) == 96 && postc_rt_stride(&t, 1, 8) == 32 && postc_rt_stride(&t, 2, 8) == 8);
  t.strides = strides;
  CHECK(postc_rt_stride(&t, 0, 8) == -96 && postc_rt_stride(&t, 2, 4) == 4);
  postc_rt_depth++;
  CHECK(postc_rt_depth == 1 && *postc_rt_depth_addr() == 1);
  *postc_rt_depth_addr() = 0;
  CHECK(postc_rt_depth == 0);
}

/* ---- Modes that must abort ---------------------------------------------- */

static void returns(const char *msg, size_t len, void *data) {
  (void)msg, (void)len, (void)data;
  handler_calls++;
}

static void *panic_thread(void *arg) {
  (void)arg;
  postc_rt_panic("panic: from another thread at %s", "t.py:1:1");
}

/* ---- The thread pool ---------------------------------------------------- */

/* Seconds since an arbitrary start: waits below give up after a while, so
 * a broken pool fails the checks instead of hanging. */
static double now(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
#define PATIENCE 20.0

enum { STOP_CHUNKS = 128, LOW = 3, HIGH = 40 };
static _Atomic int high_panicked, timed_out;

/* What a compiled chunk function asks on its loop's back edge. */
static int stopped_above(int64_t chunk) {
  return chunk > __atomic_load_n(postc_rt_parallel_stop_word(), __ATOMIC_RELAXED);
}
static _Atomic int finished[STOP_CHUNKS], stopped[STOP_CHUNKS];

/* Chunk HIGH panics at once; chunk LOW panics too, but only after HIGH has
 * panicked and the runtime has recorded it; a chunk above HIGH that starts
 * before that spins, iteration after iteration, until the stop flag ends
 * it. The others just finish. */
static void stop_chunk(void *env, int64_t chunk, int64_t lo, int64_t hi) {
  (void)env, (void)lo, (void)hi;
  double start = now();
  if (chunk == HIGH) {
    atomic_store(&high_panicked, 1);
    postc_rt_panic("panic: chunk %lld", (long long)chunk);
  }
  if (chunk == LOW) {
    while (!stopped_above(HIGH + 1)) {
      if (now() - start > PATIENCE) {
        atomic_store(&timed_out, 1);
        break;
      }
    }
    postc_rt_panic("panic: chunk %lld", (long long)chunk);
  }
  if (chunk > HIGH) {
    for (;;) {
      if (stopped_above(chunk)) {
        atomic_store(&stopped[chunk], 1);
        return;
      }
      if (now() - start > PATIENCE) {
        atomic_store(&timed_out, 1);
        return;
      }
    }
  }
  atomic_store(&finished[chunk], 1);
}

static void run_stop(void *arg) {
  (void)arg;
  postc_rt_parallel_for(stop_chunk, NULL, 0, STOP_CHUNKS * 10, 1);
}

static void test_stop_flag(void) {
  postc_rt_set_panic_handler(on_panic, NULL);
  postc_rt_set_num_threads(4);
  CHECK(panics(run_stop, NULL));
  /* The lowest failing chunk's panic, though another failed first. */
  CHECK(!strcmp(message, "panic: chunk 3"));
  CHECK(atomic_load(&high_panicked));
  CHECK(!atomic_load(&timed_out));
  for (int c = 0; c < LOW; c++) {
    CHECK(atomic_load(&finished[c]));
  }
  for (int c = 0; c <= HIGH; c++) {
    CHECK(!atomic_load(&stopped[c]));
  }
}

/* A ufunc loop out[i] = 2 * in[i] over Int64 that records each call's
 * first element and length, and the threads it ran on. */
enum { UFUNC_N = 100000 };
static int64_t u_in[UFUNC_N + 1], u_out[UFUNC_N + 1];
static _Atomic int u_calls, u_on_other_thread, u_wait;
static pthread_t u_caller;

static void double_loop(char **args, const intptr_t *dims, const intptr_t *steps, void *data) {
  (void)data;
  atomic_fetch_add(&u_calls, 1);
  if (!pthread_equal(pthread_self(), u_caller)) {
    atomic_store(&u_on_other_thread, 1);
  } else if (atomic_exchange(&u_wait, 0)) {
    /* The caller's first chunk waits for another thread to take one. */
    double start = now();
    while (!atomic_load(&u_on_other_thread) && now() - start < PATIENCE) {
    }
  }
  for (intptr_t i = 0; i < dims[0]; i++) {
    int64_t x = *(int64_t *)(args[0] + i * steps[0]);
    if (x < 0) {
      postc_rt_panic("panic: negative %lld", (long long)x);
    }
    *(int64_t *)(args[1] + i * steps[1]) = 2 * x;
  }
}

static const postc_rt_ufunc_op i64_ops[2] = {{0, 64, 8, 0, 2, NULL, "Int64", ""}, {0, 64, 8, 0, 3, NULL, "Int64", ""}};
static const postc_rt_parallel_ufunc double_desc = {double_loop, 1, 2, 0, i64_ops};

typedef struct ucall {
  char *args[2];
  intptr_t dims[1], steps[2];
} ucall;

static void run_ucall(void *arg) {
  ucall *c = arg;
  postc_rt_parallel_ufunc_loop(c->args, c->dims, c->steps, (void *)&double_desc);
}

/* Runs one call; returns the loop calls it made. */
static int ucall_count(char *in, char *out, intptr_t n, intptr_t sin, intptr_t sout) {
  atomic_store(&u_calls, 0);
  atomic_store(&u_on_other_thread, 0);
  ucall c = {{in, out}, {n}, {sin, sout}};
  run_ucall(&c);
  return atomic_load(&u_calls);
}

/* A float loop whose chunks overflow: the caller sees the flag. */
static void overflow_loop(char **args, const intptr_t *dims, const intptr_t *steps, void *data) {
  (void)data;
  for (intptr_t i = 0; i < dims[0]; i++) {
    double x = *(double *)(args[0] + i * steps[0]);
    *(volatile double *)(args[1] + i * steps[1]) = x * 1e308;
  }
}
static const postc_rt_ufunc_op f64_ops[2] = {{2, 64, 8, 0, 2, NULL, "Float64", ""},
                                             {2, 64, 8, 0, 3, NULL, "Float64", ""}};
static const postc_rt_parallel_ufunc overflow_desc = {overflow_loop, 1, 2, 0, f64_ops};
static double f_in[UFUNC_N], f_out[UFUNC_N];

static void test_parallel_ufunc(void) {
  postc_rt_set_panic_handler(on_panic, NULL);
  postc_rt_set_num_threads(4);
  u_caller = pthread_self();
  for (int i = 0; i <= UFUNC_N; i++) {
    u_in[i] = i;
  }
  /* Large and independent: in chunks, on more than one thread. */
  atomic_store(&u_wait, 1);
  int calls = ucall_count((char *)u_in, (char *)u_out, UFUNC_N, 8, 8);
  CHECK(calls == POSTC_RT_PARALLEL_CHUNKS);
  CHECK(atomic_load(&u_on_other_thread));
  int right = 1;
  for (int i = 0; i < UFUNC_N; i++) {
    right &= u_out[i] == 2 * (int64_t)i;
  }
  CHECK(right);
  /* Small: one serial call. */
  CHECK(ucall_count((char *)u_in, (char *)u_out, POSTC_RT_PARALLEL_UFUNC_MIN - 1, 8, 8) == 1);
  /* In place (`out=` the input): still in chunks. */
  CHECK(ucall_count((char *)u_out, (char *)u_out, UFUNC_N, 8, 8) == POSTC_RT_PARALLEL_CHUNKS);
  /* An output step of 0 (a reduction) and an output one element behind an
   * input (an accumulation): one serial call each. */
  CHECK(ucall_count((char *)u_in, (char *)u_out, UFUNC_N, 8, 0) == 1);
  CHECK(ucall_count((char *)(u_out + 1), (char *)u_out, UFUNC_N, 8, 8) == 1);
  CHECK(ucall_count((char *)u_out, (char *)(u_out + 1), UFUNC_N, 8, 8) == 1);
  /* Walked backwards, apart: in chunks. */
  CHECK(ucall_count((char *)(u_in + UFUNC_N - 1), (char *)(u_out + UFUNC_N - 1), UFUNC_N, -8, -8) ==
        POSTC_RT_PARALLEL_CHUNKS);
  /* A panic: the lowest failing element's, as the serial loop's. */
  u_in[70000] = -5;
  u_in[30000] = -7;
  u_in[99999] = -9;
  ucall c = {{(char *)u_in, (char *)u_out}, {UFUNC_N}, {8, 8}};
  CHECK(panics(run_ucall, &c));
  CHECK(!strcmp(message, "panic: negative -7"));
  /* The chunks' floating-point exception flags reach the caller. */
  for (int i = 0; i < UFUNC_N; i++) {
    f_in[i] = i == UFUNC_N - 3 ? 1e10 : 0.5;
  }
  feclearexcept(FE_ALL_EXCEPT);
  char *fargs[2] = {(char *)f_in, (char *)f_out};
  intptr_t fdims[1] = {UFUNC_N}, fsteps[2] = {8, 8};
  postc_rt_parallel_ufunc_loop(fargs, fdims, fsteps, (void *)&overflow_desc);
  CHECK(fetestexcept(FE_OVERFLOW));
  feclearexcept(FE_ALL_EXCEPT);
  f_in[UFUNC_N - 3] = 0.5;
  postc_rt_parallel_ufunc_loop(fargs, fdims, fsteps, (void *)&overflow_desc);
  CHECK(!fetestexcept(FE_OVERFLOW));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "abort")) {
    postc_rt_panic("panic: division by zero at %s:%lld:%lld\n", "f.py", 8LL, 12LL);
  }
  if (!strcmp(mode, "returns")) {
    postc_rt_set_panic_handler(returns, NULL);
    postc_rt_panic("panic: the handler returned");
  }
  if (!strcmp(mode, "thread")) {
    /* A handler set on this thread does not serve another. */
    postc_rt_set_panic_handler(on_panic, NULL);
    pthread_t t;
    pthread_create(&t, NULL, panic_thread, NULL);
    pthread_join(t, NULL);
    return 0;
  }
  test_panics();
  test_arena();
  test_threads();
  test_strings();
  test_strides();
  test_stop_flag();
  test_parallel_ufunc();
  if (failures) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
