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
  in_chunks = was;
  postc_rt_set_panic_handler(saved, saved_data);
}

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
