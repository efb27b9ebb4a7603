/* postc_runtime.h: the host runtime of code compiled by postc.
 *
 * libpostc_runtime.a is linked into every shared library and executable
 * postc builds; objects made with `--emit obj` need it at link time
 * (`postc-driver runtime --out-dir DIR` writes it and this header).
 *
 * Eight entry points are exported from every postc shared library: the
 * panic and print handlers, the per-thread arena, the thread count and the
 * parallel ufunc loop. Everything else below is what
 * compiled code calls; it is hidden inside a shared library.
 */
#ifndef POSTC_RUNTIME_H
#define POSTC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Exported entry points ------------------------------------------- */

/* A panic: formats printf-style (%lld, %llu, %.*s, %s, %g), drops one
 * trailing newline, and calls the calling thread's handler with the
 * message ("panic: ... at FILE:LINE:COL", NUL-terminated, `len` bytes
 * without the NUL). With no handler, or when it returns, writes the message
 * and "\n" to standard error and aborts. */
#if defined(__GNUC__)
__attribute__((noreturn, cold, format(printf, 1, 2)))
#endif
void postc_rt_panic(const char *fmt, ...);

/* Called with the message of a panic on the thread that set it. It may
 * leave with longjmp to a setjmp taken before the call into compiled code
 * (compiled frames hold no cleanups); the caller then releases the arena to
 * the mark it took before the call. */
typedef void (*postc_panic_handler)(const char *msg, size_t len, void *data);

/* Sets the calling thread's handler; NULL restores writing and aborting. */
void postc_rt_set_panic_handler(postc_panic_handler handler, void *data);

/* Called with each line `print` writes in compiled code (`len` bytes, the
 * line end included), on the thread that printed it; it may be called by
 * several threads at once. */
typedef void (*postc_print_handler)(const char *text, size_t len, void *data);

/* Sets the process's print handler; NULL restores writing to standard
 * output. */
void postc_rt_set_print_handler(postc_print_handler handler, void *data);

/* The top of the calling thread's arena, and the release of every block
 * allocated after a mark. */
void *postc_rt_arena_mark(void);

/* The thread pool of `prange` loops: its size (POSTC_NUM_THREADS, else the
 * CPUs the process may run on), which a later loop uses. */
void postc_rt_set_num_threads(int n);
int postc_rt_get_num_threads(void);

/* What compiled code calls for a `prange` loop: fn(env, chunk, lo, hi) for
 * each chunk of range(start, stop, step); returns the number of chunks.
 * Inside fn, postc_rt_parallel_stop_word() is the address of the lowest
 * chunk of the loop that has panicked (the chunk count while none has),
 * which other threads change: fn reads it atomically (relaxed) on its
 * loop's back edge and returns once it is below `chunk`. */
#define POSTC_RT_PARALLEL_CHUNKS 128
int64_t postc_rt_parallel_for(void (*fn)(void *env, int64_t chunk, int64_t lo, int64_t hi), void *env,
                              int64_t start, int64_t stop, int64_t step);
const int64_t *postc_rt_parallel_stop_word(void);
void postc_rt_arena_release(void *mark);

/* ---- What compiled code calls (hidden in shared libraries) ----------- */

/* `Str` and `Bytes` values. */
typedef struct postc_rt_str {
  const char *ptr;
  int64_t len;
} postc_rt_str;

/* Zeroed, 16-byte aligned memory owned by the thread's arena; panics
 * "out of memory (arena)" when it cannot be had. */
void *postc_rt_arena_alloc(int64_t bytes);
/* A fresh zeroed 1-D array of `n` elements (negative counts as 0) in the
 * arena: the result is its DLManagedTensor (the DLTensor first). */
void *postc_rt_alloc_array(int64_t n, uint8_t code, uint8_t bits, int64_t elsize);
/* A fresh zeroed compact C-order array of `ndim` (1 to 64) axes with the
 * extents `dims` (negative ones count as 0) in the arena. */
void *postc_rt_alloc_nd(int64_t ndim, const int64_t *dims, uint8_t code, uint8_t bits, int64_t elsize);
/* As postc_rt_alloc_array and postc_rt_alloc_nd, but the elements are not
 * zeroed (`alloc.empty`: the caller writes each before reading it). */
void *postc_rt_alloc_array_empty(int64_t n, uint8_t code, uint8_t bits, int64_t elsize);
void *postc_rt_alloc_nd_empty(int64_t ndim, const int64_t *dims, uint8_t code, uint8_t bits, int64_t elsize);
/* Detaches the array `tensor` from the arena (or wraps a tensor the arena
 * does not own in a new header sharing its data), releases the arena to
 * `mark` and returns the DLManagedTensor the caller owns. */
void *postc_rt_arena_export(void *mark, void *tensor);
/* As postc_rt_arena_export for the `n` arrays of a tuple result, each
 * `tensors[k]` replaced by the DLManagedTensor the caller owns; an array
 * whose memory an earlier one already took comes back as a compact copy,
 * so that every deleter frees only its own. Then releases the arena. */
void postc_rt_arena_export_tuple(void *mark, int64_t n, void **tensors);
/* A DLManagedTensor made by this runtime joins the thread's arena (with
 * the base arrays it owns). */
