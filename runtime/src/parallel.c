/* The thread pool of `prange` loops (docs/abi.md 12): postc_rt_parallel_for
 * runs the chunks of a loop's range on the calling thread and the pool's
 * workers, which take the chunks in increasing order from one counter.
 *
 * - The chunks depend on the trip count alone (at most
 *   POSTC_RT_PARALLEL_CHUNKS, the same formula as the compiler's
 *   postc_ir::builtins::chunk_bounds), never on the number of threads: the
 *   compiled code combines the chunks' partial reductions in chunk order,
 *   so the result is the same on any number of threads.
 * - The pool is started on the first parallel loop, with
 *   postc_rt_get_num_threads() - 1 workers: POSTC_NUM_THREADS, else the
 *   CPUs the process may run on (sched_getaffinity). One loop uses the
 *   pool at a time; a loop started while another holds it (another thread
 *   of the program), a loop inside a chunk (a nested prange, or one in a
 *   function a chunk calls) and a loop on one thread run their chunks in
 *   order on the calling thread instead.
 * - Each chunk runs with the thread's arena marked and released around it,
 *   and under a panic handler of the runtime's: a panic in a chunk is
 *   recorded (the lowest chunk's wins), no chunk after it is started, the
 *   chunks before it finish (one of them may panic first in the serial
 *   order), and once every thread is done the panic is raised again on the
 *   calling thread, through its own handler, with the same message.
 * - A chunk already running stops at its next iteration once a chunk with
 *   a lower index has panicked: a compiled chunk function takes the address
 *   of the loop's lowest failed chunk once (postc_rt_parallel_stop_word)
 *   and compares its own index with it on its loop's back edge, a load and
 *   a compare per iteration. Only chunks above the lowest failed one stop,
 *   so that chunk is still found whichever thread fails first, and the
 *   panic raised is the serial loop's.
 * - postc_rt_parallel_ufunc_loop runs a ufunc's serial inner loop on the
 *   same pool, in chunks of its outer dimension, when the operands are
 *   large and no output overlaps another operand across iterations.
 *
 * pthreads, not OpenMP: the runtime is linked into every compiled library
 * and reaches the C library only through dlsym (src/libc.c); an OpenMP
 * runtime would be one more shared library to find and load, and its
 * pool's size and nesting rules would be another process-wide setting. */
#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define MAX_THREADS 256
#define MSG 1024

typedef void (*chunk_fn)(void *env, int64_t chunk, int64_t lo, int64_t hi);

typedef struct region {
  chunk_fn fn;
  void *env;
  int64_t start, stop, step;
  uint64_t n, m;
  /* Chunks a thread claims at once: a run of them per trip to the shared
   * counter (which chunk runs where changes no result). */
  int64_t batch;
  _Atomic int64_t next;
  /* The lowest chunk that panicked, or m. */
  _Atomic int64_t failed;
  pthread_mutex_t msg_lock;
  char msg[MSG];
} region;

/* Set on the pool's workers and while a thread runs chunks: a loop started
 * there runs serially. */
static _Thread_local int in_chunks;
static _Thread_local void *chunk_jmp[5];
static _Thread_local char chunk_msg[MSG];
/* The region whose chunk the thread is running: the one whose stop word
 * a chunk function reads. */
static _Thread_local region *running;

static _Atomic int num_threads;
static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int workers;
static uint64_t generation;
/* `generation` and `pending` as the spinning threads read them without
 * the lock (both change under it). */
static _Atomic uint64_t published;
static _Atomic int pending;

/* How long a thread spins, watching for its next event, before it sleeps
 * on a condition variable: about a millisecond. Waking a sleeping thread
 * takes tens of microseconds on an idle machine (its core leaves its idle
 * state), which would be the whole cost of a short loop; loops that come
 * one after another find the workers still spinning. */
#define SPIN 20000

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}
static int active; /* workers taking part in the current loop */
static region *current;
/* The generation before the loop a worker was started for. */
static uint64_t born[MAX_THREADS];

static uint64_t trip_count(int64_t start, int64_t stop, int64_t step) {
  if (step > 0 && stop > start) {
    return ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1;
  }
  if (step < 0 && start > stop) {
    return ((uint64_t)start - (uint64_t)stop - 1) / (0 - (uint64_t)step) + 1;
  }
  return 0;
}

static int64_t at(const region *r, uint64_t k) { return (int64_t)((uint64_t)r->start + k * (uint64_t)r->step); }

