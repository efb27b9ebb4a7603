/*
 * Calls the gpu ufuncs of tests/gpu/NAME.pir compiled to shared libraries and
 * compares every result with the ufunc's host body, bit for bit.
 *
 *   harness SCENARIO LIBRARY [FAKE_DRIVER]
 *
 * With FAKE_DRIVER (the fake driver library that POSTC_GPU_DRIVER_PATH also
 * names), each kernel launch runs a host emulation registered with
 * fake_register_kernel: it reads the launch's parameters (device pointers,
 * element strides, the length) and calls the ufunc's host body, found in the
 * library by its symbol. Without it the real driver runs the kernels.
 * Prints "HARNESS OK" at the end of a scenario that passed.
 *
 * Scenarios: saxpy, intmix, fallback, gufunc, math (LIBRARY built from the file
 * of that name), device (saxpy.pir, operands already in device memory),
 * kernels OFF_LIBRARY (kernels.pir; OFF_LIBRARY is its --gpu off build),
 * coop OFF_LIBRARY (coop.pir and its --gpu off build), threads (saxpy.pir
 * from two host threads at once),
 * bench N (saxpy.pir: host and GPU times for N elements), bench-matmul N B
 * (gufunc.pir: host and GPU times of B products of N x N matrices).
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*loop_fn)(char **, const intptr_t *, const intptr_t *, void *);
typedef void (*kernel_fn)(const unsigned[3], const unsigned[3], unsigned, void **);

static void *lib;
static long (*counter)(const char *);
static unsigned (*last_launch)(int);
static void *(*thread_stream)(const char *);
static void *(*allocation_base)(const void *);
static int failures;

static void *sym_in(void *from, const char *name) {
    void *p = dlsym(from, name);
    if (!p) {
        fprintf(stderr, "harness: no symbol %s\n", name);
        exit(2);
    }
    return p;
}
static void *sym(const char *name) { return sym_in(lib, name); }

#define CHECK(cond, ...)                                                                                  \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            fprintf(stderr, "harness: check failed: " __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                                                       \
            failures++;                                                                                  \
        }                                                                                                \
    } while (0)

/* Host bodies of the kernels, for the expected values. */
static float (*saxpy_host)(float, float, float);
static double (*daxpy_host)(double, double, double);
static int32_t (*mix_host)(int32_t, int32_t);
static _Bool (*below_host)(int64_t, int64_t);
static double (*hypot2_host)(double, double);

/* A ufunc kernel's parameters are a base pointer per operand, every step
 * of NAME_loop, then every dimension, the loop length first. The
 * emulation runs every index as the grid-stride loop would, over all the
 * threads of the launch, each through the host's NAME_loop.host with a
 * loop length of one: what the device's copy of NAME_loop does. */
#define MAXP 32
/* The scratch buffer of the latest launch (its last two parameters), and
 * whether every buffer seen so far lay inside one device allocation, with
 * room for a part per thread that runs loop indices. */
static char *last_scratch;
static int64_t last_slot;
static int scratch_in_one_allocation = 1;

static void emulate(const char *symbol, int nops, int nsteps, int ndims, const unsigned g[3], const unsigned b[3],
                    void **params) {
    char loop_name[128];
    snprintf(loop_name, sizeof loop_name, "%s_loop.host", symbol);
    loop_fn host = (loop_fn)sym(loop_name);
    char *base[MAXP];
    intptr_t steps[MAXP], dims[MAXP];
    for (int j = 0; j < nops; j++) base[j] = *(char **)params[j];
    for (int k = 0; k < nsteps; k++) steps[k] = *(int64_t *)params[nops + k];
    for (int k = 0; k < ndims; k++) dims[k] = *(int64_t *)params[nops + nsteps + k];
    int64_t n = dims[0], threads = (int64_t)g[0] * b[0];
    last_scratch = *(char **)params[nops + nsteps + ndims];
    last_slot = *(int64_t *)params[nops + nsteps + ndims + 1];
    if (last_scratch && allocation_base) {
        int64_t parts = threads < n ? threads : n;
        void *at = allocation_base(last_scratch);
        if (!at || allocation_base(last_scratch + parts * last_slot - 1) != at) scratch_in_one_allocation = 0;
    }
    dims[0] = 1;
    for (int64_t t = 0; t < threads; t++)
        for (int64_t i = t; i < n; i += threads) {
            char *args[MAXP];
            for (int j = 0; j < nops; j++) args[j] = base[j] + i * steps[j];
            host(args, dims, steps, NULL);
        }
}

#define EMULATION(name, nops, nsteps, ndims)                                                         \
    static void k_##name(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) { \
        (void)smem;                                                                                \
        emulate(#name, nops, nsteps, ndims, g, b, params);                                         \
    }
EMULATION(saxpy, 4, 4, 1)
EMULATION(daxpy, 4, 4, 1)
EMULATION(mix, 3, 3, 1)
EMULATION(below, 3, 3, 1)
EMULATION(hypot2, 3, 3, 1)
EMULATION(matmul, 3, 9, 4)
EMULATION(rowsum, 2, 3, 2)
EMULATION(wave, 3, 3, 1)
EMULATION(soft, 2, 2, 1)
EMULATION(cross, 3, 6, 2)

static void register_kernel(void *fake, const char *name, kernel_fn fn) {
    void (*reg)(const char *, kernel_fn) = (void (*)(const char *, kernel_fn))dlsym(fake, "fake_register_kernel");
    if (!reg) {
        fprintf(stderr, "harness: the fake driver has no fake_register_kernel\n");
        exit(2);
    }
    reg(name, fn);
}

