//! Compiles `src/cpu.cpp` (a query LLVM's C API lacks) against LLVM's
//! headers, and makes the `.expected` reader of `ir/tests/programs.rs`
//! includable by this crate's tests: inner doc comments and `#[test]`
//! markers are dropped, and `ir/tests/support/` (the shared case parser it
//! includes) is copied beside.

fn main() {
    cpu_query();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/tests/programs.rs");
    println!("cargo:rerun-if-changed={}", src.display());
    let text = std::fs::read_to_string(&src).unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//!") || t == "#[test]" {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(out_dir.join("expected_format.rs"), out).unwrap();
    // Its `#[path]` modules (the shared case parser) resolve beside it.
    let support = src.parent().unwrap().join("support");
    println!("cargo:rerun-if-changed={}", support.display());
    if let Ok(entries) = std::fs::read_dir(&support) {
        std::fs::create_dir_all(out_dir.join("support")).unwrap();
        for e in entries.flatten() {
            println!("cargo:rerun-if-changed={}", e.path().display());
            std::fs::copy(e.path(), out_dir.join("support").join(e.file_name())).unwrap();
        }
    }
}

/// `src/cpu.cpp`, with LLVM's own `clang++` when it is installed beside
/// the LLVM that `LLVM_SYS_221_PREFIX` names.
fn cpu_query() {
    println!("cargo:rerun-if-changed=src/cpu.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_221_PREFIX");
    let prefix = std::env::var("LLVM_SYS_221_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let prefix = std::path::Path::new(&prefix);
    let mut build = cc::Build::new();
    build.cpp(true).file("src/cpu.cpp").include(prefix.join("include")).std("c++17").flag("-fno-exceptions");
    for d in ["_GNU_SOURCE", "__STDC_CONSTANT_MACROS", "__STDC_FORMAT_MACROS", "__STDC_LIMIT_MACROS"] {
        build.define(d, None);
    }
    let clang = prefix.join("bin/clang++");
    if clang.is_file() && std::env::var_os("CXX").is_none() {
        build.compiler(clang);
    }
    build.warnings(false).compile("postc_cpu");
}
