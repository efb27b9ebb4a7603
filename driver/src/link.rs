//! Linking: an object into a shared library or an executable, through the
//! system C compiler, with the GPU runtime when the program has GPU code.
//! Every linking step of the driver is here.

use postc_ir::Program;
use std::path::{Path, PathBuf};

/// What [`link`] makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Output {
    Shared,
    /// An executable whose C entry point calls the program's `main` and
    /// exits with its result (0 for a void `main`).
    Executable,
}

/// Links the object `bytes` (of the program, named `stem`) into `out`.
pub(crate) fn link(
    bytes: &[u8],
    stem: &str,
    out: &Path,
    output: Output,
    program: &Program,
    gpu: bool,
) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let obj = dir.path().join(format!("{stem}.o"));
    std::fs::write(&obj, bytes).map_err(|e| format!("cannot write {}: {e}", obj.display()))?;
    let mut cc = std::process::Command::new("cc");
    match output {
        Output::Shared => {
            cc.arg("-shared");
        }
        Output::Executable => {
            let stub = dir.path().join("postc_start.c");
            let void_main = program
                .modules
                .iter()
                .find_map(|m| m.get_function("main").map(|f| m.functions[f].ret.is_none()))
                .unwrap_or(false);
            let text = if void_main {
                "extern void __real_main(void);\nint __wrap_main(void) { __real_main(); return 0; }\n"
            } else {
                "extern long long __real_main(void);\nint __wrap_main(void) { return (int)__real_main(); }\n"
            };
            std::fs::write(&stub, text).map_err(|e| format!("cannot write {}: {e}", stub.display()))?;
            cc.arg(&stub).arg("-Wl,--wrap=main");
        }
    }
    // libdl: code that shadows a C library function reaches it with
    // `dlsym` (in the C library itself from glibc 2.34).
    cc.arg("-o").arg(out).arg(&obj).args(["-lm", "-ldl"]);
    if gpu {
        // GPU code: link the GPU runtime and the libraries it needs.
        cc.arg(gpu_runtime_lib()?).args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]);
    }
    match cc.status() {
        Ok(st) if st.success() => Ok(()),
        Ok(st) => Err(format!("`cc` failed ({st}) linking {}", out.display())),
        Err(e) => Err(format!("cannot run `cc`: {e}")),
    }
}

/// `libpostc_runtime_gpu.a`: `POSTC_GPU_RUNTIME_LIB`, else beside the driver
/// executable (the cargo target directory's profile directory) or one level
/// up (when the driver runs from `deps/`).
fn gpu_runtime_lib() -> Result<PathBuf, String> {
    const NAME: &str = "libpostc_runtime_gpu.a";
    if let Some(p) = std::env::var_os("POSTC_GPU_RUNTIME_LIB") {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("POSTC_GPU_RUNTIME_LIB: {} does not exist", p.display())) };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the driver executable: {e}"))?;
    let mut dirs = Vec::new();
    if let Some(d) = exe.parent() {
        dirs.push(d.to_path_buf());
        if let Some(up) = d.parent() {
            dirs.push(up.to_path_buf());
        }
    }
    for d in &dirs {
        let p = d.join(NAME);
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(format!(
        "the program has gpu functions but {NAME} was not found beside {}: build it with \
         `cargo build -p postc-runtime-gpu` (same profile), set POSTC_GPU_RUNTIME_LIB, or compile with `--gpu off`",
        exe.display()
    ))
}
