//! The ABI of docs/abi.md from C: a caller compiled with `cc` against
//! include/postc.h and linked with `examples/abi_demo.pir` built by
//! `postc-driver compile --emit shared`, and the C example of docs/abi.md.

mod support;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{
    demo_library_with, doc_example, driver, root, shared_library_with, tmpdir, BACKENDS, DECLARED_STRIDES_PIR,
};

fn have_cc() -> bool {
    Command::new("cc").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Calls `colsum_loop` as NumPy would, with the declared core step (16
/// bytes), or with another (8 bytes) when given an argument.
const DECLARED_STRIDES_CALLER: &str = r#"#include <stdint.h>
#include <stdio.h>
void colsum_loop(char **, const intptr_t *, const intptr_t *, void *);
int main(int argc, char **argv) {
  (void)argv;
  double a[6] = {1, 2, 3, 4, 5, 6}, out = 0;
  char *args[2] = {(char *)a, (char *)&out};
  intptr_t dims[2] = {1, 3};
  intptr_t steps[3] = {0, 0, argc > 1 ? 8 : 16};
  colsum_loop(args, dims, steps, NULL);
  printf("%g\n", out);
  return 0;
}
"#;

#[test]
fn a_core_step_other_than_the_declared_stride_panics() {
    // The body reads with the declared stride, so NAME_loop must refuse
    // any other step rather than read past the operand.
    assert!(have_cc(), "scripts/setup installs a C compiler");
    let dir = tmpdir("abi-declared-strides");
    let src = dir.join("strided.pir");
    std::fs::write(&src, DECLARED_STRIDES_PIR).unwrap();
    for backend in BACKENDS {
        let lib = dir.join(format!("libstrided_{backend}.so"));
        let out = Command::new(driver())
            .args(["compile", "--backend", backend, "-O2", "--emit", "shared"])
            .arg(&src)
            .arg("-o")
            .arg(&lib)
            .output()
            .unwrap();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        let exe = build_c(&dir, &format!("strided_{backend}"), DECLARED_STRIDES_CALLER, &lib);
        let out = Command::new(&exe).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "9\n", "{backend}");
        let out = Command::new(&exe).arg("wrong").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("panic: ufunc colsum: operand 0 does not have the strides its parameter type declares at ")
                && err.contains("strided.pir:2:"),
            "{backend}: {err}"
        );
        assert_eq!(out.status.signal(), Some(6), "{backend}: SIGABRT");
    }
}

/// `(3)->(3)`: `b[i] = 2 * a[i]`, its operands of static shape (also
/// ufunc_loops.rs').
const TWICE_PIR: &str = include_str!("support/twice.pir");

/// Calls the device's `twice_loop` over the columns of a 2x3 array (core
/// step 16 bytes: both operands copied, into an 80-byte buffer of which
/// the two parts take 64) and over its rows (no copy, no buffer); with an
/// argument, over the columns without a buffer.
const DEVICE_LOOP_CALLER: &str = r#"#include <stdint.h>
#include <stdio.h>
#include <string.h>
void twice_loop(char **, const intptr_t *, const intptr_t *, void *);
int main(int argc, char **argv) {
  (void)argv;
  double src[6] = {1, 2, 3, 4, 5, 6}, cols[6] = {0}, rows[6] = {0};
  unsigned char scratch[80];
  memset(scratch, 0xAB, sizeof scratch);
  char *col_args[2] = {(char *)src, (char *)cols}, *row_args[2] = {(char *)src, (char *)rows};
  intptr_t dims[2] = {2, 3}, col_steps[4] = {8, 8, 16, 16}, row_steps[4] = {24, 24, 8, 8};
  twice_loop(col_args, dims, col_steps, argc > 1 ? NULL : scratch);
  twice_loop(row_args, dims, row_steps, NULL);
  int untouched = 1;
  for (int k = 64; k < 80; k++) untouched &= scratch[k] == 0xAB;
  for (int i = 0; i < 6; i++) printf("%g %g ", cols[i], rows[i]);
  printf("%d\n", untouched);
  return 0;
}
"#;