static long launches(void) { return counter ? counter("launches") : -1; }

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* saxpy over strided operands: x every other element, y reversed. */
static void scenario_saxpy(void) {
    enum { N = 1000 };
    static float a[1], x[2 * N], y[N], out[N], want[N];
    a[0] = 2.5f;
    for (int i = 0; i < 2 * N; i++) x[i] = (float)i * 0.37f - 11.0f;
    for (int i = 0; i < N; i++) y[i] = 1.0f / (float)(i + 1);
    for (int i = 0; i < N; i++) want[i] = saxpy_host(a[0], x[2 * i], y[N - 1 - i]);
    char *args[4] = {(char *)a, (char *)x, (char *)&y[N - 1], (char *)out};
    intptr_t dims[1] = {N};
    intptr_t steps[4] = {0, 2 * sizeof(float), -(intptr_t)sizeof(float), sizeof(float)};
    long before = launches(), copies = counter ? counter("copies") : 0;
    ((loop_fn)sym("saxpy_loop"))(args, dims, steps, NULL);
    CHECK(counter == NULL || launches() == before + 1, "saxpy_loop launched %ld kernels", launches() - before);
    CHECK(memcmp(out, want, sizeof out) == 0, "saxpy_loop differs from the host body");
    /* Three inputs copied in and the output back: the returned output is
     * dense, written whole by the kernel, so not copied in. */
    if (counter) CHECK(counter("copies") == copies + 4, "saxpy_loop made %ld copies", counter("copies") - copies);
    if (last_launch) CHECK(last_launch(3) == 256 && last_launch(0) == (N + 255) / 256, "saxpy launch grid %u block %u", last_launch(0), last_launch(3));

    /* daxpy with an output with gaps: every third element; the others keep their values. */
    static double da[N], dx[N], dy[N], dout[3 * N], dwant[3 * N];
    for (int i = 0; i < N; i++) {
        da[i] = 0.5 + i;
        dx[i] = sin(i);
        dy[i] = cos(i);
    }
    for (int i = 0; i < 3 * N; i++) dout[i] = dwant[i] = -1.0 - i;
    for (int i = 0; i < N; i++) dwant[3 * i] = daxpy_host(da[i], dx[i], dy[i]);
    char *dargs[4] = {(char *)da, (char *)dx, (char *)dy, (char *)dout};
    intptr_t dsteps[4] = {8, 8, 8, 24};
    copies = counter ? counter("copies") : 0;
    ((loop_fn)sym("daxpy_loop"))(dargs, dims, dsteps, NULL);
    CHECK(memcmp(dout, dwant, sizeof dout) == 0, "daxpy_loop differs from the host body");
    /* The output's span has gaps: copied in as well, so the gaps keep their values. */
    if (counter) CHECK(counter("copies") == copies + 5, "daxpy_loop made %ld copies", counter("copies") - copies);

    /* x at a step of 6 bytes, not a multiple of a Float32's size: a device
     * cannot load such elements, so the host loop runs, with no launch. */
    static unsigned char packed[6 * N];
    static float mout[N], mwant[N];
    for (int i = 0; i < N; i++) {
        float v = (float)i * -0.75f + 3.0f;
        memcpy(packed + 6 * i, &v, sizeof v);
        mwant[i] = saxpy_host(a[0], v, y[N - 1 - i]);
    }
    char *margs[4] = {(char *)a, (char *)packed, (char *)&y[N - 1], (char *)mout};
    intptr_t msteps[4] = {0, 6, -(intptr_t)sizeof(float), sizeof(float)};
    before = launches();
    copies = counter ? counter("copies") : 0;
    ((loop_fn)sym("saxpy_loop"))(margs, dims, msteps, NULL);
    CHECK(counter == NULL || launches() == before, "saxpy_loop with a 6-byte step launched a kernel");
    if (counter) CHECK(counter("copies") == copies, "saxpy_loop with a 6-byte step made %ld copies", counter("copies") - copies);
    CHECK(memcmp(mout, mwant, sizeof mout) == 0, "saxpy_loop with a 6-byte step differs from the host body");

    /* No iterations: no launch. */
    intptr_t zero[1] = {0};
    before = launches();
    ((loop_fn)sym("daxpy_loop"))(dargs, zero, dsteps, NULL);
    CHECK(counter == NULL || launches() == before, "an empty loop launched a kernel");
    if (counter) CHECK(counter("live") <= 1, "%ld device allocations are live after the calls (the arena chunk only)", counter("live"));
}

static void scenario_intmix(void) {
    enum { N = 777 };
    static int32_t x[N], y[N], out[N], want[N];
    static int64_t p[N], q[N];
    static uint8_t b[N], bwant[N];
    for (int i = 0; i < N; i++) {
        x[i] = i * 13 - 5000;
        y[i] = i - 300;
        p[i] = (int64_t)i * i - 5000;
        q[i] = 100000 - (int64_t)i * 97;
    }
    for (int i = 0; i < N; i++) {
        want[i] = mix_host(x[i], y[i]);
        bwant[i] = below_host(p[i], q[i]);
    }
    char *args[3] = {(char *)x, (char *)y, (char *)out};
    intptr_t dims[1] = {N};
    intptr_t steps[3] = {4, 4, 4};
    ((loop_fn)sym("mix_loop"))(args, dims, steps, NULL);
    CHECK(memcmp(out, want, sizeof out) == 0, "mix_loop differs from the host body");
    char *bargs[3] = {(char *)p, (char *)q, (char *)b};
    intptr_t bsteps[3] = {8, 8, 1};
    ((loop_fn)sym("below_loop"))(bargs, dims, bsteps, NULL);
    CHECK(memcmp(b, bwant, sizeof b) == 0, "below_loop differs from the host body");
}

static void scenario_fallback(int expect_gpu) {
    enum { N = 300 };
    static double x[N], y[N], out[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = i * 0.25;
        y[i] = 3.0 - i;
        want[i] = hypot2_host(x[i], y[i]);
    }
    char *args[3] = {(char *)x, (char *)y, (char *)out};
    intptr_t dims[1] = {N};
    intptr_t steps[3] = {8, 8, 8};
    long before = launches();
    ((loop_fn)sym("hypot2_loop"))(args, dims, steps, NULL);
    if (counter) CHECK(launches() == before + (expect_gpu ? 1 : 0), "hypot2_loop launched %ld kernels", launches() - before);
    CHECK(memcmp(out, want, sizeof out) == 0, "hypot2_loop differs from the host body");
    int (*usable)(void) = (int (*)(void))sym("__postc_gpu_usable");
    CHECK(usable() == expect_gpu, "__postc_gpu_usable() is %d", usable());
}

