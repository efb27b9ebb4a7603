//! The entry points of ufuncs as every native backend compiles them:
//! `NAME_loop` (the IR `ufunc-entry` writes, passes/src/ufunc_entry.rs)
//! and `NAME_dl` (`ufunc-dl`'s), built through `postc-codegen`'s public
//! API by the LLVM, C and QBE backends, each linked with the host runtime
//! and one C caller, which must see the same results and the same panics
//! from every backend; the loop a device runs (`ufunc-device-entry`)
//! compiled for the host the same way. LLVM's own promises about these
//! loops are checked in its IR: the contiguous loop vectorises, the
//! strided one is marked scalar, the device's loop allocates nothing.
//! The plans the entry points follow are checked first. The wasm backend
//! exports `NAME_dl` and `NAME_loop` to JavaScript and is tested in
//! wasm_backend.rs.

mod support;
use postc_codegen::backend::by_name;
use postc_codegen::ufunc_plan::Plan;
use postc_codegen::{CodegenOptions, EmitKind, OptLevel};
use postc_ir::Program;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{root, tmpdir, BACKENDS};

/// The host's ufuncs: elementwise ones (`axpy`; `cscale` of a complex,
/// passed by pointer; `isneg` with a Bool result) and generalized ones
/// (`rowdot`, `mm`, `cross` of a fixed core size).
const SRC: &str = r#"module uf
ufunc axpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" {
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}
ufunc rowdot(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 "(n),(n)->()" core(%n: Int64) {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %z
  let %acc: Float64 = %fz
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %x: Float64 = index.load %a[%i]
  %y: Float64 = index.load %b[%i]
  %p: Float64 = mul %x, %y
  %s: Float64 = add %acc, %p
  set %acc = %s
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}
ufunc mm(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) {
entry:
  return
}
ufunc cross(%a: Float32[]Shape[3], %b: Float32[]Shape[3], %c: &Float32[]Shape[3]) "(3),(3)->(3)" {
entry:
  return
}
ufunc cscale(%a: Complex128, %s: Float64) -> Complex128 "(),()->()" {
entry:
  %c: Complex128 = cast %s
  %r: Complex128 = mul %a, %c
  return %r
}
ufunc isneg(%a: Int16) -> Bool "()->()" {
entry:
  %z: Int16 = const 0
  %r: Bool = lt %a, %z
  return %r
}
"#;

/// `twice`, `(3)->(3)` over operands of static shape: `b[i] = 2 * a[i]`.
const TWICE: &str = include_str!("support/twice.pir");

/// [`SRC`] and `twice`.
fn source() -> String {
    let (_, twice) = TWICE.split_once("module dev\n").expect("a module");
    format!("{SRC}{twice}")
}

/// The host's ufuncs: [`SRC`] and `twice`, as `uf.pir`.
fn host_program() -> Program {
    Program::from_module(postc_ir::parse::parse_str("uf.pir", &source()).unwrap())
}

/// `twice` as a device runs it, compiled for the host as `dtwice` (in
/// `dev.pir`): the -O2 pipeline, then `ufunc-device-entry`'s loop, whose
/// scratch copies come from the buffer `data`; `prepare` keeps that loop,
/// as `ufunc-entry` writes only the loops a module lacks.
fn device_program() -> Program {
    use postc_passes::ModulePass;
    let mut m = postc_ir::parse::parse_str("dev.pir", &TWICE.replace("twice", "dtwice")).unwrap();
    let options = postc_passes::PassOptions::for_level(2);
    let pipeline = postc_passes::parse_pipeline(postc_passes::default_pipeline(2)).unwrap();
    pipeline.run(&mut m, &options, &Default::default()).unwrap();
    postc_passes::ufunc_entry::UFuncDeviceEntry.run(&mut m, &options).unwrap();
    Program::from_module(m)
}

/// `program` compiled by `backend` at -O2 into `kind`.
fn emit(backend: &str, program: &Program, kind: EmitKind) -> Vec<u8> {
    let options = CodegenOptions::for_level(OptLevel::O2);
    by_name(backend).unwrap().emit(program, &options, kind).unwrap_or_else(|d| panic!("{backend}: {d:?}"))
}

/// The C compiler `scripts/setup` installs, checked to run.
fn cc() -> &'static str {
    let runs = Command::new("cc").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(runs, "no C compiler `cc` runs: scripts/setup installs gcc");
    "cc"
}

