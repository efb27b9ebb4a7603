//! The C backend from the command line: `--emit c` writes the C file and
//! its header, deterministic for any `-j`; `--emit shared` and `exe` link
//! through the C compiler; the examples compile with warnings as errors
//! under gcc and clang; `gpu` and `kernel` functions are refused with a
//! located diagnostic naming the LLVM backend.

mod support;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{driver, root, tmpdir};

fn compile(args: &[&str]) -> std::process::Output {
    Command::new(driver()).current_dir(root()).arg("compile").args(args).output().unwrap()
}

fn clang() -> &'static str {
    ["clang-22", "clang", "/usr/lib/llvm-22/bin/clang"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
        .expect("clang (scripts/setup installs clang-22)")
}

#[test]
fn emit_c_writes_source_and_header_the_same_for_any_jobs() {
    let dir = tmpdir("c-emit");
    let mut texts = Vec::new();
    for jobs in ["1", "4"] {
        let c = dir.join(format!("abi_demo_j{jobs}.c"));
        let out =
            compile(&["--backend", "c", "--emit", "c", "-j", jobs, "examples/abi_demo.pir", "-o", c.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let h = std::fs::read_to_string(c.with_extension("h")).unwrap();
        assert!(h.contains("#include \"postc.h\"") && h.contains("DLTensor *"), "{h}");
        texts.push((std::fs::read(&c).unwrap(), h));
    }
    assert!(texts[0] == texts[1], "the C output depends on -j");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn examples_compile_cleanly_with_gcc_and_clang() {
    let dir = tmpdir("c-examples");
    postc_codegen::c::write_headers(&dir).unwrap();
    for ex in ["examples/abi_demo.pir", "examples/axpy.pir", "examples/saxpy.pir", "examples/saxpy.py"] {
        for level in ["-O0", "-O2"] {
            let c = dir.join("example.c");
            let out = compile(&["--backend", "c", "--emit", "c", level, ex, "-o", c.to_str().unwrap()]);
            assert!(out.status.success(), "{ex} {level}: {}", String::from_utf8_lossy(&out.stderr));
            for cc in ["gcc", clang()] {
                let out = Command::new(cc)
                    .args([
                        "-std=c11",
                        "-Wall",
                        "-Wextra",
                        "-pedantic",
                        "-Werror",
                        "-ffp-contract=off",
                        level,
                        "-c",
                        "-I",
                    ])
                    .arg(&dir)
                    .arg(&c)
                    .arg("-o")
                    .arg(dir.join("example.o"))
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{ex} {level} {cc}:\n{}", String::from_utf8_lossy(&out.stderr));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shared_library_and_executable_through_the_c_compiler() {
    let dir = tmpdir("c-link");
    let src = dir.join("prog.pir");
    std::fs::write(
        &src,
        "module prog\n\nfunc main() -> Int64 {\nentry:\n  %a: Int64 = const 40\n  %b: Int64 = const 2\n  \
         %c: Int64 = add %a, %b\n  return %c\n}\n",
    )
    .unwrap();
    let exe = dir.join("prog");
    let out = compile(&["--backend", "c", "--emit", "exe", src.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(Command::new(&exe).status().unwrap().code(), Some(42));
    let so = dir.join("libsaxpy.so");
    let out = compile(&["--backend", "c", "--emit", "shared", "examples/saxpy.pir", "-o", so.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let nm = Command::new("nm").args(["-D", "--defined-only"]).arg(&so).output().unwrap();
    let syms = String::from_utf8_lossy(&nm.stdout);
    assert!(syms.lines().any(|l| l.ends_with(" saxpy")), "{syms}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gpu_and_kernel_functions_name_the_llvm_backend() {
    let dir = tmpdir("c-gpu");
    let src = dir.join("k.pir");
    std::fs::write(
        &src,
        "module k\n\nfunc twice(%x: Float64) -> Float64 gpu {\nentry:\n  %y: Float64 = add %x, %x\n  return %y\n}\n",
    )
    .unwrap();
    let out =
        compile(&["--backend", "c", "--emit", "c", src.to_str().unwrap(), "-o", dir.join("k.c").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("`twice` is a `gpu` function") && err.contains("--backend llvm") && err.contains("k.pir:3:1"),
        "{err}"
    );
    let fallback = dir.join("f.pir");
    std::fs::write(
        &fallback,
        "module f\n\nfunc twice(%x: Float64) -> Float64 gpu(fallback) {\nentry:\n  %y: Float64 = add %x, %x\n  return %y\n}\n",
    )
    .unwrap();
    let out = compile(&[
        "--backend",
        "c",
        "--emit",
        "c",
        fallback.to_str().unwrap(),
        "-o",
        dir.join("f.c").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Calls the `NAME_loop` entry points of examples/abi_demo.pir's ufuncs in
/// libraries from both backends, with contiguous and strided operands
/// (scratch copies included), and checks that they agree with each other
/// and with the arithmetic done here.
const LOOP_MAIN: &str = r#"

/* Runs the four loops of one library; writes its results to out[]. */
static int run(void *h, double *out) {
  int at = 0;
  /* axpy: 5 elements, x every other double. */
  {
    double a[5] = {1, 2, 3, 4, 5}, x[10] = {1, 9, 2, 9, 3, 9, 4, 9, 5, 9}, y[5] = {10, 20, 30, 40, 50}, r[5];
    char *args[4] = {(char *)a, (char *)x, (char *)y, (char *)r};
    intptr_t dims[1] = {5}, steps[4] = {8, 16, 8, 8};
    get(h, "axpy_loop")(args, dims, steps, NULL);
    for (int i = 0; i < 5; i++) {
      if (r[i] != a[i] * x[2 * i] + y[i]) { fprintf(stderr, "axpy %d: %g\n", i, r[i]); return 1; }
      out[at++] = r[i];
    }
  }
  /* rowdot: 2 rows of 3, b's elements 16 bytes apart. */
  {
    double a[6] = {1, 2, 3, 4, 5, 6}, b[12] = {1, 0, 1, 0, 1, 0, 2, 0, 2, 0, 2, 0}, r[2];
    char *args[3] = {(char *)a, (char *)b, (char *)r};
    intptr_t dims[2] = {2, 3}, steps[5] = {24, 48, 8, 8, 16};
    get(h, "rowdot_loop")(args, dims, steps, NULL);
    if (r[0] != 6 || r[1] != 30) { fprintf(stderr, "rowdot: %g %g\n", r[0], r[1]); return 1; }
    out[at++] = r[0];
    out[at++] = r[1];
  }
  /* matmul: (2x3) @ (3x2), b given transposed (a scratch copy), c in C order. */
  {
    double a[6] = {1, 2, 3, 4, 5, 6}, bt[6] = {1, 3, 5, 2, 4, 6}, c[4] = {0};
    char *args[3] = {(char *)a, (char *)bt, (char *)c};
    intptr_t dims[4] = {1, 2, 3, 2}, steps[9] = {0, 0, 0, 24, 8, 8, 24, 16, 8};
    get(h, "matmul_loop")(args, dims, steps, NULL);
    /* b = [[1,2],[3,4],[5,6]] */
    if (c[0] != 22 || c[1] != 28 || c[2] != 49 || c[3] != 64) {
      fprintf(stderr, "matmul: %g %g %g %g\n", c[0], c[1], c[2], c[3]);
      return 1;
    }
    for (int i = 0; i < 4; i++) out[at++] = c[i];
  }
  /* cross: output written with a stride of 16 bytes (copied back). */
  {
    double a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, c[6] = {9, 9, 9, 9, 9, 9};
    char *args[3] = {(char *)a, (char *)b, (char *)c};
    intptr_t dims[2] = {1, 3}, steps[6] = {0, 0, 0, 8, 8, 16};
    get(h, "cross_loop")(args, dims, steps, NULL);
    if (c[0] != 0 || c[2] != 0 || c[4] != 1 || c[1] != 9) {
      fprintf(stderr, "cross: %g %g %g\n", c[0], c[2], c[4]);
      return 1;
    }
    out[at++] = c[4];
  }
  return 0;
}

int main(int argc, char **argv) {
  /* Zeroed: the loops write 12 of the 16, and memcmp compares all. */
  double first[16] = {0}, now[16] = {0};
  for (int l = 1; l < argc; l++) {
    void *h = dlopen(argv[l], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    if (run(h, l == 1 ? first : now)) { fprintf(stderr, "in %s\n", argv[l]); return 1; }
    if (l > 1 && memcmp(first, now, sizeof now) != 0) { fprintf(stderr, "%s differs\n", argv[l]); return 1; }
  }
  printf("loops ok\n");
  return 0;
}
"#;

#[test]
fn ufunc_loops_agree_with_the_llvm_backend() {
    let dir = tmpdir("c-loops");
    let mut libs = Vec::new();
    for (backend, cc) in [("llvm", "cc"), ("c", "gcc"), ("c", clang())] {
        for level in ["-O0", "-O2"] {
            let so = dir.join(format!("lib_{backend}_{}_{level}.so", cc.replace('/', "_")));
            let out = Command::new(driver())
                .current_dir(root())
                .env("CC", cc)
                .args(["compile", "--backend", backend, "--emit", "shared", level, "examples/abi_demo.pir", "-o"])
                .arg(&so)
                .output()
                .unwrap();
            assert!(out.status.success(), "{backend} {cc} {level}: {}", String::from_utf8_lossy(&out.stderr));
            libs.push(so);
        }
    }
    run_loop_main(&dir, LOOP_MAIN, &libs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the C programs that call `NAME_loop`s start with: `get(h, NAME)`,
/// the entry point `NAME` of the library `h`.
const LOOP_PRELUDE: &str = r#"#include "postc.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static postc_gufunc_loop get(void *h, const char *name) {
  postc_gufunc_loop f;
  void *p = dlsym(h, name);
  if (!p) { fprintf(stderr, "no %s\n", name); return 0; }
  memcpy(&f, &p, sizeof f);
  return f;
}
"#;

/// Compiles the C program `main` (after [`LOOP_PRELUDE`]) in `dir` and runs
/// it with the libraries `libs` as its arguments; it must succeed.
fn run_loop_main(dir: &Path, main: &str, libs: &[PathBuf]) {
    let c = dir.join("loops.c");
    std::fs::write(&c, format!("{LOOP_PRELUDE}{main}")).unwrap();
    let exe = dir.join("loops");
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(root().join("include"))
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .arg("-ldl")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(&exe).args(libs).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

/// Ufuncs whose loops are unlike abi_demo's: text elements (`postc_str`
/// pairs, loaded and stored whole) and zero extents.
const TEXT_AND_EMPTY_PIR: &str = r#"module loops
ufunc pick(%c: Bool, %a: Str, %b: Str) -> Str "(),(),()->()" {
entry:
  %r: Str = select %c, %a, %b
  return %r
}
ufunc nbytes(%b: Bytes) -> Int64 "()->()" {
entry:
  %n: Int64 = getfield %b, len
  return %n
}
ufunc length(%a: Float64[]Shape[?]) -> Int64 "(n)->()" core(%n: Int64) {
entry:
  %m: Int64 = dim %a, 0
  %both: Int64 = add %m, %n
  return %both
}
"#;

const TEXT_AND_EMPTY_MAIN: &str = r#"

static int run(void *h) {
  /* pick: c every element, a every other one (strided), out contiguous. */
  {
    unsigned char c[3] = {1, 0, 1};
    postc_str a[6] = {{"one", 3}, {0, 0}, {"two", 3}, {0, 0}, {"three", 5}, {0, 0}};
    postc_str b[3] = {{"uno", 3}, {"dos", 3}, {"tres", 4}}, r[3];
    char *args[4] = {(char *)c, (char *)a, (char *)b, (char *)r};
    intptr_t dims[1] = {3}, steps[4] = {1, 2 * sizeof(postc_str), sizeof(postc_str), sizeof(postc_str)};
    get(h, "pick_loop")(args, dims, steps, NULL);
    const char *want[3] = {"one", "dos", "three"};
    for (int i = 0; i < 3; i++) {
      if ((size_t)r[i].len != strlen(want[i]) || memcmp(r[i].ptr, want[i], (size_t)r[i].len) != 0) {
        fprintf(stderr, "pick %d: %.*s\n", i, (int)r[i].len, r[i].ptr);
        return 1;
      }
    }
  }
  /* nbytes: contiguous, then nothing at all (n = 0 leaves r alone). */
  {
    postc_bytes b[2] = {{"\x00\x01", 2}, {"", 0}};
    int64_t r[2] = {-1, -1};
    char *args[2] = {(char *)b, (char *)r};
    intptr_t dims[1] = {2}, steps[2] = {sizeof(postc_bytes), sizeof(int64_t)};
    get(h, "nbytes_loop")(args, dims, steps, NULL);
    if (r[0] != 2 || r[1] != 0) { fprintf(stderr, "nbytes: %lld %lld\n", (long long)r[0], (long long)r[1]); return 1; }
    r[0] = r[1] = -1;
    dims[0] = 0;
    get(h, "nbytes_loop")(args, dims, steps, NULL);
    if (r[0] != -1 || r[1] != -1) { fprintf(stderr, "nbytes ran %lld times\n", (long long)(r[0] != -1) + (r[1] != -1)); return 1; }
  }
  /* length (its view's extent plus its core size): rows of a zero-length
   * core, then zero rows. */
  {
    double a[1] = {7};
    int64_t r[2] = {-1, -1};
    char *args[2] = {(char *)a, (char *)r};
    intptr_t dims[2] = {2, 0}, steps[3] = {0, sizeof(int64_t), sizeof(double)};
    get(h, "length_loop")(args, dims, steps, NULL);
    if (r[0] != 0 || r[1] != 0) { fprintf(stderr, "length of empty rows: %lld %lld\n", (long long)r[0], (long long)r[1]); return 1; }
    r[0] = r[1] = -1;
    dims[0] = 0;
    dims[1] = 3;
    get(h, "length_loop")(args, dims, steps, NULL);
    if (r[0] != -1 || r[1] != -1) { fprintf(stderr, "length of no rows wrote %lld\n", (long long)r[0]); return 1; }
  }
  return 0;
}

int main(int argc, char **argv) {
  for (int l = 1; l < argc; l++) {
    void *h = dlopen(argv[l], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    if (run(h)) { fprintf(stderr, "in %s\n", argv[l]); return 1; }
  }
  printf("loops ok\n");
  return 0;
}
"#;

/// The inner loops of text and zero-extent ufuncs, from the LLVM, C and
/// QBE backends at -O0 and -O2, called with NumPy's conventions.
#[test]
fn text_and_empty_ufunc_loops_on_every_native_backend() {
    let dir = tmpdir("c-text-loops");
    let pir = dir.join("loops.pir");
    std::fs::write(&pir, TEXT_AND_EMPTY_PIR).unwrap();
    let mut libs = Vec::new();
    for backend in ["llvm", "c", "qbe"] {
        for level in ["-O0", "-O2"] {
            let so = dir.join(format!("lib_{backend}_{level}.so"));
            let out = Command::new(driver())
                .current_dir(root())
                .args(["compile", "--backend", backend, "--emit", "shared", level])
                .arg(&pir)
                .arg("-o")
                .arg(&so)
                .output()
                .unwrap();
            assert!(out.status.success(), "{backend} {level}: {}", String::from_utf8_lossy(&out.stderr));
            libs.push(so);
        }
    }
    run_loop_main(&dir, TEXT_AND_EMPTY_MAIN, &libs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Located statements carry `#line` directives naming the source line, so
/// that the compiler, a debugger and the panic agree on where code is.
#[test]
fn statements_carry_line_directives() {
    let dir = tmpdir("c-line");
    let c = dir.join("panics.c");
    let out = compile(&["--backend", "c", "--emit", "c", "-O0", "tests/py/intdiv.py", "-o", c.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&c).unwrap();
    assert!(text.contains("#line 8 \"tests/py/intdiv.py\""), "{text}");
    assert!(text.contains("panic: division by zero at tests/py/intdiv.py:8:12"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gcc_gets_the_vectoriser_cost_model_that_checks_for_overlap() {
    // gcc's -O2 vectoriser adds no run-time overlap check; clang's does
    // and takes no gcc-only flag.
    let o2 = postc_codegen::CodegenOptions::for_level(postc_codegen::OptLevel::O2);
    let o3 = postc_codegen::CodegenOptions::for_level(postc_codegen::OptLevel::O3);
    let flag = "-fvect-cost-model=cheap".to_owned();
    assert!(postc_codegen::c::c_flags(&o2, &["gcc".to_owned()]).contains(&flag));
    assert!(!postc_codegen::c::c_flags(&o3, &["gcc".to_owned()]).contains(&flag));
    assert!(!postc_codegen::c::c_flags(&o2, &["clang-22".to_owned()]).contains(&flag));
}

/// The recursion guard that `insert-checks` writes reaches the C backend
/// as two built-ins: `main` and 9998 nested calls of `down` are the
/// interpreter's 10000 frames and return, one call more panics `recursion
/// limit exceeded` at the call, at -O0 and -O2.
#[test]
fn executables_count_the_call_depth() {
    let dir = tmpdir("c-depth");
    let src = dir.join("rec.pir");
    let prog = |n: u32| {
        format!(
            "module rec\n\nfunc down(%n: Int64) -> Int64 {{\nentry:\n  %z: Int64 = const 0\n  \
             %done: Bool = le %n, %z\n  condbr %done, base, step\nbase:\n  return %z\nstep:\n  %one: Int64 = const 1\n  \
             %m: Int64 = sub %n, %one\n  %r: Int64 = call down(%m)\n  %s: Int64 = add %r, %one\n  return %s\n}}\n\n\
             func main() -> Int64 {{\nentry:\n  %n: Int64 = const {n}\n  %r: Int64 = call down(%n)\n  return %r\n}}\n"
        )
    };
    let exe = dir.join("rec");
    for level in ["-O0", "-O2"] {
        for (n, code) in [(9998, Some(9998 % 256)), (9999, None)] {
            std::fs::write(&src, prog(n)).unwrap();
            let args = ["--backend", "c", level, "--emit", "exe", src.to_str().unwrap(), "-o", exe.to_str().unwrap()];
            let out = compile(&args);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let out = Command::new(&exe).output().unwrap();
            assert_eq!(out.status.code(), code, "{level} {n}");
            if code.is_none() {
                let want = format!("panic: recursion limit exceeded at {}:13:3\n", src.display());
                assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{level}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