/* matmul over a batch, with b stored transposed (its core axes strided),
 * and rowsum over the rows of a Fortran-order matrix. Compared with plain C
 * loops that accumulate in the same order, and with the host loops. */
static void scenario_gufunc(void) {
    enum { B = 3, M = 5, K = 7, N = 6 };
    static double a[B][M][K], bt[B][N][K], c[B][M][N], want[B][M][N], host_c[B][M][N];
    for (int q = 0; q < B; q++)
        for (int i = 0; i < M; i++)
            for (int p = 0; p < K; p++) a[q][i][p] = (q + 1) * 0.5 + i * 0.25 - p * 0.125;
    for (int q = 0; q < B; q++)
        for (int j = 0; j < N; j++)
            for (int p = 0; p < K; p++) bt[q][j][p] = 1.0 / (1 + q + j + p);
    for (int q = 0; q < B; q++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double acc = 0.0;
                for (int p = 0; p < K; p++) acc = acc + a[q][i][p] * bt[q][j][p];
                want[q][i][j] = acc;
            }
    char *args[3] = {(char *)a, (char *)bt, (char *)c};
    intptr_t dims[4] = {B, M, K, N};
    intptr_t steps[9] = {sizeof a[0], sizeof bt[0], sizeof c[0], K * 8, 8, 8, K * 8, N * 8, 8};
    long before = launches(), copies = counter ? counter("copies") : 0;
    ((loop_fn)sym("matmul_loop"))(args, dims, steps, NULL);
    CHECK(counter == NULL || launches() == before + 1, "matmul_loop launched %ld kernels", launches() - before);
    /* c is passed to the body as a view, not returned: copied in and back. */
    if (counter) CHECK(counter("copies") == copies + 4, "matmul_loop made %ld copies", counter("copies") - copies);
    CHECK(memcmp(c, want, sizeof c) == 0, "matmul_loop differs from the C loops");
    char *hargs[3] = {(char *)a, (char *)bt, (char *)host_c};
    ((loop_fn)sym("matmul_loop.host"))(hargs, dims, steps, NULL);
    CHECK(memcmp(c, host_c, sizeof c) == 0, "matmul_loop differs from matmul_loop.host");

    enum { R = 37, C = 29 };
    static float f[C][R], sums[R], fwant[R];
    for (int j = 0; j < C; j++)
        for (int i = 0; i < R; i++) f[j][i] = (float)(i * 3 - j) / 7.0f;
    for (int i = 0; i < R; i++) {
        float acc = 0.0f;
        for (int j = 0; j < C; j++) acc = acc + f[j][i];
        fwant[i] = acc;
    }
    char *rargs[2] = {(char *)f, (char *)sums};
    intptr_t rdims[2] = {R, C};
    intptr_t rsteps[3] = {4, 4, R * 4};
    ((loop_fn)sym("rowsum_loop"))(rargs, rdims, rsteps, NULL);
    CHECK(memcmp(sums, fwant, sizeof sums) == 0, "rowsum_loop differs from the C loop");
    if (counter) CHECK(last_scratch == NULL && last_slot == 0, "rowsum (no copies) got a scratch buffer");

    /* cross over V vectors: contiguous ones, then columns of 3 x V matrices
     * (core step V * 8, not the 8 the parameter types fix: scratch copies,
     * the output's copied back). */
    enum { V = 700 };
    static double u[V][3], w[V][3], x3[V][3], xwant[V][3], ut[3][V], wt[3][V], xt[3][V];
    for (int i = 0; i < V; i++)
        for (int k = 0; k < 3; k++) {
            u[i][k] = ut[k][i] = (double)((i * 3 + k) % 17) - 8.0;
            w[i][k] = wt[k][i] = (double)((i + 5 * k) % 11) * 0.5;
        }
    char *xhost[3] = {(char *)u, (char *)w, (char *)xwant};
    intptr_t xdims[2] = {V, 3};
    intptr_t xsteps[6] = {24, 24, 24, 8, 8, 8};
    ((loop_fn)sym("cross_loop.host"))(xhost, xdims, xsteps, NULL);
    char *xargs[3] = {(char *)u, (char *)w, (char *)x3};
    ((loop_fn)sym("cross_loop"))(xargs, xdims, xsteps, NULL);
    CHECK(memcmp(x3, xwant, sizeof x3) == 0, "cross_loop differs from cross_loop.host");
    if (counter) CHECK(last_scratch == NULL && last_slot == 0, "contiguous cross operands got a scratch buffer");
    char *targs[3] = {(char *)ut, (char *)wt, (char *)xt};
    intptr_t tsteps[6] = {8, 8, 8, V * 8, V * 8, V * 8};
    long live = counter ? counter("live") : 0;
    ((loop_fn)sym("cross_loop"))(targs, xdims, tsteps, NULL);
    for (int i = 0; i < V; i++)
        for (int k = 0; k < 3; k++) CHECK(xt[k][i] == xwant[i][k], "cross of columns %d differs at %d", i, k);
    if (counter) {
        /* Three operands of 3 Float64s, each part rounded to 32 bytes. */
        CHECK(last_scratch != NULL && last_slot == 96, "strided cross operands got scratch %p, %lld bytes per thread",
              (void *)last_scratch, (long long)last_slot);
        CHECK(scratch_in_one_allocation, "a scratch buffer does not fit its device allocation");
        CHECK(counter("live") == live, "the scratch buffer was not released");
    }
}

/* Device memory through the driver's own entry points (the fake driver's
 * or libcuda's): allocations, copies in either direction. */
static struct {
    int (*alloc)(uint64_t *, size_t);
    int (*copy)(uint64_t, uint64_t, size_t, void *);
    int (*sync)(void *);
    int (*free)(uint64_t);
} dev;

static void device_api(void *drv) {
    dev.alloc = (int (*)(uint64_t *, size_t))dlsym(drv, "cuMemAlloc_v2");
    dev.copy = (int (*)(uint64_t, uint64_t, size_t, void *))dlsym(drv, "cuMemcpyAsync");
    dev.sync = (int (*)(void *))dlsym(drv, "cuStreamSynchronize");
    dev.free = (int (*)(uint64_t))dlsym(drv, "cuMemFree_v2");
    if (!dev.alloc || !dev.copy || !dev.sync || !dev.free) {
        fprintf(stderr, "harness: the driver lacks the memory entry points\n");
        exit(2);
    }
}