void postc_rt_arena_adopt(void *managed);
/* The deleter of every DLManagedTensor the runtime hands out: it frees the
 * header and the base arrays the header owns. */
void postc_rt_managed_deleter(void *managed);
/* A view of the DLTensor `base` in the arena: `ndim` axes with `extents`,
 * element 0 at `offset` bytes from `base`'s, byte `strides` (multiples of
 * `elsize`, as is `offset`; the caller checks that the view lies within
 * `base`). The view borrows `base`: exported, it keeps the bases of the
 * exporting call alive (docs/abi.md 4). */
void *postc_rt_view(const void *base, int64_t offset, int64_t ndim, const int64_t *extents, const int64_t *strides,
                    int64_t elsize);

/* The byte stride of `axis` of a DLTensor (compact row-major when its
 * strides are NULL). */
int64_t postc_rt_stride(const void *tensor, int64_t axis, int64_t elsize);

/* A new NUL-terminated concatenation, never freed. */
postc_rt_str postc_rt_str_concat(postc_rt_str a, postc_rt_str b);

/* `print`: each argument's text appended to the thread's line (a Bool as
 * True or False, integers in decimal, a double as Python's repr, a float
 * as NumPy's str of a float32), then the line written at once to the
 * print handler, else to standard output. */
void postc_rt_print_str(const char *ptr, int64_t len);
void postc_rt_print_bool(int32_t x);
void postc_rt_print_int(int64_t x);
void postc_rt_print_uint(uint64_t x);
void postc_rt_print_f64(double x);
void postc_rt_print_f32(float x);
void postc_rt_print_end(void);

/* The thread's depth of nested calls of POST functions. */
#ifdef __cplusplus
extern thread_local int64_t postc_rt_depth;
#else
extern _Thread_local int64_t postc_rt_depth;
#endif
/* The address of the running thread's postc_rt_depth. */
int64_t *postc_rt_depth_addr(void);

/* What the parallel ufunc loop reads of each operand (docs/abi.md 12). */
typedef struct postc_rt_ufunc_op {
  int64_t code, bits, elsize; /* the DLPack dtype, the element size */
  int64_t ncore;              /* core axes */
  int64_t corebase;           /* where its core steps start in `steps` */
  const int64_t *core;        /* per core axis: the index of its dimension */
  const char *dtype_name;     /* "Float64" */
  const char *core_signature; /* "m,k" */
} postc_rt_ufunc_op;

typedef void (*postc_rt_gufunc_loop)(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);

/* ---- Parallel ufunc loops (exported; docs/abi.md 12) ----------------- */

/* A ufunc's serial NAME_loop and what postc_rt_parallel_ufunc_loop needs
 * to split its outer dimension: per operand (inputs, then outputs) the
 * element size `elsize`, the core axes `ncore`, where their steps start
 * (`corebase`, as in NAME_loop's `steps`) and the dimension of each
 * (`core`); the other fields of postc_rt_ufunc_op are not read. */
typedef struct postc_rt_parallel_ufunc {
  postc_rt_gufunc_loop loop;
  int64_t nin, nops;
  int64_t ndims; /* the core dimensions: dimensions[1..ndims] */
  const postc_rt_ufunc_op *ops;
} postc_rt_parallel_ufunc;

/* Calls below this many elements (outer iterations times the core sizes)
 * run the loop serially. */
#define POSTC_RT_PARALLEL_UFUNC_MIN 8192

/* NumPy's inner-loop signature, `data` a postc_rt_parallel_ufunc: runs
 * `loop` on the thread pool in chunks of dimensions[0] (the chunks of
 * postc_rt_parallel_for), each with its operand pointers moved to its
 * first iteration, and gives the caller the chunks' floating-point
 * exception flags. Small calls, and calls where an output overlaps another
 * operand across iterations (NumPy's reduce and accumulate), run `loop`
 * once, serially. A panic is raised as the serial loop raises it. */
void postc_rt_parallel_ufunc_loop(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);

/* The math library's (or C library's) function `name`, looked up with
 * dlsym on a handle of that library, never the program's own exports:
 * what a module that exports a function named like one it calls reaches
 * the library's through (docs/abi.md 1). Traps when there is none. */
void *postc_rt_libm_symbol(const char *name);

/* The host emulation of a kernel launch (docs/runtime-gpu.md 6), called by
 * a kernel's entry point built with `--gpu off`. `dims` is the launch's
 * grid[3] then block[3]; `coords` the module's twelve coordinates (thread
 * index, block index, block extents, grid extents; each x, y, z), written
 * before each thread runs; `body(args)` runs one thread. Each block's
 * `nshared` shared arrays are zeroed before it runs. With `cooperative`
 * set, a block's threads run as coroutines that wait at
 * postc_rt_gpu_sync_threads; `kernel` names the kernel in the panic of a
 * thread that returns while others wait. */
void postc_rt_gpu_emulate(const char *kernel, const uint32_t *dims, int64_t *coords, void (*body)(void *),
                          void *args, void *const *shared, const int64_t *shared_bytes, int64_t nshared,
                          int32_t cooperative);

/* A barrier of the emulation: the running thread waits until every thread
 * of its block waits; outside a cooperative launch, nothing. */
void postc_rt_gpu_sync_threads(void);

#ifdef __cplusplus
}
#endif

#endif /* POSTC_RUNTIME_H */
