//! The runtime library as users link it: `postc-driver runtime` writes it
//! and its header; an `--emit obj` object linked with it, and an `--emit
//! shared` library, export the four entry points and no other runtime
//! symbol; a C caller's panic handler gets the exact message, leaves the
//! call with `longjmp`, releases the arena to its mark, and the next calls
//! work. The runtime's C sources that `runtime` writes too build with
//! `--emit c` output under a plain C11 compiler into the same program.

use std::path::{Path, PathBuf};
use std::process::Command;

fn driver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_postc-driver"))
}

fn run_ok(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{c:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

const PROG: &str = r#"module m
export pick, scratch

func pick(%x: Float64[]Shape[?], %i: Int64) -> Float64 {
entry:
  %r: Float64 = index.load %x[%i] !loc "m.py":3:12
  return %r
}

func scratch(%n: Int64, %i: Int64) -> Int64 {
entry:
  %a: Int64[] = alloc %n
  %x: Int64 = index.load %a[%i] !loc "m.py":7:5
  %k: Int64 = dim %a, 0
  %r: Int64 = add %x, %k
  return %r
}
"#;

const CALLER: &str = r#"#include "postc.h"
#include "postc_runtime.h"
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

double pick(DLTensor *x, int64_t i);
int64_t scratch(int64_t n, int64_t i);

static jmp_buf escape;
static char message[256];

static void on_panic(const char *msg, size_t len, void *data) {
  snprintf(message, sizeof message, "%.*s|%s", (int)len, msg, (const char *)data);
  longjmp(escape, 1);
}

int main(void) {
  double xs[3] = {1.5, 2.5, 3.5};
  int64_t n = 3;
  DLTensor x = {xs, {kDLCPU, 0}, 1, POSTC_DTYPE_FLOAT64, &n, NULL, 0};
  postc_rt_set_panic_handler(on_panic, "data");
  for (int round = 0; round < 2; round++) {
    void *mark = postc_rt_arena_mark();
    if (setjmp(escape) == 0) {
      pick(&x, 5);
      printf("no panic\n");
    } else {
      postc_rt_arena_release(mark);
      printf("%s\n", message);
    }
    printf("%g\n", pick(&x, 1));
    if (setjmp(escape) == 0) {
      scratch(4, 9);
      printf("no panic\n");
    } else {
      /* The array `scratch` allocated is still in the arena. */
      printf("held: %d\n", postc_rt_arena_mark() != mark);
      postc_rt_arena_release(mark);
      printf("%s\n", message);
    }
    printf("%lld released: %d\n", (long long)scratch(4, 2), postc_rt_arena_mark() == mark);
  }
  return 0;
}
"#;

const WANT: &str = "panic: index out of bounds: index 5 is out of range for axis 0 with size 3 at m.py:3:12|data
2.5
held: 1
panic: index out of bounds: index 9 is out of range for axis 0 with size 4 at m.py:7:5|data
4 released: 1
";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The dynamic symbols `so` defines whose names start with `postc_rt_`.
fn exported_runtime_symbols(so: &Path) -> Vec<String> {
    let out = run_ok(Command::new("nm").args(["-D", "--defined-only", "--format=just-symbols"]).arg(so));
    let mut v: Vec<String> =
        String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with("postc_rt_")).map(String::from).collect();
    v.sort();
    v
}

#[test]
fn objects_link_with_the_written_runtime_and_panics_reach_the_handler() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rt = d.join("rt");
    let out = run_ok(driver().args(["runtime", "--out-dir"]).arg(&rt));
    let lib = rt.join("libpostc_runtime.a");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\n{}\n{}\n", lib.display(), rt.join("postc_runtime.h").display(), rt.join("src").display())
    );
    assert!(lib.is_file());

    let src = d.join("m.pir");
    std::fs::write(&src, PROG).unwrap();
    let caller = d.join("caller.c");
    std::fs::write(&caller, CALLER).unwrap();
    let mut want_exports = vec![
        "postc_rt_arena_mark".to_owned(),
        "postc_rt_arena_release".into(),
        "postc_rt_get_num_threads".into(),
        "postc_rt_panic".into(),
        "postc_rt_parallel_ufunc_loop".into(),
        "postc_rt_set_num_threads".into(),
        "postc_rt_set_panic_handler".into(),
        "postc_rt_set_print_handler".into(),
    ];
    want_exports.sort();
    for level in ["-O0", "-O2"] {
        // An object linked by hand with the written library ...
        let obj = d.join("m.o");
        run_ok(driver().args(["compile", level, "--emit", "obj", "-o"]).arg(&obj).arg(&src));
        let by_hand = d.join("libbyhand.so");
        run_ok(Command::new("cc").arg("-shared").arg("-o").arg(&by_hand).arg(&obj).arg(&lib).args(["-lm", "-ldl"]));
        // ... and the driver's own shared library.
        let shared = d.join("libm_shared.so");
        run_ok(driver().args(["compile", level, "--emit", "shared", "-o"]).arg(&shared).arg(&src));
        for so in [&by_hand, &shared] {
            // An object linked by hand pulls in the thread pool (and its
            // exported functions) only when it runs a `prange` loop, and
            // the print handler's setter only when it prints.
            let mut want = want_exports.clone();
            if so == &by_hand {
                want.retain(|s| {
                    !s.ends_with("_num_threads")
                        && !s.ends_with("_parallel_ufunc_loop")
                        && !s.ends_with("_print_handler")
                });
            }
            assert_eq!(exported_runtime_symbols(so), want, "{}", so.display());
            let exe = d.join("caller");
            run_ok(
                Command::new("cc")
                    .args(["-std=c11", "-Wall", "-Werror", "-I"])
                    .arg(root().join("include"))
                    .arg("-I")
                    .arg(&rt)
                    .arg(&caller)
                    .arg(so)
                    .arg(format!("-Wl,-rpath,{}", d.display()))
                    .arg("-o")
                    .arg(&exe),
            );
            let out = run_ok(&mut Command::new(&exe));
            assert_eq!(String::from_utf8_lossy(&out.stdout), WANT.repeat(2), "{level} {}", so.display());
        }
    }
}