/* A device buffer of `bytes`, holding a copy of `src` when it is not NULL. */
static uint64_t to_device(const void *src, size_t bytes) {
    uint64_t d = 0;
    CHECK(dev.alloc(&d, bytes) == 0, "cuMemAlloc_v2 failed");
    if (src) {
        dev.copy(d, (uint64_t)(uintptr_t)src, bytes, NULL);
        dev.sync(NULL);
    }
    return d;
}

static void from_device(void *dst, uint64_t src, size_t bytes) {
    dev.copy((uint64_t)(uintptr_t)dst, src, bytes, NULL);
    dev.sync(NULL);
}

/* ---- two host threads at once ----------------------------------------- */

static int inside, met;
static __thread void *t_staged_chunk;

/* saxpy's emulation, entered by two launches at once when neither waits for
 * the other (at most ten seconds apart). */
static void k_saxpy_meet(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
    t_staged_chunk = allocation_base ? allocation_base(*(char **)params[1]) : NULL;
    double until = now() + 10.0;
    while (__atomic_load_n(&inside, __ATOMIC_SEQ_CST) < 2 && now() < until) sched_yield();
    if (__atomic_load_n(&inside, __ATOMIC_SEQ_CST) >= 2) __atomic_store_n(&met, 1, __ATOMIC_SEQ_CST);
    emulate("saxpy", 4, 4, 1, g, b, params);
}

struct job {
    float a[1], x[4096], y[4096], out[4096], want[4096];
    void *stream, *copy_stream, *chunk;
    int ok;
};

static void *saxpy_job(void *arg) {
    struct job *j = arg;
    for (int i = 0; i < 4096; i++) {
        j->x[i] = (float)i * j->a[0];
        j->y[i] = 1.0f - (float)i;
        j->want[i] = saxpy_host(j->a[0], j->x[i], j->y[i]);
    }
    char *args[4] = {(char *)j->a, (char *)j->x, (char *)j->y, (char *)j->out};
    intptr_t dims[1] = {4096};
    intptr_t steps[4] = {0, 4, 4, 4};
    ((loop_fn)sym("saxpy_loop"))(args, dims, steps, NULL);
    j->ok = memcmp(j->out, j->want, sizeof j->out) == 0;
    if (thread_stream) {
        j->stream = thread_stream("launch");
        j->copy_stream = thread_stream("copy");
    }
    j->chunk = t_staged_chunk;
    return NULL;
}

/* Two host threads call a gpu ufunc at once: each launches on its own
 * stream and stages into its own arena, and neither waits for the other;
 * their streams go when they end. */
static void scenario_threads(void) {
    static struct job jobs[2];
    pthread_t t[2];
    long streams = counter ? counter("streams") : 0, live = counter ? counter("live") : 0;
    for (int k = 0; k < 2; k++) {
        jobs[k].a[0] = 0.5f + (float)k;
        pthread_create(&t[k], NULL, saxpy_job, &jobs[k]);
    }
    for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
    for (int k = 0; k < 2; k++) CHECK(jobs[k].ok, "thread %d: saxpy_loop differs from the host body", k);
    if (!counter) return;
    CHECK(met, "the two threads' launches never ran at the same time");
    for (int k = 0; k < 2; k++) {
        CHECK(jobs[k].stream != NULL && jobs[k].stream == jobs[k].copy_stream,
              "thread %d launched on %p and copied on %p", k, jobs[k].stream, jobs[k].copy_stream);
        CHECK(jobs[k].chunk != NULL, "thread %d staged outside the arena", k);
    }
    CHECK(jobs[0].stream != jobs[1].stream, "both threads launched on the stream %p", jobs[0].stream);
    CHECK(jobs[0].chunk != jobs[1].chunk, "both threads staged into one arena chunk");
    CHECK(counter("streams") == streams, "%ld streams are left after the threads ended", counter("streams") - streams);
    CHECK(counter("live") == live, "%ld device allocations are left after the threads ended", counter("live") - live);
}

/* Operands already in device memory are used in place: no copies. */
static void scenario_device(void) {
    enum { N = 513 };
    static float a[1] = {-1.5f}, x[N], y[N], out[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = i * 0.5f;
        y[i] = 100.0f - i;
        want[i] = saxpy_host(a[0], x[i], y[i]);
    }
    uint64_t dx = to_device(x, sizeof x), dy = to_device(y, sizeof y), dout = to_device(NULL, sizeof out);
    /* a stays in host memory: staged; x, y and out are used in place. */
    char *args[4] = {(char *)a, (char *)(uintptr_t)dx, (char *)(uintptr_t)dy, (char *)(uintptr_t)dout};
    intptr_t dims[1] = {N};
    intptr_t steps[4] = {0, 4, 4, 4};
    long copies = counter ? counter("copies") : 0;
    ((loop_fn)sym("saxpy_loop"))(args, dims, steps, NULL);
    if (counter) CHECK(counter("copies") == copies + 1, "%ld copies for one host operand", counter("copies") - copies);
    from_device(out, dout, sizeof out);
    CHECK(memcmp(out, want, sizeof out) == 0, "saxpy_loop on device operands differs from the host body");
    dev.free(dx);
    dev.free(dy);
    dev.free(dout);
}

/* libdevice's math against the host's libm: within a few units in the
 * last place (a real GPU's libdevice and glibc may round differently). */
static int close_to(double got, double want, double rel) {
    return got == want || fabs(got - want) <= rel * fmax(fabs(want), 1e-300);
}

