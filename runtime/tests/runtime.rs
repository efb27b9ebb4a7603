//! The runtime library on its own: `runtime_test.c` (the arena, export and
//! adoption, strings, strides, panics through a handler that leaves with
//! `longjmp`, the thread pool and the parallel ufunc loop) linked with
//! `libpostc_runtime.a`; panics without a handler; and the symbols the
//! archive references and a shared library exports.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run_ok(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// `runtime_test.c` built against the header and the library.
fn test_program(dir: &Path) -> PathBuf {
    let exe = dir.join("runtime_test");
    run_ok(
        Command::new("cc")
            .args(["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(manifest_dir().join("include"))
            .arg(manifest_dir().join("tests/runtime_test.c"))
            .arg(postc_runtime::STATIC_LIB_PATH)
            .args(["-ldl", "-lpthread", "-lm", "-o"])
            .arg(&exe),
    );
    exe
}

#[test]
fn the_runtime_does_what_its_header_says() {
    let dir = tempfile::tempdir().unwrap();
    let exe = test_program(dir.path());
    let out = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n", "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success());

    // Without a handler, or when the handler returns, or on a thread that
    // set none: the message and a newline on standard error, then SIGABRT.
    for (mode, want) in [
        ("abort", "panic: division by zero at f.py:8:12\n"),
        ("returns", "panic: the handler returned\n"),
        ("thread", "panic: from another thread at t.py:1:1\n"),
    ] {
        let out = Command::new(&exe).arg(mode).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{mode}");
        assert_eq!(out.status.signal(), Some(6), "{mode}: {:?}", out.status);
    }
}

/// Names the archive may leave to others: the loader's `dlopen` and
/// `dlsym`, names reserved for the implementation, its own.
fn allowed_undefined(name: &str) -> bool {
    matches!(name, "dlopen" | "dlsym")
        || name.starts_with("__")
        || name.starts_with("_GLOBAL_OFFSET_TABLE_")
        || name.starts_with("postc_rt_")
}

#[test]
fn the_archive_calls_no_c_library_function_by_name() {
    // A program may export `malloc` or `write` (docs/abi.md §1): the
    // runtime reaches the C library through dlsym only.
    let out = run_ok(Command::new("nm").args(["-u", "--format=just-symbols"]).arg(postc_runtime::STATIC_LIB_PATH));
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text.lines().filter(|l| !l.is_empty() && !l.ends_with(':')).collect();
    assert!(names.contains(&"dlsym"), "{names:?}");
    let bad: Vec<&&str> = names.iter().filter(|n| !allowed_undefined(n)).collect();
    assert!(bad.is_empty(), "the runtime references {bad:?}");
}

#[test]
fn a_shared_library_exports_the_entry_points_only() {
    let dir = tempfile::tempdir().unwrap();
    let so = dir.path().join("librt.so");
    run_ok(
        Command::new("cc")
            .args(["-shared", "-o"])
            .arg(&so)
            .arg("-Wl,--whole-archive")
            .arg(postc_runtime::STATIC_LIB_PATH)
            .arg("-Wl,--no-whole-archive")
            .arg("-ldl"),
    );
    let out = run_ok(Command::new("nm").args(["-D", "--defined-only", "--format=just-symbols"]).arg(&so));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut exported: Vec<&str> = text.lines().filter(|n| n.starts_with("postc_rt_")).collect();
    exported.sort();
    let mut want = postc_runtime::EXPORTED.to_vec();
    want.sort();
    assert_eq!(exported, want);
}

#[test]
fn the_header_and_library_are_written_out() {
    let dir = tempfile::tempdir().unwrap();
    let lib = postc_runtime::write_to(&dir.path().join("rt")).unwrap();
    assert_eq!(lib, dir.path().join("rt/libpostc_runtime.a"));
    assert_eq!(std::fs::read(&lib).unwrap(), postc_runtime::STATIC_LIB);
    let header = std::fs::read_to_string(dir.path().join("rt/postc_runtime.h")).unwrap();
    for name in postc_runtime::EXPORTED {
        assert!(header.contains(name), "{name}");
    }
}
