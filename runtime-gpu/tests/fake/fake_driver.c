/*
 * A fake GPU driver for testing postc-runtime-gpu without a GPU.
 *
 * It exports the CUDA driver entry points the runtime resolves (cu*) and the
 * HIP ones (hip*), both over host memory: a device pointer is a host
 * pointer. A module is PTX text; loading it records the names of its
 * `.entry NAME(` lines. A launch calls the host function registered under
 * the kernel's name with fake_register_kernel.
 *
 * Control, through the environment:
 *   FAKE_GPU_FAIL=NAME[@N][:CODE],...  the entry point NAME returns CODE
 *       (default: the natural error for that call) on its Nth call, or on
 *       every call without @N.
 *   FAKE_GPU_DEVICES=K                 the number of devices (default 1).
 *
 * Observation: fake_counter("allocs" | "frees" | "live" | "syncs" |
 * "ctx_sets" | "retains" | "launches" | "managed" | "jit_opt" |
 * "func_smem" | "inits" | "set_device" | "streams" | "streams_created"),
 * fake_last_launch(i) (grid x, y, z, block x, y, z, shared bytes for
 * i = 0..6), fake_thread_stream("launch" | "copy" | "sync") (the stream of
 * the calling thread's latest such call; (void *)-1 before any),
 * fake_allocation_base(p) (the start of the allocation holding p, or NULL).
 *
 * Build: cc -shared -fPIC -o libfakegpu.so fake_driver.c -lpthread
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Status codes: CUDA and HIP share the numbers this fake uses. */
enum {
    OK = 0,
    E_INVALID_VALUE = 1,
    E_OUT_OF_MEMORY = 2,
    E_NOT_INITIALIZED = 3,
    E_NO_DEVICE = 100,
    E_INVALID_DEVICE = 101,
    E_INVALID_IMAGE = 200,
    E_INVALID_CONTEXT = 201,
    E_INVALID_HANDLE = 400,
    E_NOT_FOUND = 500,
    E_LAUNCH_FAILED = 719,
    E_UNKNOWN = 999,
};

struct error_name {
    int code;
    const char *cuda;
    const char *hip;
};

static const struct error_name ERROR_NAMES[] = {
    {OK, "CUDA_SUCCESS", "hipSuccess"},
    {E_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "hipErrorInvalidValue"},
    {E_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "hipErrorOutOfMemory"},
    {E_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "hipErrorNotInitialized"},
    {E_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "hipErrorNoDevice"},
    {E_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "hipErrorInvalidDevice"},
    {E_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "hipErrorInvalidImage"},
    {E_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "hipErrorInvalidContext"},
    {E_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "hipErrorInvalidHandle"},
    {E_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "hipErrorNotFound"},
    {E_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "hipErrorLaunchFailure"},
    {E_UNKNOWN, "CUDA_ERROR_UNKNOWN", "hipErrorUnknown"},
};

typedef void (*fake_kernel_fn)(const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                               void **params);

#define MAX_NAME 128
#define MAX_ENTRIES 64
#define MODULE_MAGIC 0x6d6f64
#define FUNCTION_MAGIC 0x66756e
#define STREAM_MAGIC 0x737472
#define EVENT_MAGIC 0x657665

struct function {
    int magic;
    char name[MAX_NAME];
};

struct module {
    int magic;
    int count;
    struct function functions[MAX_ENTRIES];
};

struct stream {
    int magic;
};

struct event {
    int magic;
    int recorded;
};