static void scenario_math(void) {
    enum { N = 500 };
    static double x[N], y[N], out[N], want[N];
    static float fx[N], fout[N], fwant[N];
    for (int i = 0; i < N; i++) {
        x[i] = (i - 250) * 0.013;
        y[i] = (i % 37) * 0.05 - 0.9;
        fx[i] = (float)(i % 100) * 0.01f;
    }
    char *args[3] = {(char *)x, (char *)y, (char *)want};
    intptr_t dims[1] = {N};
    intptr_t steps[3] = {8, 8, 8};
    ((loop_fn)sym("wave_loop.host"))(args, dims, steps, NULL);
    args[2] = (char *)out;
    long before = launches();
    ((loop_fn)sym("wave_loop"))(args, dims, steps, NULL);
    CHECK(counter == NULL || launches() == before + 1, "wave_loop launched %ld kernels", launches() - before);
    for (int i = 0; i < N; i++) CHECK(close_to(out[i], want[i], 1e-13), "wave(%g, %g) = %.17g, host %.17g", x[i], y[i], out[i], want[i]);
    char *fargs[2] = {(char *)fx, (char *)fwant};
    intptr_t fsteps[2] = {4, 4};
    ((loop_fn)sym("soft_loop.host"))(fargs, dims, fsteps, NULL);
    fargs[1] = (char *)fout;
    ((loop_fn)sym("soft_loop"))(fargs, dims, fsteps, NULL);
    for (int i = 0; i < N; i++) CHECK(close_to(fout[i], fwant[i], 1e-5), "soft(%g) = %.9g, host %.9g", fx[i], fout[i], fwant[i]);
}

/* ---- kernel functions ------------------------------------------------ */

typedef struct {
    void *data;
    int32_t device_type, device_id, ndim;
    uint8_t code, bits;
    uint16_t lanes;
    int64_t *shape, *strides;
    uint64_t byte_offset;
} DLTensor;
typedef struct {
    uint32_t grid[3], block[3];
} postc_launch;

static DLTensor tensor(void *data, int ndim, int64_t *shape, int64_t *strides, uint8_t code, uint8_t bits) {
    DLTensor t = {data, 1, 0, ndim, code, bits, 1, shape, strides, 0};
    return t;
}

/* The host builds (`--gpu off`): their kernel functions emulate a launch. */
static void *off;
typedef void (*scale_fn)(const postc_launch *, DLTensor *, DLTensor *, double);
typedef void (*transpose_fn)(const postc_launch *, DLTensor *, DLTensor *, _Bool);
typedef float (*sumsq_fn)(DLTensor *);

static postc_launch config(const unsigned g[3], const unsigned b[3]) {
    postc_launch c = {{g[0], g[1], g[2]}, {b[0], b[1], b[2]}};
    return c;
}
static void k_scale(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    (void)smem;
    postc_launch c = config(g, b);
    ((scale_fn)dlsym(off, "scale"))(&c, *(DLTensor **)params[0], *(DLTensor **)params[1], *(double *)params[2]);
}
static void k_transpose(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    (void)smem;
    postc_launch c = config(g, b);
    ((transpose_fn)dlsym(off, "transpose"))(&c, *(DLTensor **)params[0], *(DLTensor **)params[1],
                                           *(uint8_t *)params[2] != 0);
}
static void k_sumsq(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    (void)g, (void)b, (void)smem;
    **(float **)params[1] = ((sumsq_fn)dlsym(off, "sumsq"))(*(DLTensor **)params[0]);
}

/* Runs the kernels of `from` (the GPU build, or the host build) on host
 * tensors and compares with plain C. */
static void kernels_on(void *from, const char *what) {
    enum { N = 1000, R = 7, C = 9, S = 300 };
    static double x[2 * N], out[N], want[N];
    for (int i = 0; i < 2 * N; i++) x[i] = i * 0.75 - 100.0;
    for (int i = 0; i < N; i++) {
        out[i] = -1.0;
        want[i] = 2.5 * x[2 * i + 1] + (double)i;
    }
    /* x every other element from the second: strides 2 and a byte offset. */
    int64_t xshape[1] = {N}, xstrides[1] = {2}, oshape[1] = {N};
    DLTensor tx = tensor(x, 1, xshape, xstrides, 2, 64), tout = tensor(out, 1, oshape, NULL, 2, 64);
    tx.byte_offset = sizeof(double);
    postc_launch c = {{(N + 127) / 128, 1, 1}, {128, 1, 1}};
    ((scale_fn)sym_in(from, "scale"))(&c, &tx, &tout, 2.5);
    CHECK(memcmp(out, want, sizeof out) == 0, "%s: scale differs from C", what);

    static int32_t a[R][C], t[C][R], twant[C][R];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            a[i][j] = i * 100 + j;
            twant[j][i] = -a[i][j];
        }
    memset(t, 0, sizeof t);
    int64_t ashape[2] = {R, C}, tshape[2] = {C, R};
    DLTensor ta = tensor(a, 2, ashape, NULL, 0, 32), tt = tensor(t, 2, tshape, NULL, 0, 32);
    postc_launch c2 = {{(C + 3) / 4, (R + 2) / 3, 1}, {4, 3, 1}};
    ((transpose_fn)sym_in(from, "transpose"))(&c2, &ta, &tt, 1);
    CHECK(memcmp(t, twant, sizeof t) == 0, "%s: transpose differs from C", what);

    static float v[S];
    float swant = 0.0f;
    for (int i = 0; i < S; i++) {
        v[i] = (float)(i % 17) * 0.5f - 3.0f;
        swant = swant + v[i] * v[i];
    }
    int64_t vshape[1] = {S};
    DLTensor tv = tensor(v, 1, vshape, NULL, 2, 32);
    float got = ((sumsq_fn)sym_in(from, "sumsq"))(&tv);
    CHECK(got == swant, "%s: sumsq is %.9g, C gives %.9g", what, got, swant);
}

/* ---- cooperating kernels (coop.pir) ------------------------------------ */

typedef void (*matmul_tiled_fn)(const postc_launch *, DLTensor *, DLTensor *, DLTensor *);
typedef void (*block_sum_fn)(const postc_launch *, DLTensor *, DLTensor *);
typedef void (*histogram_fn)(const postc_launch *, DLTensor *, DLTensor *, DLTensor *);

