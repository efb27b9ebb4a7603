//! Compiles `src/llvm/cpu.cpp` (a query LLVM's C API lacks) against LLVM's
//! headers.

fn main() {
    cpu_query();
}

/// `src/llvm/cpu.cpp`, with LLVM's own `clang++` when it is installed beside
/// the LLVM that `LLVM_SYS_221_PREFIX` names.
fn cpu_query() {
    println!("cargo:rerun-if-changed=src/llvm/cpu.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_221_PREFIX");
    let prefix = std::env::var("LLVM_SYS_221_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let prefix = std::path::Path::new(&prefix);
    let mut build = cc::Build::new();
    build.cpp(true).file("src/llvm/cpu.cpp").include(prefix.join("include")).std("c++17").flag("-fno-exceptions");
    for d in ["_GNU_SOURCE", "__STDC_CONSTANT_MACROS", "__STDC_FORMAT_MACROS", "__STDC_LIMIT_MACROS"] {
        build.define(d, None);
    }
    let clang = prefix.join("bin/clang++");
    if clang.is_file() && std::env::var_os("CXX").is_none() {
        build.compiler(clang);
    }
    build.warnings(false).compile("postc_cpu");
}