struct allocation {
    void *ptr;
    size_t size;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialised;
static int context_token;
static __thread void *current_context;

static struct allocation *allocations;
static size_t allocation_count, allocation_capacity;

static struct {
    char name[MAX_NAME];
    fake_kernel_fn fn;
} kernels[MAX_ENTRIES];
static int kernel_count;

static struct {
    char name[64];
    long n;
} calls[128];
static int call_count;

static long c_allocs, c_frees, c_syncs, c_ctx_sets, c_retains, c_launches, c_managed, c_jit_opt = -1, c_func_smem,
    c_inits, c_set_device, c_copies, c_streams, c_streams_created;
static unsigned last_launch[7];
#define NO_STREAM ((void *)-1)
static __thread void *t_launch_stream = NO_STREAM, *t_copy_stream = NO_STREAM, *t_sync_stream = NO_STREAM;

long fake_counter(const char *name) {
    long v = -1;
    pthread_mutex_lock(&lock);
    if (!strcmp(name, "allocs")) v = c_allocs;
    else if (!strcmp(name, "frees")) v = c_frees;
    else if (!strcmp(name, "live")) v = (long)allocation_count;
    else if (!strcmp(name, "syncs")) v = c_syncs;
    else if (!strcmp(name, "ctx_sets")) v = c_ctx_sets;
    else if (!strcmp(name, "retains")) v = c_retains;
    else if (!strcmp(name, "launches")) v = c_launches;
    else if (!strcmp(name, "managed")) v = c_managed;
    else if (!strcmp(name, "jit_opt")) v = c_jit_opt;
    else if (!strcmp(name, "func_smem")) v = c_func_smem;
    else if (!strcmp(name, "inits")) v = c_inits;
    else if (!strcmp(name, "set_device")) v = c_set_device;
    else if (!strcmp(name, "copies")) v = c_copies;
    else if (!strcmp(name, "streams")) v = c_streams;
    else if (!strcmp(name, "streams_created")) v = c_streams_created;
    pthread_mutex_unlock(&lock);
    return v;
}

void *fake_thread_stream(const char *what) {
    if (!strcmp(what, "launch")) return t_launch_stream;
    if (!strcmp(what, "copy")) return t_copy_stream;
    if (!strcmp(what, "sync")) return t_sync_stream;
    return NO_STREAM;
}

void *fake_allocation_base(const void *p) {
    void *base = NULL;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < allocation_count; i++) {
        const char *b = allocations[i].ptr;
        if ((const char *)p >= b && (const char *)p < b + allocations[i].size) base = allocations[i].ptr;
    }
    pthread_mutex_unlock(&lock);
    return base;
}

unsigned fake_last_launch(int i) {
    return (i >= 0 && i < 7) ? last_launch[i] : 0;
}

void fake_register_kernel(const char *name, fake_kernel_fn fn) {
    pthread_mutex_lock(&lock);
    if (kernel_count < MAX_ENTRIES) {
        snprintf(kernels[kernel_count].name, MAX_NAME, "%s", name);
        kernels[kernel_count].fn = fn;
        kernel_count++;
    }
    pthread_mutex_unlock(&lock);
}

/* Counts a call to `name` and returns the status FAKE_GPU_FAIL injects for
 * it (0 for none). */
static int injected(const char *name, int natural) {
    long n = 0;
    pthread_mutex_lock(&lock);
    int i;
    for (i = 0; i < call_count; i++)
        if (!strcmp(calls[i].name, name)) break;
    if (i == call_count && call_count < 128) {
        snprintf(calls[i].name, sizeof calls[i].name, "%s", name);
        calls[i].n = 0;
        call_count++;
    }
    if (i < call_count) n = ++calls[i].n;
    pthread_mutex_unlock(&lock);

    const char *spec = getenv("FAKE_GPU_FAIL");
    if (!spec) return OK;
    while (*spec) {
        const char *end = strchr(spec, ',');
        size_t len = end ? (size_t)(end - spec) : strlen(spec);
        char item[128];
        if (len >= sizeof item) len = sizeof item - 1;
        memcpy(item, spec, len);
        item[len] = 0;
        int code = natural;
        long nth = 0;
        char *colon = strchr(item, ':');
        if (colon) {
            *colon = 0;
            code = atoi(colon + 1);
        }
        char *at = strchr(item, '@');
        if (at) {
            *at = 0;
            nth = atol(at + 1);
        }
        if (!strcmp(item, name) && (nth == 0 || nth == n)) return code;
        spec += len;
        if (*spec == ',') spec++;
    }
    return OK;
}

#define INJECT(name, natural)                  \
    do {                                       \
        int injected_status = injected(name, natural); \
        if (injected_status) return injected_status;   \
    } while (0)