static void k_matmul_tiled(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    (void)smem;
    postc_launch c = config(g, b);
    ((matmul_tiled_fn)dlsym(off, "matmul_tiled"))(&c, *(DLTensor **)params[0], *(DLTensor **)params[1],
                                                 *(DLTensor **)params[2]);
}
static void k_block_sum(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    (void)smem;
    postc_launch c = config(g, b);
    ((block_sum_fn)dlsym(off, "block_sum"))(&c, *(DLTensor **)params[0], *(DLTensor **)params[1]);
}
static void k_histogram(const unsigned g[3], const unsigned b[3], unsigned smem, void **params) {
    (void)smem;
    postc_launch c = config(g, b);
    ((histogram_fn)dlsym(off, "histogram"))(&c, *(DLTensor **)params[0], *(DLTensor **)params[1],
                                           *(DLTensor **)params[2]);
}

/* The tiled matmul (b a transposed view), the block sum and the histogram
 * of `from` against plain C: exactly, since each element of the product sums
 * in order and the sums and counts are exact. */
static void coop_on(void *from, const char *what) {
    enum { M = 21, K = 19, N = 13 };
    static double a[M][K], bt[N][K], c[M][N], want[M][N];
    for (int i = 0; i < M; i++)
        for (int p = 0; p < K; p++) a[i][p] = (double)((i * 7 + p * 3) % 23) * 0.37 - 2.0;
    for (int j = 0; j < N; j++)
        for (int p = 0; p < K; p++) bt[j][p] = 1.0 / (1.0 + (j * 5 + p) % 13);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0.0;
            for (int p = 0; p < K; p++) acc = acc + a[i][p] * bt[j][p];
            want[i][j] = acc;
            c[i][j] = -1.0;
        }
    int64_t ashape[2] = {M, K}, bshape[2] = {K, N}, bstrides[2] = {1, K}, cshape[2] = {M, N};
    DLTensor ta = tensor(a, 2, ashape, NULL, 2, 64), tb = tensor(bt, 2, bshape, bstrides, 2, 64),
             tc = tensor(c, 2, cshape, NULL, 2, 64);
    postc_launch mc = {{(N + 7) / 8, (M + 7) / 8, 1}, {8, 8, 1}};
    ((matmul_tiled_fn)sym_in(from, "matmul_tiled"))(&mc, &ta, &tb, &tc);
    CHECK(memcmp(c, want, sizeof c) == 0, "%s: matmul_tiled differs from C", what);

    enum { S = 1000 };
    static double x[S];
    double total[1] = {1.5}, swant = 1.5;
    for (int i = 0; i < S; i++) {
        x[i] = (double)(i % 7) * 0.25 - 0.5;
        swant += x[i];
    }
    int64_t xshape[1] = {S}, tshape[1] = {1};
    DLTensor tx = tensor(x, 1, xshape, NULL, 2, 64), tt = tensor(total, 1, tshape, NULL, 2, 64);
    postc_launch sc = {{(S + 63) / 64, 1, 1}, {64, 1, 1}};
    ((block_sum_fn)sym_in(from, "block_sum"))(&sc, &tx, &tt);
    CHECK(total[0] == swant, "%s: block_sum gives %.17g, C %.17g", what, total[0], swant);

    enum { H = 5000 };
    static int32_t hx[H];
    int64_t bins[16], bwant[16], old[1] = {-1};
    for (int b = 0; b < 16; b++) bins[b] = bwant[b] = 1000 * b;
    for (int i = 0; i < H; i++) {
        hx[i] = (i * 37) % 101 - 50;
        bwant[((hx[i] % 16) + 16) % 16]++;
    }
    int64_t hshape[1] = {H}, bshape16[1] = {16}, oshape[1] = {1};
    DLTensor th = tensor(hx, 1, hshape, NULL, 0, 32), tbins = tensor(bins, 1, bshape16, NULL, 0, 64),
             told = tensor(old, 1, oshape, NULL, 0, 64);
    postc_launch hc = {{4, 1, 1}, {32, 1, 1}};
    ((histogram_fn)sym_in(from, "histogram"))(&hc, &th, &tbins, &told);
    CHECK(memcmp(bins, bwant, sizeof bins) == 0, "%s: histogram differs from C", what);
    CHECK(old[0] == 0, "%s: the first block found bin 0 at %lld, not 0", what, (long long)old[0]);
}

/* Tensors already on the device (kDLCUDA) are used in place: only their
 * descriptors are copied. */
static void kernels_on_device(void) {
    enum { N = 300 };
    static double x[N], out[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 / (i + 1);
        want[i] = -2.0 * x[i] + (double)i;
    }
    uint64_t dx = to_device(x, sizeof x), dout = to_device(NULL, sizeof out);
    int64_t shape[1] = {N};
    DLTensor tx = tensor((void *)(uintptr_t)dx, 1, shape, NULL, 2, 64);
    DLTensor tout = tensor((void *)(uintptr_t)dout, 1, shape, NULL, 2, 64);
    tx.device_type = tout.device_type = 2; /* kDLCUDA */
    postc_launch c = {{3, 1, 1}, {128, 1, 1}};
    long copies = counter ? counter("copies") : 0;
    ((scale_fn)sym("scale"))(&c, &tx, &tout, -2.0);
    if (counter) CHECK(counter("copies") == copies + 2, "%ld copies for two device tensors", counter("copies") - copies);
    from_device(out, dout, sizeof out);
    CHECK(memcmp(out, want, sizeof out) == 0, "scale on device tensors differs from C");
    dev.free(dx);
    dev.free(dout);
}

/* NAME_dl of a gpu ufunc takes tensors in device memory (kDLCUDA) and
 * uses them in place, next to a host scalar tensor. */
