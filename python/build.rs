//! Compiles the C shim that calls compiled code with a panic handler set
//! (src/guard.c: setjmp/longjmp cannot be written in Rust).

fn main() {
    println!("cargo:rerun-if-changed=src/guard.c");
    cc::Build::new().file("src/guard.c").opt_level(2).warnings(true).compile("postc_py_guard");
    // The shim calls libffi's `ffi_call`.
    println!("cargo:rustc-link-lib=ffi");
}
