//! postc-runtime: the host runtime that code compiled by postc calls (the
//! per-thread arena and DLPack export, strings, panics and their handler,
//! the thread pool and the parallel ufunc loop), C sources built once by
//! the build script into the static library `libpostc_runtime.a`.
//!
//! Every shared library and executable postc makes links it; a user who
//! links `--emit obj` output links it too (docs/abi.md). Its header,
//! [`HEADER`], declares what it defines; the names are those of
//! `postc_codegen::abi`. The library is also linked into this crate, so
//! Rust code (the tests) can call it directly.

use std::path::{Path, PathBuf};

/// The file name of the static library.
pub const STATIC_LIB_NAME: &str = "libpostc_runtime.a";
/// The file name of the header.
pub const HEADER_NAME: &str = "postc_runtime.h";

/// The static library's bytes (built for the host).
pub const STATIC_LIB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libpostc_runtime.a"));
/// Where the build put the static library (valid on the machine that built
/// this crate, as long as the build directory is there).
pub const STATIC_LIB_PATH: &str = concat!(env!("OUT_DIR"), "/libpostc_runtime.a");
/// The header, `runtime/include/postc_runtime.h`.
pub const HEADER: &str = include_str!("../include/postc_runtime.h");

/// The runtime's C sources and their private header, by file name: built
/// with any C11 compiler beside `--emit c` output, they stand in for the
/// prebuilt library (the build script's flags are what the library is
/// built with; none is needed for a correct build).
pub const SOURCES: [(&str, &str); 9] = [
    ("arena.c", include_str!("arena.c")),
    ("gpu_emulation.c", include_str!("gpu_emulation.c")),
    ("libc.c", include_str!("libc.c")),
    ("panic.c", include_str!("panic.c")),
    ("parallel.c", include_str!("parallel.c")),
    ("print.c", include_str!("print.c")),
    ("str.c", include_str!("str.c")),
    ("stride.c", include_str!("stride.c")),
    ("internal.h", include_str!("internal.h")),
];

/// Writes [`SOURCES`] into `dir` (created if missing).
pub fn write_sources(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in SOURCES {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
}

/// Writes `libpostc_runtime.a` and `postc_runtime.h` into `dir` (created
/// if missing); returns the library's path.
pub fn write_to(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let lib = dir.join(STATIC_LIB_NAME);
    std::fs::write(&lib, STATIC_LIB)?;
    std::fs::write(dir.join(HEADER_NAME), HEADER)?;
    Ok(lib)
}

/// The exported entry points: visible in every postc shared library.
pub const EXPORTED: [&str; 8] = [
    "postc_rt_panic",
    "postc_rt_set_panic_handler",
    "postc_rt_set_print_handler",
    "postc_rt_arena_mark",
    "postc_rt_arena_release",
    "postc_rt_set_num_threads",
    "postc_rt_get_num_threads",
    "postc_rt_parallel_ufunc_loop",
];

#[cfg(test)]
mod tests {
    /// Every C file and header of `src/` is among the sources written for
    /// a build by hand (the build script names the `.c` files itself).
    #[test]
    fn the_written_sources_are_all_of_them() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".c") || n.ends_with(".h"))
            .collect();
        on_disk.sort();
        let mut written: Vec<String> = super::SOURCES.iter().map(|(n, _)| n.to_string()).collect();
        written.sort();
        assert_eq!(written, on_disk);
    }
}