static void device_dl(void) {
    enum { N = 260 };
    static float a = 0.25f, x[N], y[N], out[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(N - i);
        want[i] = saxpy_host(a, x[i], y[i]);
    }
    uint64_t dx = to_device(x, sizeof x), dy = to_device(y, sizeof y), dout = to_device(NULL, sizeof out);
    int64_t shape[1] = {N};
    DLTensor ta = tensor(&a, 0, NULL, NULL, 2, 32);
    DLTensor tx = tensor((void *)(uintptr_t)dx, 1, shape, NULL, 2, 32);
    DLTensor ty = tensor((void *)(uintptr_t)dy, 1, shape, NULL, 2, 32);
    DLTensor tout = tensor((void *)(uintptr_t)dout, 1, shape, NULL, 2, 32);
    tx.device_type = ty.device_type = tout.device_type = 2; /* kDLCUDA */
    long copies = counter ? counter("copies") : 0;
    ((void (*)(DLTensor *, DLTensor *, DLTensor *, DLTensor *))sym("saxpy_dl"))(&ta, &tx, &ty, &tout);
    if (counter) CHECK(counter("copies") == copies + 1, "%ld copies for one host operand", counter("copies") - copies);
    from_device(out, dout, sizeof out);
    CHECK(memcmp(out, want, sizeof out) == 0, "saxpy_dl on device tensors differs from the host body");
    dev.free(dx);
    dev.free(dy);
    dev.free(dout);
}

/* Host and GPU times of the matmul gufunc over a batch of n x n matrices. */
static void scenario_bench_matmul(long n, long batch) {
    double *a = malloc(batch * n * n * sizeof(double)), *b = malloc(batch * n * n * sizeof(double)),
           *c1 = malloc(batch * n * n * sizeof(double)), *c2 = malloc(batch * n * n * sizeof(double));
    for (long i = 0; i < batch * n * n; i++) {
        a[i] = (double)(i % 101) * 0.01;
        b[i] = (double)(i % 37) * 0.02 - 0.3;
    }
    char *args[3] = {(char *)a, (char *)b, (char *)c1};
    intptr_t dims[4] = {batch, n, n, n};
    intptr_t row = n * sizeof(double);
    intptr_t steps[9] = {n * row, n * row, n * row, row, 8, row, 8, row, 8};
    loop_fn host = (loop_fn)sym("matmul_loop.host"), gpu = (loop_fn)sym("matmul_loop.gpu");
    gpu(args, dims, steps, NULL); /* warm-up */
    double t0 = now();
    host(args, dims, steps, NULL);
    double t1 = now();
    args[2] = (char *)c2;
    gpu(args, dims, steps, NULL);
    double t2 = now();
    CHECK(memcmp(c1, c2, batch * n * n * sizeof(double)) == 0, "matmul on the GPU differs from the host");
    printf("matmul %ld x (%ld x %ld): host %.3f ms, gpu (staging included) %.3f ms\n", batch, n, n, (t1 - t0) * 1e3,
           (t2 - t1) * 1e3);
}

/* ---- a NULL launch configuration --------------------------------------- */

static jmp_buf panic_jump;
static char panic_message[256];

static void on_panic(const char *msg, size_t len, void *data) {
    (void)data;
    snprintf(panic_message, sizeof panic_message, "%.*s", (int)len, msg);
    longjmp(panic_jump, 1);
}

/* Launches kernel `name` (`scale` of kernels.pir or `block_sum` of
 * coop.pir) with a NULL configuration: a panic that reaches the runtime's
 * panic handler, and without one stops the program. */
static void scenario_nullcfg(const char *name) {
    static double x[4];
    int64_t shape[1] = {4};
    DLTensor a = tensor(x, 1, shape, NULL, 2, 64), b = tensor(x, 1, shape, NULL, 2, 64);
    void (*set_handler)(void (*)(const char *, size_t, void *), void *) =
        (void (*)(void (*)(const char *, size_t, void *), void *))sym("postc_rt_set_panic_handler");
    for (volatile int handled = 1; handled >= 0; handled--) {
        set_handler(handled ? on_panic : NULL, NULL);
        if (setjmp(panic_jump) == 0) {
            if (!strcmp(name, "block_sum"))
                ((block_sum_fn)sym(name))(NULL, &a, &b);
            else
                ((scale_fn)sym(name))(NULL, &a, &b, 1.0);
            CHECK(0, "%s returned from a NULL launch configuration", name);
            return;
        }
        fprintf(stderr, "harness: handled: %s\n", panic_message);
    }
}