#[test]
fn plans_follow_numpy_dimension_order() {
    let m = postc_ir::parse::parse_str("uf.pir", &source()).unwrap();
    let f = |n: &str| &m.functions[m.get_function(n).unwrap()];
    let p = Plan::new(&m, f("mm")).unwrap();
    assert_eq!(p.nops, 3);
    assert_eq!(p.dims.iter().map(|d| d.0.as_str()).collect::<Vec<_>>(), ["m", "k", "n"]);
    assert_eq!(p.core, vec![vec![0, 1], vec![1, 2], vec![0, 2]]);
    assert_eq!(p.core_params, vec![0, 1, 2]);
    assert_eq!(p.num_steps(), 3 + 6);
    let p = Plan::new(&m, f("cross")).unwrap();
    assert_eq!(p.dims, vec![("3".to_string(), Some(3))]);
    assert!(p.core_params.is_empty());
    let p = Plan::new(&m, f("rowdot")).unwrap();
    assert!(p.is_returned(2) && !p.is_returned(0));
    assert_eq!(p.scratch_operands(), vec![0, 1]);
    assert!(p.at.starts_with(" at uf.pir:"), "{}", p.at);
}

/// An elementwise ufunc's loop has a contiguous version, which LLVM
/// vectorises, and a strided one marked scalar; the device's loop
/// takes its scratch copies from `data`, never from an allocator.
#[test]
fn contiguous_loops_vectorise_and_device_loops_allocate_nothing() {
    let ir = |program: &Program| String::from_utf8(emit("llvm", program, EmitKind::LlvmIr)).unwrap();
    let function = |text: &str, name: &str| {
        let at = text.find(&format!("@{name}(")).unwrap_or_else(|| panic!("no {name}:\n{text}"));
        let start = text[..at].rfind("\ndefine").unwrap();
        text[start..at + text[at..].find("\n}\n").unwrap()].to_owned()
    };
    let text = ir(&host_program());
    let axpy = function(&text, "axpy_loop");
    assert!(axpy.contains("x double>"), "the contiguous loop is not vectorised:\n{axpy}");
    assert!(!axpy.contains("masked.gather"), "{axpy}");
    assert!(text.contains("!{!\"llvm.loop.vectorize.enable\", i1 false}"), "{text}");
    let dev = ir(&device_program());
    let lp = function(&dev, "dtwice_loop");
    for callee in ["malloc", "free", "arena"] {
        assert!(!lp.contains(callee), "the device loop calls {callee}:\n{lp}");
    }
}

/// Links the entry points each native backend makes with one C caller
/// and runs it: the NumPy loop convention, broadcasting, strides NULL and
/// explicit, byte_offset, complex by pointer, Bool results, the device's
/// loop with its scratch buffer, and the panics.
#[test]
fn entry_points_run_from_c_in_every_native_backend() {
    let cc = cc();
    let dir = tmpdir("ufunc-loops");
    let main = dir.join("main.c");
    std::fs::write(&main, C_MAIN).unwrap();
    let main_o = dir.join("main.o");
    let st = Command::new(cc)
        .args(["-std=c11", "-Wall", "-O1", "-c", "-I"])
        .arg(root().join("include"))
        .arg(&main)
        .arg("-o")
        .arg(&main_o)
        .status()
        .unwrap();
    assert!(st.success(), "compiling {} failed", main.display());
    let (host, device) = (host_program(), device_program());
    for backend in BACKENDS {
        let object = |stem: &str, program: &Program| -> PathBuf {
            let o = dir.join(format!("{stem}_{backend}.o"));
            std::fs::write(&o, emit(backend, program, EmitKind::Object)).unwrap();
            o
        };
        let exe = link(&dir, backend, &[main_o.clone(), object("uf", &host), object("dev", &device)]);
        let out = Command::new(&exe).output().unwrap();
        assert!(
            out.status.success(),
            "{backend}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for (arg, msg) in PANICS {
            let out = Command::new(&exe).arg(arg).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stderr), *msg, "{backend} {arg}");
            assert_eq!(out.status.signal(), Some(6), "{backend} {arg}: SIGABRT");
        }
    }
}