/// The loop a device runs (`ufunc-device-entry`), compiled for the host by
/// every backend: its scratch copies in the caller's buffer and none
/// beyond the parts the host sizes it for, no buffer needed without
/// copies, and a copy without one a panic.
#[test]
fn device_loops_take_scratch_from_data_in_every_backend() {
    assert!(have_cc(), "scripts/setup installs a C compiler");
    let dir = tmpdir("abi-device-loop");
    let src = dir.join("twice.pir");
    std::fs::write(&src, TWICE_PIR).unwrap();
    let optimised = dir.join("twice-o2.pir");
    let device = dir.join("twice-device.pir");
    for (input, output, pass) in [(&src, &optimised, "-O2"), (&optimised, &device, "--passes=ufunc-device-entry")] {
        let out = Command::new(driver()).args(["opt", pass]).arg(input).arg("-o").arg(output).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for backend in BACKENDS {
        let lib = dir.join(format!("libtwice_{backend}.so"));
        shared_library_with(device.to_str().unwrap(), 0, &lib, backend);
        let exe = build_c(&dir, &format!("twice_{backend}"), DEVICE_LOOP_CALLER, &lib);
        let out = Command::new(&exe).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "2 2 4 4 6 6 8 8 10 10 12 12 1\n", "{backend}");
        let out = Command::new(&exe).arg("no buffer").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("panic: ufunc twice: operand 0 needs a scratch copy but the launch has no buffer at "),
            "{backend}: {err}"
        );
        assert_eq!(out.status.signal(), Some(6), "{backend}: SIGABRT");
    }
}

