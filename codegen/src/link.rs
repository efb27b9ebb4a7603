//! Linking, every step of it: codegen units combined into one object
//! (`ld -r`), an AMDGPU object into a code object (`ld.lld`), and an object
//! into a shared library or an executable through the system C compiler,
//! with the host runtime (`libpostc_runtime.a`, crate `postc-runtime`)
//! always and the GPU runtime when the program has GPU code.

use crate::internal;
use postc_ir::diag::Diagnostic;
use postc_ir::Program;
use std::path::{Path, PathBuf};

/// Combines objects into one relocatable object with `ld -r`.
pub(crate) fn combine_objects(objects: &[Vec<u8>]) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().map_err(|e| internal(format!("temporary directory: {e}")))?;
    let mut args = vec!["-r".to_owned(), "-o".to_owned(), dir.path().join("all.o").display().to_string()];
    for (i, o) in objects.iter().enumerate() {
        let p = dir.path().join(format!("unit{i}.o"));
        std::fs::write(&p, o).map_err(|e| internal(format!("writing {}: {e}", p.display())))?;
        args.push(p.display().to_string());
    }
    let st = std::process::Command::new("ld")
        .args(&args)
        .status()
        .map_err(|e| vec![Diagnostic::error(format!("cannot run `ld -r` to combine codegen units: {e}"), None)])?;
    if !st.success() {
        return Err(vec![Diagnostic::error(format!("`ld -r` failed ({st}) combining codegen units"), None)]);
    }
    std::fs::read(dir.path().join("all.o")).map_err(|e| internal(format!("reading the combined object: {e}")))
}

/// What [`link`] makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Output {
    Shared,
    /// An executable whose C entry point calls the program's `main` and
    /// exits with its result (0 for a void `main`).
    Executable,
}

/// Links the object `bytes` (of the program, named `stem`) into `out`.
pub fn link(bytes: &[u8], stem: &str, out: &Path, output: Output, program: &Program, gpu: bool) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let obj = dir.path().join(format!("{stem}.o"));
    std::fs::write(&obj, bytes).map_err(|e| format!("cannot write {}: {e}", obj.display()))?;
    let mut cc = std::process::Command::new("cc");
    match output {
        Output::Shared => {
            cc.arg("-shared");
            // The entry points a caller's panic handler needs are in every
            // shared library, even one whose code never reaches them.
            for sym in postc_runtime::EXPORTED {
                cc.arg(format!("-Wl,-u,{sym}"));
            }
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
    let runtime = postc_runtime::write_to(dir.path()).map_err(|e| format!("cannot write the runtime library: {e}"))?;
    // libdl: code that shadows a C library function, and the runtime,
    // reach the C library with `dlsym` (in the C library itself from glibc
    // 2.34).
    cc.arg("-o").arg(out).arg(&obj).arg(&runtime).args(["-lm", "-ldl"]);
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
pub fn gpu_runtime_lib() -> Result<PathBuf, String> {
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

/// `ld.lld`: `POSTC_LD_LLD`, then `ld.lld`, `ld.lld-22` on the PATH, then
/// LLVM 22's own.
fn ld_lld() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("POSTC_LD_LLD") {
        return p.into();
    }
    // Probing the PATH costs a process per name: once per process.
    static FOUND: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            ["ld.lld", "ld.lld-22"]
                .into_iter()
                .find(|name| {
                    std::process::Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success())
                })
                .unwrap_or("/usr/lib/llvm-22/bin/ld.lld")
                .into()
        })
        .clone()
}

/// Links an AMDGPU object into a code object with `ld.lld -shared`.
pub(crate) fn amdgpu_code_object(object: &[u8]) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().map_err(|e| crate::llvm::gpu::err(format!("temporary directory: {e}")))?;
    let (o, out) = (dir.path().join("kernels.o"), dir.path().join("kernels.hsaco"));
    std::fs::write(&o, object).map_err(|e| crate::llvm::gpu::err(format!("writing {}: {e}", o.display())))?;
    let lld = ld_lld();
    let run = std::process::Command::new(&lld).arg("-shared").arg("-o").arg(&out).arg(&o).output();
    match run {
        Ok(r) if r.status.success() => {
            std::fs::read(&out).map_err(|e| crate::llvm::gpu::err(format!("reading {}: {e}", out.display())))
        }
        Ok(r) => Err(crate::llvm::gpu::err(format!(
            "`{}` failed linking the AMDGPU code object: {}",
            lld.display(),
            String::from_utf8_lossy(&r.stderr).trim()
        ))),
        Err(e) => {
            Err(crate::llvm::gpu::err(format!("cannot run `{}` (needed for AMDGPU code objects): {e}", lld.display())))
        }
    }
}