/// `objects` linked with the host runtime into the executable `main_BACKEND`.
fn link(dir: &Path, backend: &str, objects: &[PathBuf]) -> PathBuf {
    let exe = dir.join(format!("main_{backend}"));
    let out = Command::new(cc())
        .args(objects)
        .arg(postc_runtime::STATIC_LIB_PATH)
        .args(["-lm", "-ldl", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(out.status.success(), "{backend}: linking failed:\n{}", String::from_utf8_lossy(&out.stderr));
    exe
}

/// What the caller does with each argument, and the panic it must end in.
const PANICS: &[(&str, &str)] = &[
    ("bcast", "panic: ufunc axpy: operands could not be broadcast together at uf.pir:2:1\n"),
    ("dtype", "panic: ufunc axpy: input operand 1 is not a Float64 tensor at uf.pir:2:1\n"),
    (
        "core",
        "panic: ufunc rowdot: core dimension `n` of operand 1 does not match its size in an earlier operand at \
         uf.pir:8:1\n",
    ),
    ("outshape", "panic: ufunc axpy: output operand 3 does not have the broadcast loop shape at uf.pir:2:1\n"),
    ("rank", "panic: ufunc rowdot: input operand 0 has fewer dimensions than its core signature (n) at uf.pir:8:1\n"),
    ("device", "panic: ufunc axpy: input operand 1 is not in host memory at uf.pir:2:1\n"),
    ("maxdims", "panic: ufunc axpy: input operand 1 has more than 64 loop dimensions at uf.pir:2:1\n"),
    ("negative", "panic: ufunc axpy: output operand 3 has size -12 on axis 1, which is negative at uf.pir:2:1\n"),
    ("count", "panic: ufunc axpy: input operand 1 has more elements than 64 bits count at uf.pir:2:1\n"),
    (
        "stride",
        "panic: ufunc axpy: input operand 1 has a stride of -9223372036854775808 elements on axis 0, which \
         overflows 64 bits in bytes at uf.pir:2:1\n",
    ),
    ("total", "panic: ufunc axpy: the broadcast loop shape has more elements than 64 bits count at uf.pir:2:1\n"),
    ("noscratch", "panic: ufunc dtwice: operand 0 needs a scratch copy but the launch has no buffer at dev.pir:4:1\n"),
];

const C_MAIN: &str = r#"
#include "postc.h"
#include <complex.h>
#include <stdio.h>
#include <string.h>
void axpy_loop(char **, const intptr_t *, const intptr_t *, void *);
void axpy_dl(DLTensor *, DLTensor *, DLTensor *, DLTensor *);
void rowdot_loop(char **, const intptr_t *, const intptr_t *, void *);
void rowdot_dl(DLTensor *, DLTensor *, DLTensor *);
void cscale_dl(DLTensor *, DLTensor *, DLTensor *);
void isneg_dl(DLTensor *, DLTensor *);
void twice_dl(DLTensor *, DLTensor *);
void dtwice_loop(char **, const intptr_t *, const intptr_t *, void *);
static DLTensor T(void *data, int nd, int64_t *shape, int64_t *strides, DLDataType dt) {
  DLTensor t = {data, {kDLCPU, 0}, nd, dt, shape, strides, 0};
  return t;
}
#define CHECK(c) do { if (!(c)) { printf("line %d: %s\n", __LINE__, #c); return 1; } } while (0)
int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  /* NumPy convention: axpy over 4 elements, a broadcast (step 0). */
  double a = 2.0, x[4] = {1, 2, 3, 4}, y[8] = {10, 0, 20, 0, 30, 0, 40, 0}, r[4];
  char *args[4] = {(char *)&a, (char *)x, (char *)y, (char *)r};
  intptr_t dims[1] = {4}, steps[4] = {0, 8, 16, 8};
  axpy_loop(args, dims, steps, NULL);
  for (int i = 0; i < 4; i++) CHECK(r[i] == 2.0 * x[i] + y[2 * i]);
  /* rowdot over 2 rows of a 2x3 matrix with a shared vector. */
  double m[6] = {1, 2, 3, 4, 5, 6}, v[3] = {1, 10, 100}, d[2];
  char *a2[3] = {(char *)m, (char *)v, (char *)d};
  intptr_t dims2[2] = {2, 3}, steps2[5] = {24, 0, 8, 8, 8};
  rowdot_loop(a2, dims2, steps2, NULL);
  CHECK(d[0] == 321 && d[1] == 654);
  /* _dl: (2,3) + (3,) broadcast, scalar a as a 0-d tensor, output (2,3). */
  int64_t s23[2] = {2, 3}, s3[1] = {3}, s1[1] = {1};
  double out[6], aa = 3.0, yy[3] = {1, 2, 3};
  DLTensor ta = T(&aa, 0, NULL, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tx = T(m, 2, s23, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor ty = T(yy, 1, s3, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor to = T(out, 2, s23, NULL, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &tx, &ty, &to);
  for (int i = 0; i < 6; i++) CHECK(out[i] == 3.0 * m[i] + yy[i % 3]);
  /* Transposed x (explicit strides), y as a (1,) stretched, byte_offset. */
  int64_t s32[2] = {3, 2}, st_t[2] = {1, 3}, st_o[2] = {2, 1};
  double out2[6], yb[2] = {-1, 5};
  DLTensor txt = T(m, 2, s32, st_t, POSTC_DTYPE_FLOAT64);
  DLTensor ty1 = T(yb, 1, s1, NULL, POSTC_DTYPE_FLOAT64);
  ty1.byte_offset = 8;
  DLTensor to2 = T(out2, 2, s32, st_o, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &txt, &ty1, &to2);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) CHECK(out2[i * 2 + j] == 3.0 * m[j * 3 + i] + 5);
  /* Three loop dims with a zero-size axis: nothing is written. */
  int64_t s203[3] = {2, 0, 3};
  double never = 7;
  DLTensor tz = T(&never, 3, s203, NULL, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &tz, &ty, &tz);
  CHECK(never == 7);
  /* An empty operand whose other extents count 2^64 elements: nothing
   * overflows, since nothing runs. */
  int64_t empty_big[3] = {0, 1LL << 32, 1LL << 32};
  DLTensor te = T(&never, 3, empty_big, NULL, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &te, &te, &te);
  CHECK(never == 7);
  /* rowdot_dl over (2,2,3) rows with a (3,) vector; output (2,2). */
  double cube[12], res[4];
  for (int i = 0; i < 12; i++) cube[i] = i;
  int64_t s223[3] = {2, 2, 3}, s22[2] = {2, 2};
  DLTensor tc = T(cube, 3, s223, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tv = T(v, 1, s3, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tr = T(res, 2, s22, NULL, POSTC_DTYPE_FLOAT64);
  rowdot_dl(&tc, &tv, &tr);
  for (int i = 0; i < 4; i++) CHECK(res[i] == cube[3 * i] + 10 * cube[3 * i + 1] + 100 * cube[3 * i + 2]);
  /* A strided vector operand goes through a compact copy. */
  double v2[6] = {1, -1, 10, -1, 100, -1};
  int64_t st2[1] = {2};
  DLTensor tv2 = T(v2, 1, s3, st2, POSTC_DTYPE_FLOAT64);
  double res2[4];
  DLTensor tr2 = T(res2, 2, s22, NULL, POSTC_DTYPE_FLOAT64);
  rowdot_dl(&tc, &tv2, &tr2);
  for (int i = 0; i < 4; i++) CHECK(res2[i] == res[i]);
  /* (3)->(3) over the columns of a 3x2 C array (core stride 2) into the
   * rows of a transposed output: copied in, and the output copied back. */
  double src[6] = {1, 2, 3, 4, 5, 6}, dst[6] = {0};
  int64_t s2x3[2] = {2, 3}, stc[2] = {1, 2}, str[2] = {1, 2};
  DLTensor tsrc = T(src, 2, s2x3, stc, POSTC_DTYPE_FLOAT64); /* src.T */
  DLTensor tdst = T(dst, 2, s2x3, str, POSTC_DTYPE_FLOAT64); /* dst.T, F order */
  twice_dl(&tsrc, &tdst);
  for (int i = 0; i < 6; i++) CHECK(dst[i] == 2 * src[i]);
  /* The device's loop: the same two columns (core step 16 bytes), copies in
   * the 2 x 32 bytes of `data` (each operand's 24 rounded to 16), and none
   * beyond; contiguous operands need no buffer. */
  {
    unsigned char scratch[80];
    memset(scratch, 0xAB, sizeof scratch);
    double col_out[6] = {0};
    char *dargs[2] = {(char *)src, (char *)col_out};
    intptr_t ddims[2] = {2, 3}, dsteps[4] = {8, 8, 16, 16};
    dtwice_loop(dargs, ddims, dsteps, scratch);
    for (int i = 0; i < 6; i++) CHECK(col_out[i] == 2 * src[i]);
    double last_in[3];
    memcpy(last_in, scratch, sizeof last_in);
    CHECK(last_in[0] == 2 && last_in[1] == 4 && last_in[2] == 6);
    for (int k = 64; k < 80; k++) CHECK(scratch[k] == 0xAB);
    double rows_out[6] = {0};
    char *cargs[2] = {(char *)src, (char *)rows_out};
    intptr_t csteps[4] = {24, 24, 8, 8};
    dtwice_loop(cargs, ddims, csteps, NULL);
    for (int i = 0; i < 6; i++) CHECK(rows_out[i] == 2 * src[i]);
    if (!strcmp(mode, "noscratch")) dtwice_loop(dargs, ddims, dsteps, NULL);
  }
  /* complex by pointer through the loop, written through the out pointer. */
  double _Complex z[2] = {1 + 2 * I, -3 + 0.5 * I}, zr[2];
  double sc = 2;
  DLTensor tzc = T(z, 1, s1, NULL, POSTC_DTYPE_COMPLEX128);
  int64_t s2[1] = {2};
  tzc.shape = s2;
  DLTensor tsc = T(&sc, 0, NULL, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tzr = T(zr, 1, s2, NULL, POSTC_DTYPE_COMPLEX128);
  cscale_dl(&tzc, &tsc, &tzr);
  CHECK(zr[0] == 2 + 4 * I && zr[1] == -6 + 1 * I);
  /* Bool results are bytes 0/1. */
  int16_t iv[4] = {-1, 0, 5, -7};
  _Bool bv[4];
  int64_t s4[1] = {4};
  DLTensor ti = T(iv, 1, s4, NULL, POSTC_DTYPE_INT16);
  DLTensor tb = T(bv, 1, s4, NULL, POSTC_DTYPE_BOOL);
  isneg_dl(&ti, &tb);
  CHECK(bv[0] == 1 && bv[1] == 0 && bv[2] == 0 && bv[3] == 1);
  /* Failures. */
  if (!strcmp(mode, "bcast")) {
    int64_t s2b[1] = {2};
    DLTensor bad = T(yy, 1, s2b, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &tx, &bad, &to);
  }
  if (!strcmp(mode, "dtype")) {
    DLTensor bad = T(yy, 1, s3, NULL, POSTC_DTYPE_FLOAT32);
    axpy_dl(&ta, &bad, &ty, &to);
  }
  if (!strcmp(mode, "core")) {
    int64_t s4b[1] = {4};
    DLTensor bad = T(cube, 1, s4b, NULL, POSTC_DTYPE_FLOAT64);
    rowdot_dl(&tc, &bad, &tr);
  }
  if (!strcmp(mode, "outshape")) {
    DLTensor bad = T(out, 1, s3, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &tx, &ty, &bad);
  }
  if (!strcmp(mode, "rank")) {
    rowdot_dl(&ta, &tv, &tr);
  }
  if (!strcmp(mode, "device")) {
    DLTensor bad = tx;
    bad.device.device_type = kDLCUDA;
    axpy_dl(&ta, &bad, &ty, &to);
  }
  if (!strcmp(mode, "maxdims")) {
    int64_t ones[65];
    for (int i = 0; i < 65; i++) ones[i] = 1;
    DLTensor bad = T(m, 65, ones, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &bad, &ty, &to);
  }
  if (!strcmp(mode, "negative")) {
    int64_t sneg[2] = {2, -12};
    DLTensor bad = T(out, 2, sneg, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &tx, &ty, &bad);
  }
  if (!strcmp(mode, "count")) {
    int64_t huge[3] = {1 << 30, 1 << 30, 1 << 30};
    DLTensor bad = T(m, 3, huge, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &bad, &ty, &to);
  }
  if (!strcmp(mode, "stride")) {
    int64_t s2c[1] = {2}, smin[1] = {INT64_MIN};
    DLTensor bad = T(m, 1, s2c, smin, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &bad, &ty, &to);
  }
  if (!strcmp(mode, "total")) {
    int64_t square[2] = {1LL << 32, 1LL << 32}, zero[2] = {0, 0};
    DLTensor bx = T(m, 2, square, zero, POSTC_DTYPE_FLOAT64);
    DLTensor bo = T(out, 2, square, zero, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &bx, &ta, &bo);
  }
  puts("ok");
  return 0;
}
"#;