static void on_chunk_panic(const char *msg, size_t len, void *data) {
  (void)data;
  if (len >= MSG) {
    len = MSG - 1;
  }
  postc_rt_libc_memcpy(chunk_msg, msg, len);
  chunk_msg[len] = '\0';
  __builtin_longjmp(chunk_jmp, 1);
}

static void run_chunks(region *r) {
  postc_panic_handler saved;
  void *saved_data;
  postc_rt_get_panic_handler(&saved, &saved_data);
  postc_rt_set_panic_handler(on_chunk_panic, NULL);
  int was = in_chunks;
  in_chunks = 1;
  region *was_running = running;
  running = r;
  /* A loop run inside a chunk (a nested prange, one in a function a chunk
   * calls) takes the thread's jump buffer for its own chunks: the outer
   * chunk's is put back when it is done, for a panic after it. */
  void *outer_jmp[5];
  for (int i = 0; i < 5; i++) {
    outer_jmp[i] = chunk_jmp[i];
  }
  int64_t c = 0, claimed = 0;
  for (;; c++) {
    if (c == claimed) {
      c = atomic_fetch_add(&r->next, r->batch);
      claimed = c + r->batch;
    }
    if ((uint64_t)c >= r->m || c > atomic_load(&r->failed)) {
      break;
    }
    unsigned __int128 lo = (unsigned __int128)c * r->n / r->m;
    unsigned __int128 hi = (unsigned __int128)(c + 1) * r->n / r->m;
    int64_t ilo = at(r, (uint64_t)lo);
    int64_t ihi = (uint64_t)c + 1 == r->m ? r->stop : at(r, (uint64_t)hi);
    void *mark = postc_rt_arena_mark();
    if (__builtin_setjmp(chunk_jmp) == 0) {
      r->fn(r->env, c, ilo, ihi);
    } else {
      postc_rt_libc_pthread_mutex_lock(&r->msg_lock);
      if (c < atomic_load(&r->failed)) {
        atomic_store(&r->failed, c);
        postc_rt_libc_memcpy(r->msg, chunk_msg, MSG);
      }
      postc_rt_libc_pthread_mutex_unlock(&r->msg_lock);
    }
    postc_rt_arena_release(mark);
  }
  for (int i = 0; i < 5; i++) {
    chunk_jmp[i] = outer_jmp[i];
  }
  running = was_running;
  in_chunks = was;
  postc_rt_set_panic_handler(saved, saved_data);
}

const int64_t *postc_rt_parallel_stop_word(void) { return (const int64_t *)&running->failed; }

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  in_chunks = 1;
  postc_rt_libc_pthread_mutex_lock(&pool_lock);
  uint64_t seen = born[id];
  for (;;) {
    if (generation == seen) {
      postc_rt_libc_pthread_mutex_unlock(&pool_lock);
      for (int i = 0; i < SPIN && atomic_load(&published) == seen; i++) {
        relax();
      }
      postc_rt_libc_pthread_mutex_lock(&pool_lock);
    }
    while (generation == seen) {
      postc_rt_libc_pthread_cond_wait(&work_cond, &pool_lock);
    }
    seen = generation;
    region *r = current;
    int mine = id < active;
    postc_rt_libc_pthread_mutex_unlock(&pool_lock);
    if (mine) {
      run_chunks(r);
    }
    postc_rt_libc_pthread_mutex_lock(&pool_lock);
    if (--pending == 0) {
      postc_rt_libc_pthread_cond_signal(&done_cond);
    }
  }
  return NULL;
}

static int cpus(void) {
  unsigned char set[128];
  for (size_t i = 0; i < sizeof set; i++) {
    set[i] = 0;
  }
  if (postc_rt_libc_sched_getaffinity(0, sizeof set, set) != 0) {
    return 1;
  }
  int n = 0;
  for (size_t i = 0; i < sizeof set; i++) {
    n += __builtin_popcount(set[i]);
  }
  return n > 0 ? n : 1;
}

POSTC_RT_EXPORT int postc_rt_get_num_threads(void) {
  int n = atomic_load(&num_threads);
  if (n > 0) {
    return n;
  }
  const char *env = postc_rt_libc_getenv("POSTC_NUM_THREADS");
  n = 0;
  if (env) {
    for (const char *p = env; *p >= '0' && *p <= '9' && n <= MAX_THREADS; p++) {
      n = n * 10 + (*p - '0');
    }
  }
  if (n <= 0) {
    n = cpus();
  }
  if (n > MAX_THREADS) {
    n = MAX_THREADS;
  }
  int zero = 0;
  atomic_compare_exchange_strong(&num_threads, &zero, n);
  return atomic_load(&num_threads);
}

