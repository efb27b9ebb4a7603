/* The runtime's entry points that C-backend code calls (the protocol of
 * crate::runtime): panics, the per-thread arena and its arrays, string
 * concatenation. Compiled with hidden visibility into every object of the
 * C backend, except the entry points the Python package needs. */
#include "postc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POSTC_EXPORT __attribute__((visibility("default")))

typedef void (*postc_panic_handler)(const char *msg, size_t len, void *data);
static _Thread_local postc_panic_handler handler;
static _Thread_local void *handler_data;

POSTC_EXPORT void postc_rt_set_panic_handler(postc_panic_handler h, void *data) {
  handler = h;
  handler_data = data;
}

POSTC_EXPORT _Noreturn __attribute__((cold)) void postc_rt_panic(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
  if (handler) handler(buf, (size_t)n, handler_data);
  fwrite(buf, 1, (size_t)n, stderr);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

static _Noreturn void oom(void) { postc_rt_panic("panic: out of memory (%s)", "arena"); }

/* Arena blocks: a 16-byte header whose first word links to the previous
 * block of the thread's arena; an array block holds a DLManagedTensor, its
 * one-element shape and the data. */
static _Thread_local void *arena_top;

POSTC_EXPORT void *postc_rt_arena_mark(void) { return arena_top; }

POSTC_EXPORT void postc_rt_arena_release(void *mark) {
  while (arena_top && arena_top != mark) {
    void *prev = *(void **)arena_top;
    free(arena_top);
    arena_top = prev;
  }
}

static void *arena_alloc(size_t bytes) {
  void **b = calloc(1, bytes + 16);
  if (!b) oom();
  *b = arena_top;
  arena_top = b;
  return (char *)b + 16;
}

static void managed_deleter(DLManagedTensor *m) {
  if (m) free((char *)m - 16);
}

DLManagedTensor *postc_rt_alloc_array(int64_t n, int8_t code, int8_t bits, int64_t elsize) {
  DLManagedTensor *m;
  char *p;
  if (n < 0) n = 0;
  if (elsize > 0 && (uint64_t)n > (UINT64_MAX - 96) / (uint64_t)elsize) oom();
  p = arena_alloc((size_t)n * (size_t)elsize + 80);
  m = (DLManagedTensor *)p;
  m->dl_tensor.data = p + 80;
  m->dl_tensor.device.device_type = kDLCPU;
  m->dl_tensor.ndim = 1;
  m->dl_tensor.dtype.code = (uint8_t)code;
  m->dl_tensor.dtype.bits = (uint8_t)bits;
  m->dl_tensor.dtype.lanes = 1;
  m->dl_tensor.shape = (int64_t *)(p + 64);
  m->dl_tensor.shape[0] = n;
  m->deleter = managed_deleter;
  return m;
}

void postc_rt_arena_adopt(DLManagedTensor *m) {
  void **b;
  if (!m) return;
  b = (void **)((char *)m - 16);
  *b = arena_top;
  arena_top = b;
}

DLManagedTensor *postc_rt_arena_export(void *mark, DLTensor *t) {
  void **link = &arena_top;
  DLManagedTensor *m;
  int64_t nd;
  char *blk;
  while (*link && *link != mark) {
    void **b = *link;
    if ((char *)b + 16 == (char *)t) {
      *link = *b;
      *b = NULL;
      postc_rt_arena_release(mark);
      return (DLManagedTensor *)t;
    }
    link = (void **)b;
  }
  /* A tensor from elsewhere: a fresh header sharing its data. */
  nd = t->ndim < 0 ? 0 : t->ndim;
  blk = calloc(1, 96 + (size_t)nd * 16);
  if (!blk) oom();
  m = (DLManagedTensor *)(blk + 16);
  memcpy(&m->dl_tensor, t, sizeof *t);
  m->dl_tensor.shape = (int64_t *)(blk + 80);
  memcpy(m->dl_tensor.shape, t->shape, (size_t)nd * 8);
  if (t->strides) {
    m->dl_tensor.strides = m->dl_tensor.shape + nd;
    memcpy(m->dl_tensor.strides, t->strides, (size_t)nd * 8);
  }
  m->deleter = managed_deleter;
  postc_rt_arena_release(mark);
  return m;
}

postc_str postc_rt_str_concat(postc_str a, postc_str b) {
  postc_str r;
  char *p = malloc((size_t)(a.len + b.len + 1));
  if (!p) oom();
  if (a.len) memcpy(p, a.ptr, (size_t)a.len);
  if (b.len) memcpy(p + a.len, b.ptr, (size_t)b.len);
  p[a.len + b.len] = 0;
  r.ptr = p;
  r.len = a.len + b.len;
  return r;
}