static void scenario_bench(long n) {
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float)), *o1 = malloc(n * sizeof(float)),
          *o2 = malloc(n * sizeof(float));
    float a = 1.5f;
    for (long i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.001f;
        y[i] = (float)(i % 77);
    }
    char *args[4] = {(char *)&a, (char *)x, (char *)y, (char *)o1};
    intptr_t dims[1] = {n};
    intptr_t steps[4] = {0, 4, 4, 4};
    loop_fn host = (loop_fn)sym("saxpy_loop.host"), gpu = (loop_fn)sym("saxpy_loop.gpu");
    gpu(args, dims, steps, NULL); /* warm-up: module, context, arena */
    double t0 = now();
    host(args, dims, steps, NULL);
    double t1 = now();
    args[3] = (char *)o2;
    gpu(args, dims, steps, NULL);
    double t2 = now();
    CHECK(memcmp(o1, o2, n * sizeof(float)) == 0, "saxpy on the GPU differs from the host");
    printf("saxpy n=%ld: host %.3f ms, gpu (staging included) %.3f ms\n", n, (t1 - t0) * 1e3, (t2 - t1) * 1e3);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: harness SCENARIO LIBRARY [FAKE_DRIVER|-] [ARG]\n");
        return 2;
    }
    const char *scenario = argv[1];
    void *fake = NULL;
    if (argc > 3 && strcmp(argv[3], "-") != 0) {
        fake = dlopen(argv[3], RTLD_NOW | RTLD_GLOBAL);
        if (!fake) {
            fprintf(stderr, "harness: %s\n", dlerror());
            return 2;
        }
        counter = (long (*)(const char *))dlsym(fake, "fake_counter");
        last_launch = (unsigned (*)(int))dlsym(fake, "fake_last_launch");
        thread_stream = (void *(*)(const char *))dlsym(fake, "fake_thread_stream");
        allocation_base = (void *(*)(const void *))dlsym(fake, "fake_allocation_base");
    }
    /* Loading the library runs its constructor, which loads the PTX. */
    lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "harness: %s\n", dlerror());
        return 2;
    }
    fprintf(stderr, "harness: loaded %s\n", argv[2]);
    if (!strcmp(scenario, "saxpy") || !strcmp(scenario, "bench")) {
        saxpy_host = (float (*)(float, float, float))sym("saxpy");
        daxpy_host = (double (*)(double, double, double))sym("daxpy");
        if (fake) {
            register_kernel(fake, "__postc_kernel_saxpy", k_saxpy);
            register_kernel(fake, "__postc_kernel_daxpy", k_daxpy);
        }
        if (!strcmp(scenario, "bench"))
            scenario_bench(argc > 4 ? atol(argv[4]) : 1L << 24);
        else
            scenario_saxpy();
    } else if (!strcmp(scenario, "threads")) {
        saxpy_host = (float (*)(float, float, float))sym("saxpy");
        if (fake) register_kernel(fake, "__postc_kernel_saxpy", k_saxpy_meet);
        scenario_threads();
    } else if (!strcmp(scenario, "device")) {
        saxpy_host = (float (*)(float, float, float))sym("saxpy");
        if (fake) register_kernel(fake, "__postc_kernel_saxpy", k_saxpy);
        void *drv = fake ? fake : dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        if (!drv) {
            fprintf(stderr, "harness: %s\n", dlerror());
            return 2;
        }
        device_api(drv);
        scenario_device();
        device_dl();
    } else if (!strcmp(scenario, "kernels")) {
        /* argv[4]: the same program built with --gpu off. */
        off = argc > 4 ? dlopen(argv[4], RTLD_NOW | RTLD_LOCAL) : NULL;
        if (!off) {
            fprintf(stderr, "harness: kernels needs the --gpu off build: %s\n", argc > 4 ? dlerror() : "missing");
            return 2;
        }
        if (fake) {
            register_kernel(fake, "__postc_kernel_scale", k_scale);
            register_kernel(fake, "__postc_kernel_transpose", k_transpose);
            register_kernel(fake, "__postc_kernel_sumsq", k_sumsq);
        }
        CHECK(sym_in(lib, "scale_again") == sym_in(lib, "scale"), "the alias scale_again is not the entry point scale");
        CHECK(sym_in(off, "scale_again") == sym_in(off, "scale"), "the alias scale_again is not scale in the host build");
        kernels_on(off, "host build");
        long before = launches();
        kernels_on(lib, "GPU build");
        CHECK(counter == NULL || launches() == before + 3, "the GPU build launched %ld kernels", launches() - before);
        void *drv = fake ? fake : dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
        if (drv) {
            device_api(drv);
            kernels_on_device();
        }
        if (counter) CHECK(counter("live") <= 1, "%ld device allocations are live (the arena chunk only)", counter("live"));
    } else if (!strcmp(scenario, "coop")) {
        /* argv[4]: the same program built with --gpu off. */
        off = argc > 4 ? dlopen(argv[4], RTLD_NOW | RTLD_LOCAL) : NULL;
        if (!off) {
            fprintf(stderr, "harness: coop needs the --gpu off build: %s\n", argc > 4 ? dlerror() : "missing");
            return 2;
        }
        if (fake) {
            register_kernel(fake, "__postc_kernel_matmul_tiled", k_matmul_tiled);
            register_kernel(fake, "__postc_kernel_block_sum", k_block_sum);
            register_kernel(fake, "__postc_kernel_histogram", k_histogram);
        }
        coop_on(off, "host build");
        long before = launches();
        coop_on(lib, "GPU build");
        CHECK(counter == NULL || launches() == before + 3, "the GPU build launched %ld kernels", launches() - before);
        if (counter) CHECK(counter("live") <= 1, "%ld device allocations are live (the arena chunk only)", counter("live"));
    } else if (!strcmp(scenario, "diverge")) {
        /* A kernel `void k(const postc_launch *)` whose thread 2 of block 1
         * skips a barrier: fine with one block of three threads, a panic
         * with two blocks of four. */
        void (*k)(const postc_launch *) = (void (*)(const postc_launch *))sym("k");
        postc_launch one = {{1, 1, 1}, {3, 1, 1}}, two = {{2, 1, 1}, {4, 1, 1}};
        k(&one);
        fprintf(stderr, "harness: one block passed\n");
        k(&two);
    } else if (!strcmp(scenario, "nullcfg")) {
        scenario_nullcfg(argc > 4 ? argv[4] : "scale");
    } else if (!strcmp(scenario, "bench-matmul")) {
        if (fake) register_kernel(fake, "__postc_kernel_matmul", k_matmul);
        long n = argc > 4 ? atol(argv[4]) : 128;
        scenario_bench_matmul(n, argc > 5 ? atol(argv[5]) : 256);
    } else if (!strcmp(scenario, "math")) {
        if (fake) {
            register_kernel(fake, "__postc_kernel_wave", k_wave);
            register_kernel(fake, "__postc_kernel_soft", k_soft);
        }
        scenario_math();
    } else if (!strcmp(scenario, "gufunc")) {
        if (fake) {
            register_kernel(fake, "__postc_kernel_matmul", k_matmul);
            register_kernel(fake, "__postc_kernel_rowsum", k_rowsum);
            register_kernel(fake, "__postc_kernel_cross", k_cross);
        }
        scenario_gufunc();
    } else if (!strcmp(scenario, "intmix")) {
        mix_host = (int32_t (*)(int32_t, int32_t))sym("mix");
        below_host = (_Bool (*)(int64_t, int64_t))sym("below");
        if (fake) {
            register_kernel(fake, "__postc_kernel_mix", k_mix);
            register_kernel(fake, "__postc_kernel_below", k_below);
        }
        scenario_intmix();
    } else if (!strcmp(scenario, "fallback") || !strcmp(scenario, "fallback-host")) {
        hypot2_host = (double (*)(double, double))sym("hypot2");
        if (fake) register_kernel(fake, "__postc_kernel_hypot2", k_hypot2);
        scenario_fallback(strcmp(scenario, "fallback") == 0);
    } else {
        fprintf(stderr, "harness: unknown scenario %s\n", scenario);
        return 2;
    }
    if (failures) return 1;
    printf("HARNESS OK\n");
    return 0;
}