static int device_count(void) {
    const char *s = getenv("FAKE_GPU_DEVICES");
    return s ? atoi(s) : 1;
}

/* Every call but initialisation needs cuInit and a current context. */
static int ready(void) {
    if (!initialised) return E_NOT_INITIALIZED;
    if (current_context != &context_token) return E_INVALID_CONTEXT;
    return OK;
}

#define READY()                      \
    do {                             \
        int ready_status = ready();  \
        if (ready_status) return ready_status; \
    } while (0)

static int do_init(const char *name, unsigned flags) {
    INJECT(name, E_NO_DEVICE);
    if (flags != 0) return E_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    c_inits++;
    pthread_mutex_unlock(&lock);
    if (device_count() <= 0) return E_NO_DEVICE;
    initialised = 1;
    return OK;
}

static int do_device_count(const char *name, int *count) {
    INJECT(name, E_UNKNOWN);
    if (!initialised) return E_NOT_INITIALIZED;
    *count = device_count();
    return OK;
}

/* ---- memory ---------------------------------------------------------- */

static int do_alloc(const char *name, void **out, size_t size, int managed) {
    INJECT(name, E_OUT_OF_MEMORY);
    READY();
    if (size == 0) return E_INVALID_VALUE;
    size_t rounded = (size + 255) / 256 * 256;
    void *p = aligned_alloc(256, rounded);
    if (!p) return E_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    if (allocation_count == allocation_capacity) {
        allocation_capacity = allocation_capacity ? allocation_capacity * 2 : 64;
        allocations = realloc(allocations, allocation_capacity * sizeof *allocations);
    }
    allocations[allocation_count].ptr = p;
    allocations[allocation_count].size = size;
    allocation_count++;
    c_allocs++;
    if (managed) c_managed++;
    pthread_mutex_unlock(&lock);
    *out = p;
    return OK;
}

static int do_free(const char *name, void *p) {
    INJECT(name, E_INVALID_VALUE);
    READY();
    pthread_mutex_lock(&lock);
    size_t i;
    for (i = 0; i < allocation_count; i++)
        if (allocations[i].ptr == p) break;
    if (i == allocation_count) {
        pthread_mutex_unlock(&lock);
        return E_INVALID_VALUE;
    }
    allocations[i] = allocations[--allocation_count];
    c_frees++;
    pthread_mutex_unlock(&lock);
    free(p);
    return OK;
}

static int do_memcpy(const char *name, void *dst, const void *src, size_t bytes, void *stream) {
    INJECT(name, E_INVALID_VALUE);
    READY();
    t_copy_stream = stream;
    if (bytes && (!dst || !src)) return E_INVALID_VALUE;
    memmove(dst, src, bytes);
    pthread_mutex_lock(&lock);
    c_copies++;
    pthread_mutex_unlock(&lock);
    return OK;
}

static int do_memset32(const char *name, void *dst, uint32_t value, size_t count) {
    INJECT(name, E_INVALID_VALUE);
    READY();
    if (count && !dst) return E_INVALID_VALUE;
    uint32_t *d = dst;
    for (size_t i = 0; i < count; i++) d[i] = value;
    return OK;
}

static int do_memset16(const char *name, void *dst, uint16_t value, size_t count) {
    INJECT(name, E_INVALID_VALUE);
    READY();
    if (count && !dst) return E_INVALID_VALUE;
    uint16_t *d = dst;
    for (size_t i = 0; i < count; i++) d[i] = value;
    return OK;
}

/* Whether p lies inside a live allocation: fake device memory. */
static int do_is_device(const char *name, const void *p) {
    if (injected(name, 0)) return 0;
    pthread_mutex_lock(&lock);
    int found = 0;
    for (size_t i = 0; i < allocation_count; i++) {
        const char *b = allocations[i].ptr;
        if ((const char *)p >= b && (const char *)p < b + allocations[i].size) found = 1;
    }
    pthread_mutex_unlock(&lock);
    return found;
}

/* ---- modules and launches -------------------------------------------- */

static int is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.';
}

/* An AMDGPU code object (ELF64): its kernels are the symbols NAME.kd, found
 * as strings in the image, whose size the ELF header gives (the section
 * headers come last). */
