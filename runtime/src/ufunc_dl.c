/* The broadcasting driver behind every NAME_dl (docs/abi.md 6.3).
 *
 * NAME_dl stores its operands in an array and calls the driver with the
 * ufunc's descriptor (postc_runtime.h; codegen writes one per ufunc). The
 * driver checks every operand against the descriptor, broadcasts the loop
 * dimensions NumPy-style (right-aligned, a missing axis or an axis of size 1
 * stretches) and calls NAME_loop once per index of every loop axis but the
 * innermost, which NAME_loop runs itself.
 *
 * Every extent is checked before anything runs: a negative one panics
 * (NAME_loop would take it as a count), and so does a loop shape whose
 * element count, a compact operand's strides or an operand's byte strides
 * do not fit 64 bits (a wrapped count runs the wrong number of
 * iterations: two stride-0 views of extent 2^32 broadcast to 2^64
 * elements, which wrapped to none). */
#include "internal.h"

#define MAXD POSTC_RT_MAX_LOOP_DIMS
#define STR_(x) #x
#define STR(x) STR_(x)

static int on_host(int32_t dev) { return dev == 1 || dev == 3 || dev == 11; /* CPU, CUDAHost, ROCMHost */ }
static int on_gpu(int32_t dev) { return dev == 2 || dev == 10 || dev == 13; /* CUDA, ROCM, CUDAManaged */ }

