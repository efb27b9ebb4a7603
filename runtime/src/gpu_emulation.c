/* The host emulation of a kernel launch, for programs built without GPU
 * code (`--gpu off`; docs/runtime-gpu.md 6).
 *
 * The generated entry point of a kernel checks the launch configuration,
 * packs the launch's arguments into a buffer and calls
 * postc_rt_gpu_emulate with a function that runs the kernel's body on that
 * buffer. Every block runs in turn (x fastest), the block-shared arrays
 * cleared before it, and within it every thread, its coordinates written
 * where the module's coordinate built-ins read them:
 *
 * - a kernel that neither shares arrays nor waits at a barrier runs its
 *   threads one after another, each to its return;
 * - a cooperating kernel runs them as coroutines (getcontext, makecontext,
 *   swapcontext) on the calling thread, in phases: every ready thread, in
 *   turn, runs up to its next postc_rt_gpu_sync_threads or its return;
 *   once every thread waits, the barrier releases them all. A thread that
 *   returns while others wait is a panic, as in the interpreter, whose
 *   order this is.
 *
 * Each coroutine has a stack of STACK bytes, mapped without reserving
 * memory, its lowest page a guard. A panic inside a coroutine leaves
 * through the thread's panic handler as any other; the launch's stacks
 * are then not unmapped. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* MAP_ANONYMOUS and MAP_NORESERVE under a strict C11 build */
#endif
#include "internal.h"

#include <sys/mman.h>
#include <ucontext.h>

#define STACK ((size_t)512 << 10)
#define GUARD ((size_t)4096)

enum { READY, WAITING, RETURNED };

typedef struct coop_thread {
  ucontext_t context;
  void *stack;
  int state;
} coop_thread;

/* The coroutines of one cooperative launch. */
typedef struct coop_launch {
  ucontext_t scheduler;
  coop_thread *threads;
  int64_t count, running, returned;
  void (*body)(void *);
  void *args;
  /* The launch this one replaced as current (a launch from inside a
   * kernel's body). */
  struct coop_launch *previous;
} coop_launch;

/* The running cooperative launch of this thread, NULL outside one. */
static _Thread_local coop_launch *current;

/* Where every coroutine starts; returning resumes the scheduler. */
static void coop_start(void) {
  coop_launch *c = current;
  c->body(c->args);
  c->threads[c->running].state = RETURNED;
  c->returned++;
}

static coop_launch *coop_new(int64_t count, void (*body)(void *), void *args) {
  coop_launch *c = postc_rt_libc_calloc(1, sizeof *c);
  coop_thread *threads = postc_rt_libc_calloc((size_t)count, sizeof *threads);
  if (!c || !threads) {
    postc_rt_panic("panic: cannot map the stacks of %lld emulated GPU threads", (long long)count);
  }
  for (int64_t i = 0; i < count; i++) {
    void *s = postc_rt_libc_mmap(STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
    if (s == MAP_FAILED) {
      postc_rt_panic("panic: cannot map the stacks of %lld emulated GPU threads", (long long)count);
    }
    postc_rt_libc_mprotect(s, GUARD, PROT_NONE);
    threads[i].stack = s;
  }
  *c = (coop_launch){.threads = threads, .count = count, .body = body, .args = args, .previous = current};
  current = c;
  return c;
}

static void coop_free(coop_launch *c) {
  for (int64_t i = 0; i < c->count; i++) {
    postc_rt_libc_munmap(c->threads[i].stack, STACK);
  }
  current = c->previous;
  postc_rt_libc_free(c->threads);
  postc_rt_libc_free(c);
}

/* Writes the x, y and z of linear index `i` (x fastest) among `extents`:
 * a thread's in its block, a block's in the grid. */
static void split_index(int64_t *xyz, int64_t i, const int64_t *extents) {
  xyz[0] = i % extents[0];
  xyz[1] = i / extents[0] % extents[1];
  xyz[2] = i / (extents[0] * extents[1]);
}

/* Runs the threads of one block (its coordinates already written). */
static void coop_block(coop_launch *c, const char *kernel, int64_t *coords, const int64_t *block) {
  int64_t n = c->count;
  c->returned = 0;
  for (int64_t i = 0; i < n; i++) {
    coop_thread *t = &c->threads[i];
    postc_rt_libc_getcontext(&t->context);
    t->context.uc_link = &c->scheduler;
    t->context.uc_stack = (stack_t){.ss_sp = t->stack, .ss_size = STACK, .ss_flags = 0};
    postc_rt_libc_makecontext(&t->context, coop_start);
    t->state = READY;
  }
  for (;;) {
    for (int64_t i = 0; i < n; i++) {
      if (c->threads[i].state == READY) {
        split_index(coords, i, block);
        c->running = i;
        postc_rt_libc_swapcontext(&c->scheduler, &c->threads[i].context);
      }
    }
    if (c->returned == n) {
      return;
    }
    if (c->returned != 0) {
      int64_t r = 0, at[3];
      while (c->threads[r].state != RETURNED) {
        r++;
      }
      split_index(at, r, block);
      postc_rt_panic("panic: kernel function %s: thread (%lld, %lld, %lld) of block (%lld, %lld, %lld) returned "
                     "while other threads of its block wait at postc.gpu.sync_threads",
                     kernel, (long long)at[0], (long long)at[1], (long long)at[2], (long long)coords[3],
                     (long long)coords[4], (long long)coords[5]);
    }
    for (int64_t i = 0; i < n; i++) {
      c->threads[i].state = READY;
    }
  }
}

void postc_rt_gpu_sync_threads(void) {
  coop_launch *c = current;
  if (!c) {
    return;
  }
  coop_thread *t = &c->threads[c->running];
  t->state = WAITING;
  postc_rt_libc_swapcontext(&t->context, &c->scheduler);
}

void postc_rt_gpu_emulate(const char *kernel, const uint32_t *dims, int64_t *coords, void (*body)(void *),
                          void *args, void *const *shared, const int64_t *shared_bytes, int64_t nshared,
                          int32_t cooperative) {
  const int64_t grid[3] = {dims[0], dims[1], dims[2]};
  const int64_t block[3] = {dims[3], dims[4], dims[5]};
  int64_t threads = block[0] * block[1] * block[2];
  int64_t blocks = grid[0] * grid[1] * grid[2];
  for (int k = 0; k < 3; k++) {
    coords[6 + k] = block[k];
    coords[9 + k] = grid[k];
  }
  coop_launch *c = cooperative ? coop_new(threads, body, args) : 0;
  for (int64_t b = 0; b < blocks; b++) {
    split_index(coords + 3, b, grid);
    for (int64_t s = 0; s < nshared; s++) {
      for (int64_t k = 0; k < shared_bytes[s]; k++) {
        ((unsigned char *)shared[s])[k] = 0;
      }
    }
    if (c) {
      coop_block(c, kernel, coords, block);
      continue;
    }
    for (int64_t i = 0; i < threads; i++) {
      split_index(coords, i, block);
      body(args);
    }
  }
  if (c) {
    coop_free(c);
  }
}