static int load_code_object(void **out, const unsigned char *image) {
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, image + 0x28, 8);
    memcpy(&shentsize, image + 0x3A, 2);
    memcpy(&shnum, image + 0x3C, 2);
    size_t size = (size_t)(shoff + (uint64_t)shentsize * shnum);
    if (image[4] != 2 || size < 64 || size > (1u << 30)) return E_INVALID_IMAGE;
    struct module *m = calloc(1, sizeof *m);
    m->magic = MODULE_MAGIC;
    for (size_t i = 1; i + 4 <= size; i++) {
        if (memcmp(image + i, ".kd", 4) != 0) continue; /* ".kd" and its NUL */
        size_t start = i;
        while (start > 0 && image[start - 1] != 0 && is_name_char((char)image[start - 1])) start--;
        if (start == i || image[start - 1] != 0 || m->count == MAX_ENTRIES) continue;
        size_t len = i - start < MAX_NAME - 1 ? i - start : MAX_NAME - 1;
        int seen = 0;
        for (int k = 0; k < m->count; k++)
            if (strlen(m->functions[k].name) == len && !memcmp(m->functions[k].name, image + start, len)) seen = 1;
        if (seen) continue;
        struct function *f = &m->functions[m->count++];
        f->magic = FUNCTION_MAGIC;
        memcpy(f->name, image + start, len);
        f->name[len] = 0;
    }
    *out = m;
    return OK;
}

static int do_module_load(const char *name, void **out, const void *image) {
    INJECT(name, E_INVALID_IMAGE);
    READY();
    const char *text = image;
    if (!text) return E_INVALID_IMAGE;
    if (!memcmp(text, "\x7f" "ELF", 4)) return load_code_object(out, image);
    if (!strstr(text, ".version") && !strstr(text, ".entry")) return E_INVALID_IMAGE;
    struct module *m = calloc(1, sizeof *m);
    m->magic = MODULE_MAGIC;
    for (const char *p = strstr(text, ".entry"); p; p = strstr(p, ".entry")) {
        p += 6;
        if (*p != ' ' && *p != '\t') continue;
        while (*p == ' ' || *p == '\t') p++;
        const char *start = p;
        while (is_name_char(*p)) p++;
        const char *end = p;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (*p != '(' || end == start || m->count == MAX_ENTRIES) continue;
        struct function *f = &m->functions[m->count++];
        f->magic = FUNCTION_MAGIC;
        size_t len = (size_t)(end - start) < MAX_NAME - 1 ? (size_t)(end - start) : MAX_NAME - 1;
        memcpy(f->name, start, len);
        f->name[len] = 0;
    }
    *out = m;
    return OK;
}

static int do_module_unload(const char *name, void *module) {
    INJECT(name, E_INVALID_HANDLE);
    READY();
    struct module *m = module;
    if (!m || m->magic != MODULE_MAGIC) return E_INVALID_HANDLE;
    m->magic = 0;
    free(m);
    return OK;
}

static int do_get_function(const char *name, void **out, void *module, const char *fname) {
    INJECT(name, E_NOT_FOUND);
    READY();
    struct module *m = module;
    if (!m || m->magic != MODULE_MAGIC) return E_INVALID_HANDLE;
    for (int i = 0; i < m->count; i++)
        if (!strcmp(m->functions[i].name, fname)) {
            *out = &m->functions[i];
            return OK;
        }
    return E_NOT_FOUND;
}

static int do_launch(const char *name, void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                     unsigned by, unsigned bz, unsigned smem, void *stream, void **params, void **extra) {
    INJECT(name, E_LAUNCH_FAILED);
    READY();
    (void)extra;
    struct function *f = function;
    if (!f || f->magic != FUNCTION_MAGIC) return E_INVALID_HANDLE;
    if (stream && ((struct stream *)stream)->magic != STREAM_MAGIC) return E_INVALID_HANDLE;
    if (!gx || !gy || !gz || !bx || !by || !bz) return E_INVALID_VALUE;
    fake_kernel_fn fn = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < kernel_count; i++)
        if (!strcmp(kernels[i].name, f->name)) fn = kernels[i].fn;
    unsigned cfg[7] = {gx, gy, gz, bx, by, bz, smem};
    memcpy(last_launch, cfg, sizeof cfg);
    c_launches++;
    pthread_mutex_unlock(&lock);
    t_launch_stream = stream;
    if (!fn) return E_LAUNCH_FAILED;
    unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    fn(grid, block, smem, params);
    return OK;
}