void postc_rt_ufunc_dl(const postc_rt_ufunc_desc *d, void *const *operands, postc_rt_gufunc_loop loop) {
  const int64_t nin = d->nin, nops = d->nops, ndims = d->ndims, row = d->rowlen;
  const char *name = d->name, *at = d->at;
  char *bases[nops + 1];
  const int64_t *shapes[nops + 1];
  int64_t lnds[nops + 1], off[nops + 1];
  char *args[nops + 1];
  int64_t estr[nops * row + 1]; /* element strides, a row per operand */
  int64_t lstr[nops * MAXD + 1]; /* loop byte strides, a row per operand */
  int64_t lshape[MAXD], idx[MAXD];
  intptr_t dims[ndims + 1]; /* the loop length, then the core sizes */
  _Bool seen[ndims + 1];
  intptr_t steps[d->nsteps + 1];

  /* Per operand: device, dtype and rank, then its element strides. */
  int64_t l = 0;
  for (int64_t i = 0; i < nops; i++) {
    const rt_tensor *t = operands[i];
    const postc_rt_ufunc_op *od = &d->ops[i];
    const char *role = i < nin ? "input" : "output";
    if (!on_host(t->device_type) && !(d->gpu && on_gpu(t->device_type))) {
      postc_rt_panic(d->gpu ? "panic: ufunc %s: %s operand %lld is not in host or GPU memory%s"
                            : "panic: ufunc %s: %s operand %lld is not in host memory%s",
                     name, role, (long long)i, at);
    }
    if (t->code != od->code || t->bits != od->bits || t->lanes != 1) {
      postc_rt_panic("panic: ufunc %s: %s operand %lld is not a %s tensor%s", name, role, (long long)i,
                     od->dtype_name, at);
    }
    int64_t nd = t->ndim, lnd = nd - od->ncore;
    if (lnd < 0) {
      postc_rt_panic("panic: ufunc %s: %s operand %lld has fewer dimensions than its core signature (%s)%s", name,
                     role, (long long)i, od->core_signature, at);
    }
    if (lnd > MAXD) {
      postc_rt_panic("panic: ufunc %s: %s operand %lld has more than " STR(MAXD) " loop dimensions%s", name, role,
                     (long long)i, at);
    }
    _Bool empty = 0;
    for (int64_t a = 0; a < nd; a++) {
      if (t->shape[a] < 0) {
        postc_rt_panic("panic: ufunc %s: %s operand %lld has size %lld on axis %lld, which is negative%s", name, role,
                       (long long)i, (long long)t->shape[a], (long long)a, at);
      }
      empty |= t->shape[a] == 0;
    }
    bases[i] = (char *)t->data + t->byte_offset;
    shapes[i] = t->shape;
    lnds[i] = lnd;
    int64_t *e = estr + i * row;
    if (t->strides) {
      for (int64_t a = 0; a < nd; a++) {
        e[a] = t->strides[a];
      }
    } else {
      /* Compact row-major: the product of the later extents. */
      int64_t acc = 1;
      for (int64_t a = nd - 1; a >= 0; a--) {
        e[a] = acc;
        if (__builtin_mul_overflow(acc, t->shape[a], &acc) && !empty) {
          postc_rt_panic("panic: ufunc %s: %s operand %lld has more elements than 64 bits count%s", name, role,
                         (long long)i, at);
        }
      }
    }
    for (int64_t a = 0; a < nd && !empty; a++) {
      int64_t bytes;
      if (__builtin_mul_overflow(e[a], od->elsize, &bytes)) {
        postc_rt_panic("panic: ufunc %s: %s operand %lld has a stride of %lld elements on axis %lld, which "
                       "overflows 64 bits in bytes%s",
                       name, role, (long long)i, (long long)e[a], (long long)a, at);
      }
    }
    if (lnd > l) {
      l = lnd;
    }
  }

  /* Broadcast the loop dimensions, right-aligned. Only the first `used`
   * loop axes are read (axis 0 stands for an empty loop shape). */
  const int64_t used = l > 0 ? l : 1;
  for (int64_t a = 0; a < used; a++) {
    lshape[a] = 1;
  }
  for (int64_t i = 0; i < nops; i++) {
    for (int64_t a = 0; a < used; a++) {
      lstr[i * MAXD + a] = 0;
    }
  }
  for (int64_t k = 0; k < ndims; k++) {
    seen[k] = 0;
  }
  for (int64_t i = 0; i < nops; i++) {
    int64_t lead = l - lnds[i];
    for (int64_t j = 0; j < lnds[i]; j++) {
      int64_t n = shapes[i][j], cur = lshape[lead + j];
      if (!(cur == 1 || n == 1 || n == cur)) {
        postc_rt_panic("panic: ufunc %s: operands could not be broadcast together%s", name, at);
      }
      lshape[lead + j] = cur == 1 ? n : cur;
    }
  }
  /* Outputs have the broadcast loop shape exactly. */
  for (int64_t i = nin; i < nops; i++) {
    int ok = lnds[i] == l;
    for (int64_t j = 0; ok && j < l; j++) {
      ok = shapes[i][j] == lshape[j];
    }
    if (!ok) {
      postc_rt_panic("panic: ufunc %s: output operand %lld does not have the broadcast loop shape%s", name,
                     (long long)i, at);
    }
  }

  /* Loop byte strides (0 along a stretched axis), core sizes, core steps. */
  for (int64_t i = 0; i < nops; i++) {
    const postc_rt_ufunc_op *od = &d->ops[i];
    const int64_t *shape = shapes[i], *e = estr + i * row;
    int64_t lnd = lnds[i], lead = l - lnd;
    for (int64_t j = 0; j < lnd; j++) {
      lstr[i * MAXD + lead + j] = shape[j] == 1 ? 0 : e[j] * od->elsize;
    }
    for (int64_t k = 0; k < od->ncore; k++) {
      int64_t dim = od->core[k], axis = lnd + k, n = shape[axis];
      const postc_rt_ufunc_dim *dd = &d->dims[dim];
      if (dd->fixed) {
        if (n != dd->size) {
          postc_rt_panic("panic: ufunc %s: operand %lld has a size other than %llu for core dimension %lld%s", name,
                         (long long)i, (unsigned long long)dd->size, (long long)k, at);
        }
      } else if (seen[dim] && n != dims[dim + 1]) {
        postc_rt_panic("panic: ufunc %s: core dimension `%s` of operand %lld does not match its size in an earlier "
                       "operand%s",
                       name, dd->name, (long long)i, at);
      }
      if (!seen[dim]) {
        dims[dim + 1] = n;
        seen[dim] = 1;
      }
      steps[od->corebase + k] = e[axis] * od->elsize;
    }
  }

  /* The innermost loop axis goes to NAME_loop; an empty loop shape is one
   * iteration, and an empty loop axis none. */
  int64_t inner = l > 0 ? l - 1 : 0;
  dims[0] = lshape[inner];
  for (int64_t a = 0; a < l; a++) {
    if (lshape[a] == 0) {
      return;
    }
    idx[a] = 0;
  }
  int64_t total = 1;
  for (int64_t a = 0; a < l; a++) {
    if (__builtin_mul_overflow(total, lshape[a], &total)) {
      postc_rt_panic("panic: ufunc %s: the broadcast loop shape has more elements than 64 bits count%s", name, at);
    }
  }
  for (int64_t i = 0; i < nops; i++) {
    steps[i] = lstr[i * MAXD + inner];
    off[i] = 0;
  }
  /* One NAME_loop call per outer index, then the odometer. */
  for (;;) {
    for (int64_t i = 0; i < nops; i++) {
      args[i] = bases[i] + off[i];
    }
    loop(args, dims, steps, NULL);
    int64_t ax = inner - 1;
    for (; ax >= 0; ax--) {
      if (idx[ax] + 1 < lshape[ax]) {
        idx[ax]++;
        for (int64_t i = 0; i < nops; i++) {
          off[i] += lstr[i * MAXD + ax];
        }
        break;
      }
      for (int64_t i = 0; i < nops; i++) {
        off[i] -= lstr[i * MAXD + ax] * idx[ax];
      }
      idx[ax] = 0;
    }
    if (ax < 0) {
      return;
    }
  }
}
