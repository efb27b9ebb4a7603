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
  double first[16], now[16];
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

/// The software Float16 of compilers without `_Float16` rounds as the
/// IR's reference does (`postc_ir::body::f16_from_f64`) and widens exactly.
#[test]
fn float16_fallback_rounds_once_to_nearest_even() {
    let dir = tmpdir("c-f16");
    let mut xs: Vec<f64> = vec![0.0, -0.0, 1.0, -1.5, 65504.0, 65519.99, 65520.0, 1e-8, 5.960464477539063e-8, 2.98e-8];
    xs.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 0.1, 1.0 / 3.0, -2049.0, 2049.0, 6.1e-5, 3.0e-5]);
    let mut seed = 0x2545f4914f6cdd1du64;
    for _ in 0..20000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Doubles around Float16's range, with every kind of tail.
        let e = (seed >> 52) as i32 % 48 - 30;
        let m = 1.0 + (seed & 0xf_ffff_ffff_ffff) as f64 / (1u64 << 52) as f64;
        xs.push(if seed & 1 == 0 { m * 2f64.powi(e) } else { -m * 2f64.powi(e) });
    }
    let input: String = xs.iter().map(|x| format!("{}\n", x.to_bits())).collect();
    let main = format!(
        "#define POSTC_NO_FLOAT16 1\n{}\n{}\nint main(void) {{\n  unsigned long long b;\n  \
         while (scanf(\"%llu\", &b) == 1) {{\n    double x = postc_f64_bits(b);\n    postc_f16 h = postc_f16_from_d(x);\n    \
         float w = postc_f16_to_f(h);\n    uint32_t wb;\n    memcpy(&wb, &w, 4);\n    printf(\"%u %u\\n\", (unsigned)h, (unsigned)wb);\n  }}\n  return 0;\n}}\n",
        "#include <stdio.h>\n#include \"postc.h\"\n#include <string.h>\n#define POSTC_HELPER static inline __attribute__((unused))\n\
         POSTC_HELPER double postc_f64_bits(uint64_t bits) { double x; memcpy(&x, &bits, sizeof x); return x; }",
        postc_codegen::c::helpers::FLOAT16
    );
    let c = dir.join("f16.c");
    std::fs::write(&c, main).unwrap();
    std::fs::write(dir.join("postc.h"), postc_codegen::c::POSTC_H).unwrap();
    let exe = dir.join("f16");
    let out = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-I"])
        .arg(&dir)
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let inp = dir.join("input.txt");
    std::fs::write(&inp, input).unwrap();
    let out = Command::new(&exe).stdin(std::fs::File::open(&inp).unwrap()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), xs.len());
    for (x, l) in xs.iter().zip(lines) {
        let (h, w) = l.split_once(' ').unwrap();
        let (h, w): (u16, u32) = (h.parse().unwrap(), w.parse().unwrap());
        let want = postc_ir::body::f16_from_f64(*x);
        if x.is_nan() {
            assert!(half::f16::from_bits(h).is_nan(), "{x}: {h:#x}");
            continue;
        }
        assert_eq!(h, want.to_bits(), "{x:e}: {h:#06x}, expected {:#06x}", want.to_bits());
        assert_eq!(f32::from_bits(w), want.to_f32(), "widening {h:#06x}");
    }
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