/* ---- streams and events ---------------------------------------------- */

static int do_stream_create(const char *name, void **out) {
    INJECT(name, E_OUT_OF_MEMORY);
    READY();
    struct stream *s = calloc(1, sizeof *s);
    s->magic = STREAM_MAGIC;
    pthread_mutex_lock(&lock);
    c_streams++;
    c_streams_created++;
    pthread_mutex_unlock(&lock);
    *out = s;
    return OK;
}

static int valid_stream(void *stream) {
    return !stream || ((struct stream *)stream)->magic == STREAM_MAGIC;
}

static int do_stream_sync(const char *name, void *stream) {
    INJECT(name, E_LAUNCH_FAILED);
    READY();
    if (!valid_stream(stream)) return E_INVALID_HANDLE;
    pthread_mutex_lock(&lock);
    c_syncs++;
    pthread_mutex_unlock(&lock);
    t_sync_stream = stream;
    return OK;
}

static int do_stream_destroy(const char *name, void *stream) {
    INJECT(name, E_INVALID_HANDLE);
    READY();
    struct stream *s = stream;
    if (!s || s->magic != STREAM_MAGIC) return E_INVALID_HANDLE;
    s->magic = 0;
    free(s);
    pthread_mutex_lock(&lock);
    c_streams--;
    pthread_mutex_unlock(&lock);
    return OK;
}

static int do_event_create(const char *name, void **out) {
    INJECT(name, E_OUT_OF_MEMORY);
    READY();
    struct event *e = calloc(1, sizeof *e);
    e->magic = EVENT_MAGIC;
    *out = e;
    return OK;
}

static int valid_event(void *event) {
    return event && ((struct event *)event)->magic == EVENT_MAGIC;
}

static int do_event_destroy(const char *name, void *event) {
    INJECT(name, E_INVALID_HANDLE);
    READY();
    if (!valid_event(event)) return E_INVALID_HANDLE;
    ((struct event *)event)->magic = 0;
    free(event);
    return OK;
}

static int do_event_record(const char *name, void *event, void *stream) {
    INJECT(name, E_INVALID_HANDLE);
    READY();
    if (!valid_event(event) || !valid_stream(stream)) return E_INVALID_HANDLE;
    ((struct event *)event)->recorded = 1;
    return OK;
}

static int do_event_sync(const char *name, void *event) {
    INJECT(name, E_LAUNCH_FAILED);
    READY();
    if (!valid_event(event)) return E_INVALID_HANDLE;
    return OK;
}

static int do_stream_wait_event(const char *name, void *stream, void *event, unsigned flags) {
    INJECT(name, E_INVALID_HANDLE);
    READY();
    if (!valid_stream(stream) || !valid_event(event) || flags != 0) return E_INVALID_HANDLE;
    return OK;
}

/* ---- the CUDA driver API --------------------------------------------- */

typedef uint64_t CUdeviceptr;

int cuInit(unsigned flags) { return do_init("cuInit", flags); }
int cuDeviceGetCount(int *count) { return do_device_count("cuDeviceGetCount", count); }

int cuDeviceGet(int *device, int ordinal) {
    INJECT("cuDeviceGet", E_INVALID_DEVICE);
    if (!initialised) return E_NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= device_count()) return E_INVALID_DEVICE;
    *device = ordinal;
    return OK;
}

int cuDevicePrimaryCtxRetain(void **ctx, int device) {
    INJECT("cuDevicePrimaryCtxRetain", E_OUT_OF_MEMORY);
    if (!initialised) return E_NOT_INITIALIZED;
    if (device != 0) return E_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    c_retains++;
    pthread_mutex_unlock(&lock);
    *ctx = &context_token;
    return OK;
}

