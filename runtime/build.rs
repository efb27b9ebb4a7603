//! Compiles the runtime's C sources once, with full optimisation whatever
//! the profile, into `libpostc_runtime.a` in `OUT_DIR`.

const SOURCES: &[&str] = &[
    "src/arena.c",
    "src/gpu_emulation.c",
    "src/libc.c",
    "src/panic.c",
    "src/parallel.c",
    "src/print.c",
    "src/str.c",
    "src/stride.c",
];

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=include");
    let mut build = cc::Build::new();
    build
        .files(SOURCES)
        .include("include")
        .std("c11")
        .opt_level(2)
        .debug(false)
        .pic(true)
        // Everything but the exported entry points is hidden inside a
        // shared library.
        .flag("-fvisibility=hidden")
        // No calls of the C library by name that the compiler makes up
        // (copy loops as `memcpy`): see src/libc.c.
        .flag("-fno-builtin")
        .flag_if_supported("-fno-tree-loop-distribute-patterns")
        .flag_if_supported("-fno-stack-protector")
        .define("_GNU_SOURCE", None)
        .warnings(true)
        .extra_warnings(true);
    build.compile("postc_runtime");
}
