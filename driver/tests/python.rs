//! POST Python through the command line: `lower` writes IR that `check`
//! accepts and `fmt` leaves unchanged, `run` calls a `.py` function in the
//! interpreter, `compile` builds an executable from `.py` and `.pir`
//! modules that import each other, a runtime panic names the `.py` line,
//! and a bad file is a located diagnostic with exit status 1.

use std::path::{Path, PathBuf};
use std::process::Command;

fn driver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_postc-driver"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p
}

fn run_ok(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{c:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

const KERNELS: &str = r#""""Kernels."""
from postyp import Int64, Float64
from util.steps import halve

def collatz(n0: Int64) -> Int64:
    n = n0
    s = 0
    while n != 1:
        n = halve(n) if n % 2 == 0 else 3 * n + 1
        s += 1
    return s

def main() -> Int64:
    return collatz(27) - 100

def div(a: Int64, b: Int64) -> Int64:
    return a // b
"#;

const STEPS_PIR: &str = "module util.steps

func halve(%n: Int64) -> Int64 {
entry:
  %two: Int64 = const 2
  %h: Int64 = fdiv %n, %two
  return %h
}
";

#[test]
fn lower_writes_ir_that_check_accepts_and_fmt_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "kernels.py", KERNELS);
    write(dir.path(), "util/steps.pir", STEPS_PIR);
    let pir = dir.path().join("kernels.pir");
    run_ok(driver().arg("lower").arg(&py).arg("-o").arg(&pir));
    let text = std::fs::read_to_string(&pir).unwrap();
    assert!(text.starts_with("module kernels\n"), "{text}");
    assert!(text.contains("import post util.steps: halve"), "{text}");
    run_ok(driver().arg("check").arg(&pir));
    run_ok(driver().arg("fmt").arg("--check").arg(&pir));
    // `fmt` of the `.py` prints the same IR.
    let shown = run_ok(driver().arg("fmt").arg(&py));
    assert_eq!(String::from_utf8_lossy(&shown.stdout), text);
}

#[test]
fn run_and_compile_take_python_and_ir_together() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "kernels.py", KERNELS);
    write(dir.path(), "util/steps.pir", STEPS_PIR);
    let out = run_ok(driver().arg("run").arg(&py).args(["--entry", "collatz", "--", "27"]));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "111\n");
    let exe = dir.path().join("kernels");
    run_ok(driver().arg("compile").arg(&py).args(["--emit", "exe", "-o"]).arg(&exe));
    let status = Command::new(&exe).status().unwrap();
    assert_eq!(status.code(), Some(11), "main returns collatz(27) - 100");
}

#[test]
fn a_runtime_panic_names_the_python_line() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "kernels.py", KERNELS);
    write(dir.path(), "util/steps.pir", STEPS_PIR);
    let out = driver().arg("run").arg(&py).args(["--entry", "div", "--", "7", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(101));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end(), format!("panic: division by zero at {}:17:12", py.display()));
}

#[test]
fn a_bad_file_is_a_located_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "bad.py", "from postyp import Int64\n\ndef f(x: Int64) -> Int64:\n    return x + y\n");
    for cmd in ["check", "lower", "compile"] {
        let out = driver().arg(cmd).arg(&py).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error: undefined name `y`"), "{cmd}: {err}");
        assert!(err.contains(&format!("{}:4:16", py.display())), "{cmd}: {err}");
    }
}

/// `--backend` picks the backend by name; an unknown one is a usage error
/// (status 2) listing the backends.
#[test]
fn backend_is_chosen_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let py = write(dir.path(), "k.py", "from postyp import Int64\n\ndef f(x: Int64) -> Int64:\n    return x + 1\n");
    let out = driver()
        .arg("compile")
        .arg(&py)
        .args(["--backend", "nope", "-o"])
        .arg(dir.path().join("k.o"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown backend `nope` (backends: llvm, c, qbe, wasm)"), "{err}");
    run_ok(driver().arg("compile").arg(&py).args(["--backend", "llvm", "-o"]).arg(dir.path().join("k.o")));
    assert!(dir.path().join("k.o").is_file());
    run_ok(driver().arg("compile").arg(&py).args(["--backend", "c", "-o"]).arg(dir.path().join("kc.o")));
    assert!(dir.path().join("kc.o").is_file());
    run_ok(driver().arg("compile").arg(&py).args(["--backend", "qbe", "-o"]).arg(dir.path().join("kq.o")));
    assert!(dir.path().join("kq.o").is_file());
    // A kind the backend does not make is a usage error listing those it makes.
    let out = driver().arg("compile").arg(&py).args(["--backend", "c", "--emit", "llvm-ir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the c backend cannot emit `llvm-ir` (it emits: c, c-header, obj)"), "{err}");
}