int cuCtxSetCurrent(void *ctx) {
    INJECT("cuCtxSetCurrent", E_INVALID_CONTEXT);
    if (!initialised) return E_NOT_INITIALIZED;
    if (ctx && ctx != &context_token) return E_INVALID_CONTEXT;
    current_context = ctx;
    pthread_mutex_lock(&lock);
    c_ctx_sets++;
    pthread_mutex_unlock(&lock);
    return OK;
}

int cuGetErrorName(int code, const char **name) {
    for (size_t i = 0; i < sizeof ERROR_NAMES / sizeof ERROR_NAMES[0]; i++)
        if (ERROR_NAMES[i].code == code) {
            *name = ERROR_NAMES[i].cuda;
            return OK;
        }
    *name = NULL;
    return E_INVALID_VALUE;
}

int cuModuleLoadData(void **module, const void *image) { return do_module_load("cuModuleLoadData", module, image); }

int cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    for (unsigned i = 0; i < n; i++)
        if (options[i] == 7 /* CU_JIT_OPTIMIZATION_LEVEL */) {
            pthread_mutex_lock(&lock);
            c_jit_opt = (long)(uintptr_t)values[i];
            pthread_mutex_unlock(&lock);
        }
    return do_module_load("cuModuleLoadDataEx", module, image);
}

int cuModuleUnload(void *module) { return do_module_unload("cuModuleUnload", module); }

int cuModuleGetFunction(void **function, void *module, const char *name) {
    return do_get_function("cuModuleGetFunction", function, module, name);
}

int cuFuncSetAttribute(void *function, int attribute, int value) {
    INJECT("cuFuncSetAttribute", E_INVALID_VALUE);
    READY();
    if (!function || ((struct function *)function)->magic != FUNCTION_MAGIC) return E_INVALID_HANDLE;
    if (attribute == 8 /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */) {
        pthread_mutex_lock(&lock);
        c_func_smem = value;
        pthread_mutex_unlock(&lock);
    }
    return OK;
}

int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned smem, void *stream, void **params, void **extra) {
    return do_launch("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}

int cuStreamCreate(void **stream, unsigned flags) {
    (void)flags;
    return do_stream_create("cuStreamCreate", stream);
}
int cuStreamSynchronize(void *stream) { return do_stream_sync("cuStreamSynchronize", stream); }
int cuStreamDestroy_v2(void *stream) { return do_stream_destroy("cuStreamDestroy_v2", stream); }
int cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
    return do_stream_wait_event("cuStreamWaitEvent", stream, event, flags);
}
int cuEventCreate(void **event, unsigned flags) {
    (void)flags;
    return do_event_create("cuEventCreate", event);
}
int cuEventDestroy_v2(void *event) { return do_event_destroy("cuEventDestroy_v2", event); }
int cuEventSynchronize(void *event) { return do_event_sync("cuEventSynchronize", event); }
int cuEventRecord(void *event, void *stream) { return do_event_record("cuEventRecord", event, stream); }

int cuMemAlloc_v2(CUdeviceptr *p, size_t size) {
    return do_alloc("cuMemAlloc_v2", (void **)p, size, 0);
}
int cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned flags) {
    if (flags != 1 && flags != 2) return E_INVALID_VALUE;
    return do_alloc("cuMemAllocManaged", (void **)p, size, 1);
}
int cuMemFree_v2(CUdeviceptr p) { return do_free("cuMemFree_v2", (void *)(uintptr_t)p); }
int cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, void *stream) {
    if (!valid_stream(stream)) return E_INVALID_HANDLE;
    return do_memcpy("cuMemcpyAsync", (void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, stream);
}
int cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count, void *stream) {
    if (!valid_stream(stream)) return E_INVALID_HANDLE;
    return do_memset32("cuMemsetD32Async", (void *)(uintptr_t)dst, value, count);
}
int cuPointerGetAttribute(void *data, int attribute, CUdeviceptr p) {
    READY();
    if (attribute != 2) return E_INVALID_VALUE; /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
    if (!do_is_device("cuPointerGetAttribute", (void *)(uintptr_t)p)) return E_INVALID_VALUE;
    *(unsigned *)data = 2; /* CU_MEMORYTYPE_DEVICE */
    return OK;
}
int cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, void *stream) {
    if (!valid_stream(stream)) return E_INVALID_HANDLE;
    return do_memset16("cuMemsetD16Async", (void *)(uintptr_t)dst, value, count);
}