/// Compiles `src` with `cc` against include/postc.h and `lib`.
fn build_c(dir: &Path, name: &str, src: &str, lib: &Path) -> PathBuf {
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, src).unwrap();
    let exe = dir.join(name);
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(root().join("include"))
        .arg(&c)
        .arg(lib)
        .arg(format!("-Wl,-rpath,{}", lib.parent().unwrap().display()))
        .args(["-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(out.status.success(), "cc failed:\n{}", String::from_utf8_lossy(&out.stderr));
    exe
}

#[test]
fn c_caller_at_o0_and_o2() {
    assert!(have_cc(), "scripts/setup installs a C compiler");
    let dir = tmpdir("abi-c");
    for (backend, level) in BACKENDS.iter().flat_map(|b| [(*b, 0u8), (*b, 2)]) {
        let lib = demo_library_with(&dir, level, backend);
        let exe = build_c(&dir, &format!("caller_{backend}{level}"), CALLER, &lib);
        let out = Command::new(&exe).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{backend} -O{level}:\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.ends_with("all ok\n"), "{stdout}");
        for (mode, want) in [
            ("get", "panic: index out of bounds: index 3 is out of range for axis 0 with size 3 at examples/abi_demo.pir:245:3\n"),
            ("dtype", "panic: ufunc axpy: input operand 1 is not a Float64 tensor at examples/abi_demo.pir:250:1\n"),
            ("core", "panic: ufunc matmul: core dimension `k` of operand 1 does not match its size in an earlier operand at examples/abi_demo.pir:283:1\n"),
            ("device", "panic: ufunc rowdot: input operand 0 is not in host memory at examples/abi_demo.pir:258:1\n"),
        ] {
            let out = Command::new(&exe).arg(mode).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{backend} -O{level} {mode}");
            assert_eq!(out.status.signal(), Some(6), "{backend} -O{level} {mode}: SIGABRT");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// With several codegen units each entry point is emitted once, in the
/// unit that owns the ufunc's body.
#[test]
fn entry_points_across_codegen_units() {
    assert!(have_cc(), "scripts/setup installs a C compiler");
    let dir = tmpdir("abi-units");
    let lib = dir.join("libabi_demo_j3.so");
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", "-O2", "-j", "3", "--emit", "shared", "examples/abi_demo.pir", "-o"])
        .arg(&lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exe = build_c(&dir, "caller", CALLER, &lib);
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An entry point whose name another exported function has is a
/// diagnostic, not a duplicate symbol.
#[test]
fn entry_point_name_collision_is_an_error() {
    let dir = tmpdir("abi-collide");
    let src = dir.join("collide.pir");
    std::fs::write(
        &src,
        "module collide\n\
         ufunc twice(%x: Float64) -> Float64 \"()->()\" {\nentry:\n  %r: Float64 = add %x, %x\n  return %r\n}\n\
         func twice_dl(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n",
    )
    .unwrap();
    for backend in BACKENDS {
        let out = Command::new(driver())
            .args(["compile", "--backend", backend, "--emit", "obj"])
            .arg(&src)
            .arg("-o")
            .arg(dir.join("c.o"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{backend}");
        assert!(
            err.contains("ufunc `twice`: its entry point `twice_dl` has the name of another exported function"),
            "{backend}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The C example of docs/abi.md prints the output block that follows it.
#[test]
fn docs_c_example() {
    assert!(have_cc(), "scripts/setup installs a C compiler");
    let doc = std::fs::read_to_string(root().join("docs/abi.md")).unwrap();
    let (code, want) = doc_example(&doc, "```c\n/* example: docs/abi.md");
    let dir = tmpdir("abi-doc-c");
    for backend in BACKENDS {
        let lib = demo_library_with(&dir, 2, backend);
        let exe = build_c(&dir, &format!("example_{backend}"), &code, &lib);
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{backend}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const CALLER: &str = r#"
#define _GNU_SOURCE
#include "postc.h"
#include <complex.h>
#include <dlfcn.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

double mix(_Bool flag, int16_t i, uint8_t u, float x);
_Float16 hadd(_Float16 a, _Float16 b);
void cmul(const double _Complex *a, const double _Complex *b, double _Complex *out);
void cscale64(const float _Complex *a, float f, float _Complex *out);
postc_str greet(postc_str name);
postc_bytes bcat(postc_bytes a, postc_bytes b);
double total(DLTensor *a);
double total_f(DLTensor *a);
double every_other_sum(DLTensor *x);
void scale(DLTensor *x, double f);
double norm(DLTensor *x);
double l2(DLTensor *x);
DLManagedTensor *cumsum(DLTensor *x);
double get(DLTensor *x, int64_t i);
double axpy(double a, double x, double y);
void axpy_dl(DLTensor *, DLTensor *, DLTensor *, DLTensor *);
void rowdot_dl(DLTensor *, DLTensor *, DLTensor *);
void matmul_loop(char **, const intptr_t *, const intptr_t *, void *);
void matmul_dl(DLTensor *, DLTensor *, DLTensor *);

#define CHECK(c) do { if (!(c)) { printf("FAILED line %d: %s\n", __LINE__, #c); return 1; } } while (0)

static DLTensor T(void *data, int nd, int64_t *shape, int64_t *strides, DLDataType dt, uint64_t off) {
  DLTensor t = {data, {kDLCPU, 0}, nd, dt, shape, strides, off};
  return t;
}

/* Position-weighted sum of an m x n matrix whose (i, j) element is at
 * p[i*s0 + j*s1], as `total` computes it. */
static double weighted(const double *p, int m, int n, int s0, int s1) {
  double acc = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) acc += p[i * s0 + j * s1] * (100 * i + j);
  return acc;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int64_t s3[1] = {3};
  double three[3] = {1, 2, 3};
  DLTensor t3 = T(three, 1, s3, NULL, POSTC_DTYPE_FLOAT64, 0);
  if (!strcmp(mode, "get")) get(&t3, 3);
  if (!strcmp(mode, "dtype")) {
    float f[3] = {0};
    double a = 1, out[3];
    DLTensor ta = T(&a, 0, NULL, NULL, POSTC_DTYPE_FLOAT64, 0);
    DLTensor tf = T(f, 1, s3, NULL, POSTC_DTYPE_FLOAT32, 0);
    DLTensor to = T(out, 1, s3, NULL, POSTC_DTYPE_FLOAT64, 0);
    axpy_dl(&ta, &tf, &t3, &to);
  }
  if (!strcmp(mode, "core")) {
    double a[6] = {0}, b[6] = {0}, c[4];
    int64_t s23[2] = {2, 3}, s22[2] = {2, 2};
    DLTensor ta = T(a, 2, s23, NULL, POSTC_DTYPE_FLOAT64, 0);
    DLTensor tb = T(b, 2, s23, NULL, POSTC_DTYPE_FLOAT64, 0); /* k = 2, not 3 */
    DLTensor tc = T(c, 2, s22, NULL, POSTC_DTYPE_FLOAT64, 0);
    matmul_dl(&ta, &tb, &tc);
  }
  if (!strcmp(mode, "device")) {
    double out;
    DLTensor td = t3;
    td.device.device_type = kDLCUDA;
    DLTensor to = T(&out, 0, NULL, NULL, POSTC_DTYPE_FLOAT64, 0);
    rowdot_dl(&td, &t3, &to);
  }
  if (*mode) return 0;

  /* Scalars, narrow integers and Bool extended by the C convention. */
  CHECK(mix(0, -3, 250, 0.5f) == 247.5);
  CHECK(mix(1, -32768, 255, 0.25f) == 32512.75);
  CHECK(hadd((_Float16)1.5, (_Float16)0.25) == (_Float16)1.75);
  CHECK(axpy(2, 3, 4) == 10);

  /* Complex by pointer, result through the trailing pointer. */
  double _Complex a = 1.5 - 2 * I, b = 0.25 + 3 * I, c = 0;
  cmul(&a, &b, &c);
  CHECK(c == a * b);
  float _Complex fa = 1 + 2 * I, fc = 0;
  cscale64(&fa, 2.0f, &fc);
  CHECK(fc == 2 + 4 * I);

  /* Str and Bytes by value; results end with a NUL not counted in len. */
  char name[3] = {'C', '9', 'x'}; /* no NUL: len says 2 */
  postc_str hi = greet((postc_str){name, 2});
  CHECK(hi.len == 10 && !memcmp(hi.ptr, "Hello, C9!", 10) && hi.ptr[10] == 0);
  postc_bytes bb = bcat((postc_bytes){"\0\xff", 2}, (postc_bytes){"ab", 2});
  CHECK(bb.len == 4 && !memcmp(bb.ptr, "\0\xff" "ab", 4));

  /* Strides NULL and explicit, and byte_offset: a 2x3 matrix at offset 5
   * elements of a larger buffer. */
  double buf[16];
  for (int i = 0; i < 16; i++) buf[i] = i * 0.5 - 1;
  int64_t s23[2] = {2, 3}, c23[2] = {3, 1};
  DLTensor m_null = T(buf + 5, 2, s23, NULL, POSTC_DTYPE_FLOAT64, 0);
  DLTensor m_expl = T(buf + 5, 2, s23, c23, POSTC_DTYPE_FLOAT64, 0);
  DLTensor m_off = T(buf, 2, s23, NULL, POSTC_DTYPE_FLOAT64, 5 * sizeof(double));
  double want = weighted(buf + 5, 2, 3, 3, 1);
  CHECK(total(&m_null) == want && total(&m_expl) == want && total(&m_off) == want);
  /* Row stride not fixed by the type: every other row of a 4x3 block. */
  int64_t r_st[2] = {6, 1};
  DLTensor m_rows = T(buf, 2, s23, r_st, POSTC_DTYPE_FLOAT64, 8);
  CHECK(total(&m_rows) == weighted(buf + 1, 2, 3, 6, 1));
  /* Fortran order: the transpose of the 3x2 C matrix at buf + 2. */
  int64_t s32[2] = {2, 3}, f_st[2] = {1, 2};
  DLTensor m_f = T(buf + 2, 2, s32, f_st, POSTC_DTYPE_FLOAT64, 0);
  CHECK(total_f(&m_f) == weighted(buf + 2, 2, 3, 1, 2));
  /* Static stride 16 bytes (x[::2]) with byte_offset. */
  int64_t s4[1] = {4}, two[1] = {2};
  DLTensor eo = T(buf, 1, s4, two, POSTC_DTYPE_FLOAT64, 3 * sizeof(double));
  CHECK(every_other_sum(&eo) == buf[3] * 1 + buf[5] * 2 + buf[7] * 3 + buf[9] * 4);

  /* Output written in place. */
  double v[3] = {1, -2, 4};
  DLTensor tv = T(v, 1, s3, NULL, POSTC_DTYPE_FLOAT64, 0);
  scale(&tv, -0.5);
  CHECK(v[0] == -0.5 && v[1] == 1 && v[2] == -2);

  /* The alias is a second symbol for the same function; the function
   * outside `export` has no symbol. */
  CHECK(norm(&tv) == l2(&tv));
  CHECK(dlsym(RTLD_DEFAULT, "l2") == dlsym(RTLD_DEFAULT, "norm") && dlsym(RTLD_DEFAULT, "l2"));
  CHECK(!dlsym(RTLD_DEFAULT, "unlisted") && !dlsym(RTLD_DEFAULT, "abi_demo.unlisted"));
  CHECK(dlsym(RTLD_DEFAULT, "matmul_loop") && dlsym(RTLD_DEFAULT, "matmul_dl"));

  /* A returned DLManagedTensor, released through its deleter: repeated
   * calls leave the heap as it was. */
  DLManagedTensor *r = cumsum(&t3);
  DLTensor *rt = &r->dl_tensor;
  CHECK(rt->ndim == 1 && rt->shape[0] == 3 && rt->device.device_type == kDLCPU);
  CHECK(rt->dtype.code == kDLFloat && rt->dtype.bits == 64 && rt->dtype.lanes == 1);
  const double *rv = (const double *)((char *)rt->data + rt->byte_offset);
  int64_t rs = rt->strides ? rt->strides[0] : 1;
  CHECK(rv[0] == 1 && rv[rs] == 3 && rv[2 * rs] == 6);
  r->deleter(r);
  size_t before = mallinfo2().uordblks;
  for (int k = 0; k < 2000; k++) {
    DLManagedTensor *x = cumsum(&t3);
    x->deleter(x);
  }
  size_t after = mallinfo2().uordblks;
  CHECK(after <= before + 1024);

  /* ufunc entry points: NumPy's inner loop over two 2x2 products... */
  double A[2][2][2] = {{{1, 2}, {3, 4}}, {{0, 1}, {1, 0}}};
  double B[2][2][2] = {{{1, 0}, {0, 1}}, {{5, 6}, {7, 8}}};
  double Cm[2][2][2];
  char *args[3] = {(char *)A, (char *)B, (char *)Cm};
  intptr_t dims[4] = {2, 2, 2, 2}, steps[9] = {32, 32, 32, 16, 8, 16, 8, 16, 8};
  matmul_loop(args, dims, steps, NULL);
  double wantC[8] = {1, 2, 3, 4, 7, 8, 5, 6};
  CHECK(!memcmp(Cm, wantC, sizeof wantC));
  /* ... the same with B's core axes transposed (copied for the body) ... */
  double Bt[2][2][2] = {{{1, 0}, {0, 1}}, {{5, 7}, {6, 8}}};
  intptr_t steps_t[9] = {32, 32, 32, 16, 8, 8, 16, 16, 8};
  args[1] = (char *)Bt;
  memset(Cm, 0, sizeof Cm);
  matmul_loop(args, dims, steps_t, NULL);
  CHECK(!memcmp(Cm, wantC, sizeof wantC));
  /* ... and through DLTensors: A (2,2,2) @ B[1] broadcast, a negative
   * stride on y, byte_offset on the scalar. */
  int64_t s222[3] = {2, 2, 2}, s22[2] = {2, 2};
  DLTensor tA = T(A, 3, s222, NULL, POSTC_DTYPE_FLOAT64, 0);
  DLTensor tB = T(B, 2, s22, NULL, POSTC_DTYPE_FLOAT64, 4 * sizeof(double));
  double Cd[8];
  DLTensor tC = T(Cd, 3, s222, NULL, POSTC_DTYPE_FLOAT64, 0);
  matmul_dl(&tA, &tB, &tC);
  double wantD[8] = {19, 22, 43, 50, 7, 8, 5, 6};
  CHECK(!memcmp(Cd, wantD, sizeof wantD));
  double sc[2] = {9, 2}, y[3] = {10, 20, 30}, out[6];
  int64_t neg[1] = {-1};
  DLTensor ta = T(sc, 0, NULL, NULL, POSTC_DTYPE_FLOAT64, sizeof(double));
  DLTensor tx = T(buf, 2, s23, NULL, POSTC_DTYPE_FLOAT64, 0);
  DLTensor ty = T(y + 2, 1, s3, neg, POSTC_DTYPE_FLOAT64, 0);
  DLTensor to = T(out, 2, s23, NULL, POSTC_DTYPE_FLOAT64, 0);
  axpy_dl(&ta, &tx, &ty, &to);
  for (int i = 0; i < 6; i++) CHECK(out[i] == 2 * buf[i] + y[2 - i % 3]);
  puts("all ok");
  return 0;
}
"#;