POSTC_RT_EXPORT void postc_rt_set_num_threads(int n) {
  if (n < 1) {
    n = 1;
  }
  if (n > MAX_THREADS) {
    n = MAX_THREADS;
  }
  atomic_store(&num_threads, n);
}

int64_t postc_rt_parallel_for(chunk_fn fn, void *env, int64_t start, int64_t stop, int64_t step) {
  uint64_t n = trip_count(start, stop, step);
  uint64_t m = n < POSTC_RT_PARALLEL_CHUNKS ? n : POSTC_RT_PARALLEL_CHUNKS;
  if (m == 0) {
    return 0;
  }
  region r;
  r.fn = fn;
  r.env = env;
  r.start = start;
  r.stop = stop;
  r.step = step;
  r.n = n;
  r.m = m;
  atomic_init(&r.next, 0);
  atomic_init(&r.failed, (int64_t)m);
  r.msg_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
  int threads = postc_rt_get_num_threads();
  /* About four claims per thread: few trips to the shared counter, whose
   * cache line moves between cores at each, yet uneven chunks still
   * balance. */
  r.batch = threads > 1 ? (int64_t)(m / (4 * (uint64_t)threads)) : (int64_t)m;
  if (r.batch < 1) {
    r.batch = 1;
  }
  if (in_chunks || threads <= 1 || m == 1 || postc_rt_libc_pthread_mutex_trylock(&region_lock) != 0) {
    run_chunks(&r);
  } else {
    postc_rt_libc_pthread_mutex_lock(&pool_lock);
    if (workers == 0) {
      /* The workers outlive the call: a dlclose must not unmap their code. */
      postc_rt_libc_pin_self((void *)worker);
    }
    while (workers < threads - 1) {
      pthread_t t;
      born[workers] = generation;
      if (postc_rt_libc_pthread_create(&t, NULL, worker, (void *)(intptr_t)workers) != 0) {
        break;
      }
      postc_rt_libc_pthread_detach(t);
      workers++;
    }
    current = &r;
    active = threads - 1;
    pending = workers;
    generation++;
    atomic_store(&published, generation);
    postc_rt_libc_pthread_cond_broadcast(&work_cond);
    postc_rt_libc_pthread_mutex_unlock(&pool_lock);
    run_chunks(&r);
    for (int i = 0; i < SPIN && atomic_load(&pending) > 0; i++) {
      relax();
    }
    postc_rt_libc_pthread_mutex_lock(&pool_lock);
    while (pending > 0) {
      postc_rt_libc_pthread_cond_wait(&done_cond, &pool_lock);
    }
    current = NULL;
    postc_rt_libc_pthread_mutex_unlock(&pool_lock);
    postc_rt_libc_pthread_mutex_unlock(&region_lock);
  }
  if ((uint64_t)atomic_load(&r.failed) < m) {
    postc_rt_panic("%s", r.msg);
  }
  return (int64_t)m;
}


/* ---- Parallel ufunc loops ---------------------------------------------- */

/* The floating-point exception flags of the calling thread, which NumPy
 * reads after a ufunc's loop (a division by zero warns or raises): chunks
 * run elsewhere hand theirs back to the caller. */
#if defined(__x86_64__) || defined(__i386__)
#define FP_FLAGS 0x3fu
static unsigned fp_flags(void) { return __builtin_ia32_stmxcsr() & FP_FLAGS; }
static void fp_set_flags(unsigned f) { __builtin_ia32_ldmxcsr((__builtin_ia32_stmxcsr() & ~FP_FLAGS) | f); }
#elif defined(__aarch64__)
#define FP_FLAGS 0x9fu
static unsigned fp_flags(void) {
  uint64_t r;
  __asm__ volatile("mrs %0, fpsr" : "=r"(r));
  return (unsigned)r & FP_FLAGS;
}
static void fp_set_flags(unsigned f) {
  uint64_t r;
  __asm__ volatile("mrs %0, fpsr" : "=r"(r));
  r = (r & ~(uint64_t)FP_FLAGS) | f;
  __asm__ volatile("msr fpsr, %0" : : "r"(r));
}
#else
static unsigned fp_flags(void) { return 0; }
static void fp_set_flags(unsigned f) { (void)f; }
#endif

typedef struct ufunc_run {
  const postc_rt_parallel_ufunc *u;
  char **args;
  const intptr_t *dims;
  const intptr_t *steps;
  _Atomic unsigned flags; /* the chunks' floating-point exception flags */
} ufunc_run;