/* ---- HIP ------------------------------------------------------------- */

int hipInit(unsigned flags) { return do_init("hipInit", flags); }
int hipGetDeviceCount(int *count) { return do_device_count("hipGetDeviceCount", count); }

int hipSetDevice(int device) {
    INJECT("hipSetDevice", E_INVALID_DEVICE);
    if (!initialised) return E_NOT_INITIALIZED;
    if (device < 0 || device >= device_count()) return E_INVALID_DEVICE;
    current_context = &context_token;
    pthread_mutex_lock(&lock);
    c_set_device++;
    pthread_mutex_unlock(&lock);
    return OK;
}

const char *hipGetErrorName(int code) {
    for (size_t i = 0; i < sizeof ERROR_NAMES / sizeof ERROR_NAMES[0]; i++)
        if (ERROR_NAMES[i].code == code) return ERROR_NAMES[i].hip;
    return "hipErrorUnknown";
}

int hipModuleLoadData(void **module, const void *image) {
    return do_module_load("hipModuleLoadData", module, image);
}
int hipModuleUnload(void *module) { return do_module_unload("hipModuleUnload", module); }
int hipModuleGetFunction(void **function, void *module, const char *name) {
    return do_get_function("hipModuleGetFunction", function, module, name);
}
int hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned smem, void *stream, void **params, void **extra) {
    return do_launch("hipModuleLaunchKernel", f, gx, gy, gz, bx, by, bz, smem, stream, params, extra);
}
int hipStreamCreate(void **stream) { return do_stream_create("hipStreamCreate", stream); }
int hipStreamSynchronize(void *stream) { return do_stream_sync("hipStreamSynchronize", stream); }
int hipStreamDestroy(void *stream) { return do_stream_destroy("hipStreamDestroy", stream); }
int hipStreamWaitEvent(void *stream, void *event, unsigned flags) {
    return do_stream_wait_event("hipStreamWaitEvent", stream, event, flags);
}
int hipEventCreateWithFlags(void **event, unsigned flags) {
    (void)flags;
    return do_event_create("hipEventCreateWithFlags", event);
}
int hipEventDestroy(void *event) { return do_event_destroy("hipEventDestroy", event); }
int hipEventSynchronize(void *event) { return do_event_sync("hipEventSynchronize", event); }
int hipEventRecord(void *event, void *stream) { return do_event_record("hipEventRecord", event, stream); }
int hipMalloc(void **p, size_t size) { return do_alloc("hipMalloc", p, size, 0); }
int hipMallocManaged(void **p, size_t size, unsigned flags) {
    if (flags != 1 && flags != 2) return E_INVALID_VALUE;
    return do_alloc("hipMallocManaged", p, size, 1);
}
int hipFree(void *p) { return do_free("hipFree", p); }
int hipMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, void *stream) {
    if (kind != 4 /* hipMemcpyDefault */ || !valid_stream(stream)) return E_INVALID_VALUE;
    return do_memcpy("hipMemcpyAsync", dst, src, bytes, stream);
}
int hipMemsetD32Async(void *dst, int value, size_t count, void *stream) {
    if (!valid_stream(stream)) return E_INVALID_HANDLE;
    return do_memset32("hipMemsetD32Async", dst, (uint32_t)value, count);
}
int hipPointerGetAttribute(void *data, int attribute, void *p) {
    READY();
    if (attribute != 3) return E_INVALID_VALUE; /* HIP_POINTER_ATTRIBUTE_DEVICE_POINTER */
    if (!do_is_device("hipPointerGetAttribute", p)) return E_INVALID_VALUE;
    *(void **)data = p;
    return OK;
}
int hipMemsetD16Async(void *dst, unsigned short value, size_t count, void *stream) {
    if (!valid_stream(stream)) return E_INVALID_HANDLE;
    return do_memset16("hipMemsetD16Async", dst, value, count);
}
