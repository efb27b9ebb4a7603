//! `postc-driver compile -g` under gdb: a shared library compiled from a
//! POST Python file, called from a small C program, stops at a `.py` line
//! inside a loop, prints locals and arguments (and an array through its
//! `DLTensor`), and its backtrace names the `.py` file, line and function;
//! through the LLVM backend at -O0 and at -O2 (a private function inlined
//! into the loop is a frame of its own), through the C backend at -O0,
//! and through the QBE backend (lines and functions, no variables). A panic
//! stops in the runtime with the outlined panic path and the function that
//! panicked on the stack, both at the `.py` line. gdb, the C compiler and
//! LLVM come from `scripts/setup`.

use std::path::Path;
use std::process::Command;

fn driver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_postc-driver"))
}

fn run_ok(c: &mut Command) -> String {
    let out = c.output().unwrap_or_else(|e| panic!("{c:?}: {e}"));
    assert!(out.status.success(), "{c:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The kernel; its line numbers are what the tests break at.
const KERNEL: &str = r#""""Sums for the debugger."""
from postyp import Float64, Int64

__all__ = ["total", "pick"]


def scaled(a: Float64) -> Float64:
    """2a: private, so LLVM inlines it at -O2."""
    return 2.0 * a


def total(x: Float64[:]) -> Float64:
    """The sum of 2 x[i]."""
    s = 0.0
    for i in range(len(x)):
        s += scaled(x[i])
    return s


def pick(x: Float64[:], k: Int64) -> Float64:
    """x[k]: out of bounds, a panic."""
    return x[k]
"#;

/// `scaled`'s body, `total`'s loop body, `pick`'s return.
const SCALED_LINE: u32 = 9;
const LOOP_LINE: u32 = 16;
const PICK_LINE: u32 = 22;

/// Calls `total` on 1, 2, ..., 100, then (with an argument) `pick` out of
/// bounds.
const MAIN_C: &str = r#"#include "postc.h"
#include <stdio.h>

double total(DLTensor *x);
double pick(DLTensor *x, int64_t k);

int main(int argc, char **argv) {
    (void)argv;
    double xs[100];
    for (int i = 0; i < 100; i++) xs[i] = i + 1;
    int64_t n = 100;
    DLTensor x = {xs, {kDLCPU, 0}, 1, {kDLFloat, 64, 1}, &n, NULL, 0};
    printf("%g\n", total(&x));
    if (argc > 1) printf("%g\n", pick(&x, 100));
    return 0;
}
"#;

/// Builds `libkernel.so` with `flags` and the C program `main` calling it,
/// in `dir` (the kernel is `kernel.py` there, compiled from `dir`).
fn build(dir: &Path, flags: &[&str]) {
    std::fs::write(dir.join("kernel.py"), KERNEL).unwrap();
    std::fs::write(dir.join("main.c"), MAIN_C).unwrap();
    run_ok(
        driver()
            .current_dir(dir)
            .args(["compile", "-g", "--emit", "shared", "kernel.py", "-o", "libkernel.so"])
            .args(flags),
    );
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../include");
    run_ok(
        Command::new("cc")
            .current_dir(dir)
            .args(["-g", "main.c", "-o", "main", "-L.", "-lkernel", "-Wl,-rpath,$ORIGIN", "-I"])
            .arg(include),
    );
}

/// gdb in batch mode on `main` (with `args`), running `commands`; its
/// standard output and error.
fn gdb(dir: &Path, commands: &[&str], args: &[&str]) -> String {
    let mut c = Command::new("gdb");
    c.current_dir(dir).args(["-nx", "-batch", "-ex", "set debuginfod enabled off", "-ex", "set breakpoint pending on"]);
    for cmd in commands {
        c.args(["-ex", cmd]);
    }
    c.arg("--args").arg("./main").args(args);
    let out = c.output().unwrap_or_else(|e| panic!("cannot run gdb (scripts/setup installs it): {e}"));
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The line of `text` that starts with `prefix` (a backtrace frame).
fn frame<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no line `{prefix}...` in:\n{text}"))
}

#[test]
fn llvm_o0_stops_in_a_loop_with_locals_arguments_and_a_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &["-O0"]);
    let out = gdb(
        dir.path(),
        &[
            &format!("break kernel.py:{LOOP_LINE} if i == 2"),
            "run",
            "print s",
            "print i",
            "info args",
            "info locals",
            "print x->data[2]",
            "print x->shape[0]",
            "print *x",
            "bt",
        ],
        &[],
    );
    assert!(out.contains("total (x=0x"), "{out}");
    // s = 2 * (1 + 2) before the third iteration adds 2 * 3.
    assert!(out.contains("$1 = 6\n"), "{out}");
    assert!(out.contains("$2 = 2\n"), "{out}");
    assert!(out.contains("\nx = 0x"), "info args: {out}");
    assert!(out.contains("\ns = 6\n") && out.contains("\ni = 2\n"), "info locals: {out}");
    assert!(out.contains("$3 = 3\n") && out.contains("$4 = 100\n"), "{out}");
    assert!(out.contains("ndim = 1") && out.contains("strides = 0x0"), "{out}");
    let top = frame(&out, "#0 ");
    assert!(top.contains("total (x=0x") && top.ends_with(&format!("at kernel.py:{LOOP_LINE}")), "{out}");
    assert!(frame(&out, "#1 ").contains(" in main ("), "{out}");
}

