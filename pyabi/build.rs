//! Compiles the C shim that calls compiled code with a panic handler set
//! (src/guard.c: setjmp/longjmp cannot be written in Rust), and records
//! the CPython version PyO3 builds for: the static library's code follows
//! that version's object layouts, so an extension module that links it
//! works with that version only; with the feature `abi3`, that version and
//! every later one (CPython's stable ABI).

fn main() {
    println!("cargo:rerun-if-changed=src/guard.c");
    cc::Build::new().file("src/guard.c").opt_level(2).warnings(true).compile("postc_py_guard");
    // The shim calls libffi's `ffi_call`.
    println!("cargo:rustc-link-lib=ffi");
    let config = pyo3_build_config::get();
    println!("cargo:rustc-env=POSTC_PYABI_PYTHON={}.{}", config.version.major, config.version.minor);
}
