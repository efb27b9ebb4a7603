/* The per-thread arena of allocations (arrays from `alloc`, returned
 * arrays) and the DLPack headers of arrays.
 *
 * Blocks are calloc'ed (malloc'ed for `alloc.empty`'s arrays, whose
 * elements are written before they are read) with a 16-byte header whose
 * first word links to the previous block of the thread's arena (NULL at
 * the bottom). An array block holds, after the header, a DLManagedTensor
 * (64 bytes), the one-element shape (8 bytes, then 8 of padding) and the
 * data, 16-byte aligned:
 *
 *   block: [prev ptr | pad] [DLManagedTensor] [shape[0] | pad] [data ...]
 *           0               16                80               96
 *
 * A function that allocates takes a mark on entry and releases to it on
 * return, or, returning an array, exports it (docs/abi.md 4).
 *
 * A view (`postc_rt_view`, and the header `postc_rt_arena_export` puts on
 * a tensor the arena does not own) is a header block whose data lies in
 * another array, its base, which `manager_ctx` names: tagged with the low
 * bit while the header only borrows the base (the base lives in the arena
 * or outside it, at least as long as the header), untagged once the header
 * owns it (exported together: the header's deleter deletes the base). A
 * header that owns its base joins an arena together with it. */
#include "internal.h"

enum { HEADER = 16, MANAGED = 64 };

typedef struct block {
  struct block *prev;
  void *pad;
} block;

static _Thread_local block *arena_top;

POSTC_RT_EXPORT void *postc_rt_arena_mark(void) { return arena_top; }

POSTC_RT_EXPORT void postc_rt_arena_release(void *mark) {
  block *t = arena_top;
  while (t != mark && t != NULL) {
    block *prev = t->prev;
    postc_rt_libc_free(t);
    t = prev;
  }
  arena_top = t;
}

/* A block of `bytes` linked into the arena: zeroed, or (`zeroed` 0) with
 * whatever `malloc` leaves in it. */
static void *arena_block(int64_t bytes, int zeroed) {
  uint64_t n = (uint64_t)bytes;
  if (n > 9223372036854775000u) {
    postc_rt_oom();
  }
  block *b = zeroed ? postc_rt_libc_calloc(1, n + HEADER) : postc_rt_libc_malloc(n + HEADER);
  if (!b) {
    postc_rt_oom();
  }
  b->prev = arena_top;
  arena_top = b;
  return (char *)b + HEADER;
}

void *postc_rt_arena_alloc(int64_t bytes) { return arena_block(bytes, 1); }

/* The low bit of `manager_ctx` that marks a borrowed base. */
enum { BORROWED = 1 };

static void *borrowed(const void *base) { return (void *)((uintptr_t)base | BORROWED); }

void postc_rt_managed_deleter(void *managed) {
  rt_managed *m = managed;
  while (m) {
    /* A header deletes the base it owns after itself. */
    uintptr_t base = (uintptr_t)m->manager_ctx;
    postc_rt_libc_free((char *)m - HEADER);
    m = (base & BORROWED) ? NULL : (rt_managed *)base;
  }
}

static void managed_deleter(rt_managed *m) { postc_rt_managed_deleter(m); }

/* A fresh compact C-order array of `ndim` axes (at least 1, at most 64)
 * with the extents `dims` (negative ones count as 0): its header and shape
 * zeroed and filled in, its elements zeroed only when `zeroed` is set. The
 * shape follows the DLManagedTensor, the data follows the shape (rounded
 * up to 16 bytes); the count is checked for overflow axis by axis. */
static void *new_array(int64_t ndim, const int64_t *dims, uint8_t code, uint8_t bits, int64_t elsize, int zeroed) {
  uint64_t nd = ndim < 1 ? 1 : (uint64_t)ndim;
  if (nd > 64) {
    postc_rt_oom();
  }
  uint64_t count = 1;
  for (uint64_t k = 0; k < nd; k++) {
    uint64_t d = dims[k] < 0 ? 0 : (uint64_t)dims[k];
    if (__builtin_mul_overflow(count, d, &count)) {
      postc_rt_oom();
    }
  }
  uint64_t prefix = MANAGED + ((8 * nd + 15) & ~(uint64_t)15);
  uint64_t bytes;
  if (__builtin_mul_overflow(count, (uint64_t)elsize, &bytes) || bytes > (uint64_t)INT64_MAX - prefix) {
    postc_rt_oom();
  }
  rt_managed *m = arena_block((int64_t)(bytes + prefix), zeroed);
  if (!zeroed) {
    /* The header's fields that are not set below (device id, strides,
     * byte offset, manager context) are 0, as calloc would leave them. */
    uint64_t *words = (uint64_t *)m;
    for (uint64_t k = 0; k < prefix / 8; k++) {
      words[k] = 0;
    }
  }
  int64_t *shape = (int64_t *)((char *)m + MANAGED);
  m->dl_tensor.data = (char *)m + prefix;
  m->dl_tensor.device_type = 1; /* kDLCPU */
  m->dl_tensor.ndim = (int32_t)nd;
  m->dl_tensor.code = code;
  m->dl_tensor.bits = bits;
  m->dl_tensor.lanes = 1;
  m->dl_tensor.shape = shape;
  for (uint64_t k = 0; k < nd; k++) {
    shape[k] = dims[k] < 0 ? 0 : dims[k];
  }
  m->deleter = managed_deleter;
  return m;
}