/* Iterations [lo, hi) of the outer dimension: the serial loop on pointers
 * moved to iteration lo. */
static void ufunc_chunk(void *env, int64_t chunk, int64_t lo, int64_t hi) {
  (void)chunk;
  ufunc_run *r = (ufunc_run *)env;
  const postc_rt_parallel_ufunc *u = r->u;
  char *args[u->nops];
  intptr_t dims[u->ndims + 1];
  for (int64_t i = 0; i < u->nops; i++) {
    args[i] = r->args[i] + lo * r->steps[i];
  }
  dims[0] = (intptr_t)(hi - lo);
  for (int64_t k = 1; k <= u->ndims; k++) {
    dims[k] = r->dims[k];
  }
  unsigned before = fp_flags();
  fp_set_flags(0);
  u->loop(args, dims, r->steps, NULL);
  atomic_fetch_or(&r->flags, fp_flags());
  fp_set_flags(before);
}

/* The bytes operand i touches, relative to args[i]: [*lo, *hi) over all n
 * outer iterations, and [*first_lo, *first_hi) in one of them. */
typedef struct span {
  __int128 lo, hi, first_lo, first_hi;
  int empty;
} span;

static span footprint(const postc_rt_parallel_ufunc *u, int64_t i, int64_t n, const intptr_t *dims,
                      const intptr_t *steps) {
  const postc_rt_ufunc_op *op = &u->ops[i];
  span s = {0, op->elsize, 0, op->elsize, n == 0};
  for (int64_t k = 0; k < op->ncore; k++) {
    __int128 extent = dims[op->core[k] + 1], step = steps[op->corebase + k];
    s.empty |= extent == 0;
    __int128 far = (extent - 1) * step;
    if (far < 0) {
      s.first_lo += far;
    } else {
      s.first_hi += far;
    }
  }
  __int128 far = (__int128)(n - 1) * steps[i];
  s.lo = s.first_lo + (far < 0 ? far : 0);
  s.hi = s.first_hi + (far > 0 ? far : 0);
  return s;
}

/* Whether the outer iterations write disjoint bytes that no other
 * iteration reads: every output's iterations are apart, and an output
 * shares no byte with another operand unless both are the same array
 * walked the same way (`out=` one of the inputs). A reduction
 * (`np.add.reduce`: an output step of 0) or an accumulation (an input one
 * element behind the output) runs serially. */
static int independent(const postc_rt_parallel_ufunc *u, char **args, const intptr_t *dims, const intptr_t *steps) {
  int64_t n = dims[0];
  for (int64_t o = u->nin; o < u->nops; o++) {
    span so = footprint(u, o, n, dims, steps);
    if (so.empty) {
      continue;
    }
    __int128 width = so.first_hi - so.first_lo, step = steps[o];
    if ((step < 0 ? -step : step) < width) {
      return 0;
    }
    __int128 base_o = (__int128)(uintptr_t)args[o];
    for (int64_t j = 0; j < u->nops; j++) {
      if (j == o) {
        continue;
      }
      span sj = footprint(u, j, n, dims, steps);
      __int128 base_j = (__int128)(uintptr_t)args[j];
      int apart = sj.empty || base_j + sj.lo >= base_o + so.hi || base_o + so.lo >= base_j + sj.hi;
      int same = args[j] == args[o] && steps[j] == steps[o] && sj.first_lo == so.first_lo &&
                 sj.first_hi == so.first_hi;
      if (!apart && !same) {
        return 0;
      }
    }
  }
  return 1;
}

POSTC_RT_EXPORT void postc_rt_parallel_ufunc_loop(char **args, const intptr_t *dimensions, const intptr_t *steps,
                                                  void *data) {
  const postc_rt_parallel_ufunc *u = (const postc_rt_parallel_ufunc *)data;
  int64_t n = dimensions[0];
  /* The elements one call computes: outer iterations times core sizes. */
  unsigned __int128 work = n > 0 ? (unsigned __int128)n : 0;
  for (int64_t k = 1; k <= u->ndims; k++) {
    work *= dimensions[k] > 0 ? (unsigned __int128)dimensions[k] : 1;
  }
  if (n < 2 || work < POSTC_RT_PARALLEL_UFUNC_MIN || !independent(u, args, dimensions, steps)) {
    u->loop(args, dimensions, steps, NULL);
    return;
  }
  ufunc_run r = {u, args, dimensions, steps, 0};
  postc_rt_parallel_for(ufunc_chunk, &r, 0, n, 1);
  fp_set_flags(fp_flags() | atomic_load(&r.flags));
}