/// A library whose code never allocates nor panics still exports the
/// handler and arena entry points, for every backend that links one.
#[test]
fn every_shared_library_exports_the_handler_entry_points() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("plain.pir");
    std::fs::write(&src, "module plain\nexport f\n\nfunc f(%a: Int64) -> Int64 {\nentry:\n  return %a\n}\n").unwrap();
    let mut want: Vec<String> = postc_runtime::EXPORTED.iter().map(|s| s.to_string()).collect();
    want.sort();
    for backend in ["llvm", "c", "qbe"] {
        let so = dir.path().join(format!("libplain_{backend}.so"));
        run_ok(driver().args(["compile", "--backend", backend, "--emit", "shared", "-o"]).arg(&so).arg(&src));
        assert_eq!(exported_runtime_symbols(&so), want, "--backend {backend}");
    }
}

/// Portable output: `--emit c` and the runtime's C sources, compiled by
/// `cc -std=c11` with no other file of postc's (no prebuilt library, the
/// headers from the runtime's directory), make a program whose panics,
/// handler and arena behave as above.
#[test]
fn c_output_builds_with_the_written_runtime_sources_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rt = d.join("rt");
    run_ok(driver().args(["runtime", "--out-dir"]).arg(&rt));
    std::fs::write(d.join("m.pir"), PROG).unwrap();
    std::fs::write(d.join("caller.c"), CALLER).unwrap();
    run_ok(driver().args(["compile", "--backend", "c", "--emit", "c", "-o"]).arg(d.join("m.c")).arg(d.join("m.pir")));
    let mut sources: Vec<PathBuf> = std::fs::read_dir(rt.join("src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 5, "{sources:?}");
    let exe = d.join("portable");
    run_ok(
        Command::new("cc")
            .args(["-std=c11", "-Wall", "-Werror", "-O1", "-I"])
            .arg(&rt)
            .arg("-I")
            .arg(rt.join("src"))
            .arg(d.join("caller.c"))
            .arg(d.join("m.c"))
            .args(&sources)
            .args(["-lm", "-o"])
            .arg(&exe),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(String::from_utf8_lossy(&out.stdout), WANT.repeat(2));
}