void *postc_rt_alloc_array(int64_t n, uint8_t code, uint8_t bits, int64_t elsize) {
  return new_array(1, &n, code, bits, elsize, 1);
}

void *postc_rt_alloc_array_empty(int64_t n, uint8_t code, uint8_t bits, int64_t elsize) {
  return new_array(1, &n, code, bits, elsize, 0);
}

void *postc_rt_alloc_nd(int64_t ndim, const int64_t *dims, uint8_t code, uint8_t bits, int64_t elsize) {
  return new_array(ndim, dims, code, bits, elsize, 1);
}

void *postc_rt_alloc_nd_empty(int64_t ndim, const int64_t *dims, uint8_t code, uint8_t bits, int64_t elsize) {
  return new_array(ndim, dims, code, bits, elsize, 0);
}

void *postc_rt_view(const void *base, int64_t offset, int64_t ndim, const int64_t *extents, const int64_t *strides,
                    int64_t elsize) {
  /* Checked by the caller (`insert-checks`): the extents are not negative,
   * the offset and strides are multiples of `elsize`, and a non-empty view
   * lies within its base. */
  const rt_tensor *b = base;
  uint64_t nd = ndim < 0 ? 0 : (uint64_t)ndim;
  if (nd > 64) {
    postc_rt_oom();
  }
  rt_managed *m = postc_rt_arena_alloc((int64_t)(MANAGED + 16 * nd));
  int64_t *shape = (int64_t *)((char *)m + MANAGED);
  int64_t *elem_strides = shape + nd;
  m->dl_tensor = *b;
  m->dl_tensor.data = (char *)b->data + b->byte_offset + offset;
  m->dl_tensor.byte_offset = 0;
  m->dl_tensor.ndim = (int32_t)nd;
  m->dl_tensor.shape = shape;
  m->dl_tensor.strides = elem_strides;
  for (uint64_t k = 0; k < nd; k++) {
    shape[k] = extents[k];
    elem_strides[k] = strides[k] / elsize;
  }
  m->manager_ctx = borrowed(base);
  m->deleter = managed_deleter;
  return m;
}

void postc_rt_arena_adopt(void *managed) {
  rt_managed *m = managed;
  while (m) {
    block *b = (block *)((char *)m - HEADER);
    b->prev = arena_top;
    arena_top = b;
    /* An owned base joins too, and from now on the header borrows it. */
    uintptr_t base = (uintptr_t)m->manager_ctx;
    if (base & BORROWED) {
      break;
    }
    m->manager_ctx = base ? borrowed((void *)base) : NULL;
    m = (rt_managed *)base;
  }
}

/* Unlinks the block of `tensor` from the arena when it was allocated since
 * `mark`; whether it was. */
static int unlink_since(void *mark, const void *tensor) {
  for (block **link = &arena_top; *link != mark && *link != NULL; link = &(*link)->prev) {
    block *b = *link;
    if ((char *)b + HEADER == (const char *)tensor) {
      *link = b->prev;
      b->prev = NULL;
      return 1;
    }
  }
  return 0;
}

/* Detaches the header `m`, unlinked from the arena, together with the
 * chain of bases it borrows that were allocated since `mark`: each header
 * whose base is detached owns it. */
static void detach_bases(void *mark, rt_managed *m) {
  while (m && ((uintptr_t)m->manager_ctx & BORROWED)) {
    rt_managed *base = (rt_managed *)((uintptr_t)m->manager_ctx & ~(uintptr_t)BORROWED);
    if (!unlink_since(mark, base)) {
      return;
    }
    m->manager_ctx = base;
    m = base;
  }
}

/* Hands `tensor` to the caller without releasing the arena: detached with
 * the bases of this call it lies in, or wrapped in a new header that
 * borrows it when the arena since `mark` does not hold it. */
static void *detach(void *mark, void *tensor);

void *postc_rt_arena_export(void *mark, void *tensor) {
  void *m = detach(mark, tensor);
  postc_rt_arena_release(mark);
  return m;
}