#[test]
fn llvm_o2_shows_an_inlined_function_as_a_frame() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &["-O2"]);
    let out = gdb(dir.path(), &[&format!("break kernel.py:{SCALED_LINE}"), "run", "bt"], &[]);
    let top = frame(&out, "#0 ");
    assert!(top.contains("scaled (") && top.ends_with(&format!("at kernel.py:{SCALED_LINE}")), "{out}");
    let caller = frame(&out, "#1 ");
    assert!(caller.contains("total (") && caller.ends_with(&format!("at kernel.py:{LOOP_LINE}")), "{out}");
    assert!(frame(&out, "#2 ").contains(" in main ("), "{out}");
}

#[test]
fn a_panic_stops_with_the_panic_path_and_the_function_at_their_line() {
    for level in ["-O0", "-O2"] {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), &[level]);
        let out = gdb(dir.path(), &["break postc_rt_panic", "run", "bt"], &["oob"]);
        let at = format!("at kernel.py:{PICK_LINE}");
        let frames: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
        assert!(frames.iter().any(|f| f.contains(" postc_rt_panic (")), "{level}: {out}");
        assert!(frames.iter().any(|f| f.contains("postc.cold.panic.") && f.ends_with(&at)), "{level}: {out}");
        assert!(frames.iter().any(|f| f.contains("pick (") && f.ends_with(&at)), "{level}: {out}");
    }
}

#[test]
fn c_backend_o0_stops_in_a_loop_with_locals_and_a_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &["-O0", "--backend", "c"]);
    let out = gdb(
        dir.path(),
        &[&format!("break kernel.py:{LOOP_LINE} if v_i == 2"), "run", "print v_s", "print v_i", "info args", "bt"],
        &[],
    );
    assert!(out.contains("$1 = 6\n") && out.contains("$2 = 2\n"), "{out}");
    assert!(out.contains("\nv_x = 0x"), "info args: {out}");
    let top = frame(&out, "#0 ");
    assert!(top.contains("total (v_x=0x") && top.ends_with(&format!("kernel.py:{LOOP_LINE}")), "{out}");
    assert!(frame(&out, "#1 ").contains(" in main ("), "{out}");
}

#[test]
fn qbe_backend_stops_at_a_line_with_a_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), &["-O0", "--backend", "qbe"]);
    let out = gdb(dir.path(), &[&format!("break kernel.py:{LOOP_LINE}"), "run", "bt"], &[]);
    let top = frame(&out, "#0 ");
    assert!(top.contains("total (") && top.ends_with(&format!("at kernel.py:{LOOP_LINE}")), "{out}");
    assert!(frame(&out, "#1 ").contains(" in main ("), "{out}");
}
