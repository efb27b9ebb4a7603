//! Shared by the integration tests that drive the compiler from outside:
//! the repository root, a scratch directory, and `postc-driver` with the GPU
//! runtime library built into this test build's target directory (they are
//! other packages, so cargo does not build them for these tests).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A directory for one test's files, inside the build's target directory
/// (never the system's temporary directory, where the libraries and
/// harnesses of every run would pile up): emptied on its first use in a
/// process, so each run starts clean and leaves one copy behind for a look.
/// Named after the test binary, so two test files may use the same name.
pub fn tmpdir(name: &str) -> PathBuf {
    static MADE: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let test = std::env::current_exe().ok().and_then(|e| e.file_stem().map(|s| s.to_string_lossy().into_owned()));
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", test.unwrap_or_default()));
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if !made.iter().any(|m| m == name) {
        let _ = std::fs::remove_dir_all(&d);
        made.push(name.to_owned());
    }
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The `postc-driver` of this build, with `libpostc_runtime_gpu.a` beside it.
pub fn driver() -> &'static Path {
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    DRIVER.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let target_dir = profile_dir.parent().unwrap();
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "-q", "-p", "postc-driver", "-p", "postc-runtime-gpu"])
            .env("CARGO_TARGET_DIR", target_dir)
            .current_dir(root());
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().expect("cargo").success(), "building postc-driver / postc-runtime-gpu failed");
        assert!(profile_dir.join("libpostc_runtime_gpu.a").is_file());
        profile_dir.join("postc-driver")
    })
}

/// The backends whose libraries the ABI tests call (the same tests for each).
pub const BACKENDS: [&str; 3] = ["llvm", "qbe", "c"];

/// `examples/abi_demo.pir` as a shared library at -O`level`.
pub fn demo_library(dir: &Path, level: u8) -> PathBuf {
    demo_library_with(dir, level, "llvm")
}

/// `examples/abi_demo.pir` as a shared library at -O`level` made by `backend`.
pub fn demo_library_with(dir: &Path, level: u8, backend: &str) -> PathBuf {
    let lib = dir.join(format!("libabi_demo_{backend}_O{level}.so"));
    shared_library_with("examples/abi_demo.pir", level, &lib, backend);
    lib
}

/// Compiles `source` (a path from the repository root) at -O`level` into
/// the shared library `lib`.
pub fn shared_library(source: &str, level: u8, lib: &Path) {
    shared_library_with(source, level, lib, "llvm")
}

/// [`shared_library`] through `backend`.
pub fn shared_library_with(source: &str, level: u8, lib: &Path, backend: &str) {
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--backend", backend, &format!("-O{level}"), "--emit", "shared", source, "-o"])
        .arg(lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "postc-driver compile failed:\n{}", String::from_utf8_lossy(&out.stderr));
}

/// DLPack's `DLTensor`, laid out as `include/postc.h` declares it.
#[repr(C)]
pub struct DLTensor {
    pub data: *mut std::ffi::c_void,
    pub device: [i32; 2],
    pub ndim: i32,
    pub dtype: [u8; 4],
    pub shape: *mut i64,
    pub strides: *mut i64,
    pub byte_offset: u64,
}

/// The fenced block of docs/abi.md starting with `start`, and the ```text
/// block after it (the output the example prints).
pub fn doc_example(doc: &str, start: &str) -> (String, String) {
    let at = doc.find(start).unwrap_or_else(|| panic!("docs/abi.md has no block starting {start:?}"));
    let body = &doc[at + start.find('\n').unwrap() + 1..];
    let end = body.find("\n```\n").unwrap();
    let code = body[..end + 1].to_string();
    let rest = &body[end + 5..];
    let t = rest.find("```text\n").expect("an output block") + 8;
    let out_end = rest[t..].find("```\n").unwrap();
    (code, rest[t..t + out_end].to_string())
}

/// A gufunc whose core operand's type declares its stride: its body reads
/// every second Float64 (`colsum_loop` must refuse any other core step).
pub const DECLARED_STRIDES_PIR: &str = "module strided\n\
ufunc colsum(%a: Float64[]Shape[?]Strides[16]) -> Float64 \"(n)->()\" core(%n: Int64) {\n\
entry:\n  %zero: Float64 = const 0.0\n  %i0: Int64 = const 0\n  let %acc: Float64 = %zero\n  let %i: Int64 = %i0\n  br head\n\
head:\n  %more: Bool = lt %i, %n\n  condbr %more, body, done\n\
body:\n  %x: Float64 = index.load %a[%i]\n  %acc2: Float64 = add %acc, %x\n  set %acc = %acc2\n\
  %one: Int64 = const 1\n  %next: Int64 = add %i, %one\n  set %i = %next\n  br head\n\
done:\n  return %acc\n}\n";

/// An object file of the compiler linked with the host runtime into
/// `dir/libSTEM.so` (the object is kept beside it as `STEM.o`).
pub fn link_with_runtime(dir: &Path, stem: &str, obj: &[u8]) -> PathBuf {
    let o = dir.join(format!("{stem}.o"));
    std::fs::write(&o, obj).unwrap();
    let so = dir.join(format!("lib{stem}.so"));
    let st = Command::new("cc")
        .arg("-shared")
        .arg("-o")
        .arg(&so)
        .arg(&o)
        .arg(postc_runtime::STATIC_LIB_PATH)
        .args(["-lm", "-ldl"])
        .status()
        .unwrap();
    assert!(st.success(), "linking {} failed", o.display());
    so
}