/* Whether the exported header `out`, or a base it owns, is `p`. */
static int owns(const rt_managed *out, const void *p) {
  while (out) {
    if (out == p) {
      return 1;
    }
    uintptr_t base = (uintptr_t)out->manager_ctx;
    out = (base & BORROWED) ? NULL : (const rt_managed *)base;
  }
  return 0;
}

/* Whether `tensor` is a block of the arena since `mark`. */
static int linked_since(void *mark, const void *tensor) {
  for (block *b = arena_top; b != mark && b != NULL; b = b->prev) {
    if ((char *)b + HEADER == (const char *)tensor) {
      return 1;
    }
  }
  return 0;
}

/* Whether `tensor`, or a base of it that this call made, is owned by one
 * of the `n` headers of `out`. Only blocks of this call are read: a base
 * outside the arena (an argument, an outer call's array) ends the chain. */
static int shares_memory(void *mark, const void *tensor, void **out, int64_t n) {
  const rt_managed *t = tensor;
  while (t) {
    for (int64_t j = 0; j < n; j++) {
      if (owns(out[j], t)) {
        return 1;
      }
    }
    if (!linked_since(mark, t)) {
      return 0;
    }
    uintptr_t base = (uintptr_t)t->manager_ctx;
    t = (const rt_managed *)(base & ~(uintptr_t)BORROWED);
  }
  return 0;
}

/* A compact C-order copy of `tensor`, in a block of its own that the
 * caller owns. */
static void *detached_copy(void *mark, const rt_tensor *t) {
  int64_t nd = t->ndim < 0 ? 0 : t->ndim;
  int64_t one = 1;
  int64_t elsize = ((int64_t)t->bits * (t->lanes ? t->lanes : 1) + 7) / 8;
  rt_managed *c = new_array(nd ? nd : 1, nd ? t->shape : &one, t->code, t->bits, elsize, 0);
  unlink_since(mark, c);
  c->dl_tensor.ndim = (int32_t)nd;
  int64_t count = 1;
  for (int64_t k = 0; k < nd; k++) {
    count *= t->shape[k];
  }
  if (count == 0) {
    return c;
  }
  const char *src = (const char *)t->data + t->byte_offset;
  char *dst = c->dl_tensor.data;
  int64_t index[64] = {0};
  for (int64_t i = 0; i < count; i++) {
    /* The source's element at `index`: its strides in elements, or C
     * order when it has none. */
    int64_t at = 0, step = 1;
    for (int64_t k = nd - 1; k >= 0; k--) {
      at += index[k] * (t->strides ? t->strides[k] : step);
      step *= t->shape[k];
    }
    postc_rt_libc_memcpy(dst + i * elsize, src + at * elsize, (size_t)elsize);
    for (int64_t k = nd - 1; k >= 0 && ++index[k] == t->shape[k]; k--) {
      index[k] = 0;
    }
  }
  return c;
}

void postc_rt_arena_export_tuple(void *mark, int64_t n, void **tensors) {
  for (int64_t k = 0; k < n; k++) {
    /* An element whose memory an earlier element already took (the same
     * array twice, two views of one array, an array and a view of it) is
     * copied: each header the caller receives is freed on its own. */
    if (shares_memory(mark, tensors[k], tensors, k)) {
      tensors[k] = detached_copy(mark, tensors[k]);
    } else {
      tensors[k] = detach(mark, tensors[k]);
    }
  }
  postc_rt_arena_release(mark);
}

static void *detach(void *mark, void *tensor) {
  /* An array of this call's arena: unlinked, and kept with the bases of
   * this call that it lies in. */
  if (unlink_since(mark, tensor)) {
    detach_bases(mark, tensor);
    return tensor;
  }
  /* Any other tensor (an argument, or an array of an outer call): a new
   * header that borrows it. */
  const rt_tensor *t = tensor;
  size_t nd = t->ndim < 0 ? 0 : (size_t)t->ndim;
  char *b = postc_rt_libc_calloc(1, HEADER + MANAGED + 16 + 16 * nd);
  if (!b) {
    postc_rt_oom();
  }
  rt_managed *m = (rt_managed *)(b + HEADER);
  postc_rt_libc_memcpy(&m->dl_tensor, t, sizeof *t);
  int64_t *shape = (int64_t *)((char *)m + MANAGED);
  int64_t *strides = shape + nd;
  postc_rt_libc_memcpy(shape, t->shape, nd * sizeof *shape);
  m->dl_tensor.shape = shape;
  if (t->strides) {
    postc_rt_libc_memcpy(strides, t->strides, nd * sizeof *strides);
    m->dl_tensor.strides = strides;
  }
  m->manager_ctx = borrowed(tensor);
  m->deleter = managed_deleter;
  return m;
}
