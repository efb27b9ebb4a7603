//! Linking, every step of it: codegen units combined into one object
//! (`-r`), an AMDGPU object into a code object, and an object into a shared
//! library or an executable, with the host runtime (`libpostc_runtime.a`,
//! crate `postc-runtime`) always and the GPU runtime when the program has
//! GPU code.
//!
//! LLD's ELF linker runs in-process (`src/lld.cpp`, LLD's static libraries
//! linked into this crate) for the first two and for shared libraries of
//! host code, against the C library, math library, dynamic loader and
//! `libgcc_s` that this process itself runs with: compiling to a loadable
//! library needs no linker or C compiler on the machine (the Python
//! package relies on it). Links take turns (LLD keeps global state); after
//! a fatal LLD error, which LLD unwinds from past its own clean-up, it
//! refuses to run again in the process. An executable needs the C
//! library's start-up files and a shared library with GPU code the GPU
//! runtime's system libraries: those are linked by the system C compiler
//! (`CC`, else `cc`).

use crate::internal;
use postc_ir::diag::Diagnostic;
use postc_ir::Program;
use std::ffi::{c_char, c_int, CStr, CString, OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

extern "C" {
    /// `src/lld.cpp`.
    fn postc_lld_link(argc: c_int, argv: *const *const c_char, message: *mut *mut c_char) -> c_int;
}

/// Runs LLD's ELF linker in-process with `args` (what follows `ld.lld` on
/// its command line); the error is LLD's diagnostics.
fn lld<S: AsRef<OsStr>>(args: &[S]) -> Result<(), String> {
    let mut owned = Vec::with_capacity(args.len() + 2);
    owned.push(c"ld.lld".to_owned());
    // One thread: a link of a few objects gains nothing from LLD's thread
    // pool, which would stay behind in the process.
    owned.push(c"--threads=1".to_owned());
    for a in args {
        owned
            .push(CString::new(a.as_ref().as_bytes()).map_err(|_| "a linker argument contains a NUL byte".to_owned())?);
    }
    let argv: Vec<*const c_char> = owned.iter().map(|a| a.as_ptr()).collect();
    let mut message: *mut c_char = std::ptr::null_mut();
    let argc = c_int::try_from(argv.len()).map_err(|_| "too many linker arguments".to_owned())?;
    // SAFETY: `argv` holds `argc` NUL-terminated strings that outlive the
    // call; `message` is set to NULL or a malloc'd string, freed here.
    let status = unsafe { postc_lld_link(argc, argv.as_ptr(), &mut message) };
    let text = if message.is_null() {
        String::new()
    } else {
        // SAFETY: as above.
        unsafe {
            let text = CStr::from_ptr(message).to_string_lossy().trim_end().to_owned();
            libc::free(message.cast());
            text
        }
    };
    match status {
        0 => Ok(()),
        3 => Err(UNUSABLE.to_owned()),
        _ if text.is_empty() => Err("the linker failed without a message".to_owned()),
        1 => Err(text),
        _ => Err(format!("{text}\n(LLD cannot link again in this process)")),
    }
}

/// Why a link is refused after LLD stopped on a fatal error.
const UNUSABLE: &str = "the in-process linker (LLD) stopped on a fatal error earlier in this process and cannot \
                        link again in it: restart the process";

/// Combines objects into one relocatable object (`ld.lld -r`, in-process).
pub(crate) fn combine_objects(objects: &[Vec<u8>]) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().map_err(|e| internal(format!("temporary directory: {e}")))?;
    let all = dir.path().join("all.o");
    let mut args: Vec<OsString> = vec!["-r".into(), "-o".into(), all.clone().into()];
    for (i, o) in objects.iter().enumerate() {
        let p = dir.path().join(format!("unit{i}.o"));
        std::fs::write(&p, o).map_err(|e| internal(format!("writing {}: {e}", p.display())))?;
        args.push(p.into());
    }
    lld(&args).map_err(|e| vec![Diagnostic::error(format!("combining the codegen units failed: {e}"), None)])?;
    std::fs::read(&all).map_err(|e| internal(format!("reading the combined object: {e}")))
}

/// The shared libraries a shared library of host code links against: those
/// of this process that define the C library (`getpid`), the math library
/// (`cos`), `dlopen` (the C library from glibc 2.34, `libdl` before), the
/// dynamic loader (`__tls_get_addr`) and `libgcc_s` (the compiler's support
/// routines), as the files they were loaded from. Compiled code then binds
/// to the versions of the C library that the process which compiles it
/// (and loads it, for the Python package) runs with; no development files
/// (`libc.so`, `crti.o`) are needed.
fn system_libraries() -> Result<Vec<PathBuf>, String> {
    static FOUND: std::sync::OnceLock<Result<Vec<PathBuf>, String>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let mut found: Vec<PathBuf> = Vec::new();
            for (symbol, what, required) in [
                (c"getpid", "the C library", true),
                (c"cos", "the math library", true),
                (c"dlopen", "the dynamic linking library", false),
                (c"__tls_get_addr", "the dynamic loader", false),
                (c"_Unwind_Backtrace", "libgcc_s", false),
            ] {
                match library_defining(symbol) {
                    Some(p) if !found.contains(&p) => found.push(p),
                    Some(_) => {}
                    None if required => {
                        return Err(format!(
                            "cannot find the shared library of {what} (`{}`) in this process to link against",
                            symbol.to_string_lossy()
                        ))
                    }
                    None => {}
                }
            }
            Ok(found)
        })
        .clone()
}

/// The shared library of this process that defines `symbol`, as the file
/// it was loaded from; `None` if no loaded shared library defines it.
fn library_defining(symbol: &CStr) -> Option<PathBuf> {
    // SAFETY: `dlsym` and `dladdr` only read the loader's tables; the name
    // `dladdr` returns points into them and is copied at once.
    let name = unsafe {
        let addr = libc::dlsym(libc::RTLD_DEFAULT, symbol.as_ptr());
        if addr.is_null() {
            return None;
        }
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(addr, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        CStr::from_ptr(info.dli_fname).to_bytes().to_vec()
    };
    let path = PathBuf::from(OsStr::from_bytes(&name));
    // Not the program itself (a symbol it defines statically).
    let shared = path.file_name().is_some_and(|f| f.as_bytes().windows(3).any(|w| w == b".so"));
    (shared && path.is_absolute() && path.is_file()).then_some(path)
}

/// What [`link`] makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Output {
    Shared,
    /// An executable whose C entry point calls the program's `main` and
    /// exits with its result (0 for a void `main`).
    Executable,
}

/// Links the object `bytes` (of the program, named `stem`) into `out`: a
/// shared library of host code in-process with LLD, an executable or a
/// shared library with GPU code through the system C compiler.
pub fn link(bytes: &[u8], stem: &str, out: &Path, output: Output, program: &Program, gpu: bool) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let obj = dir.path().join(format!("{stem}.o"));
    std::fs::write(&obj, bytes).map_err(|e| format!("cannot write {}: {e}", obj.display()))?;
    let runtime = postc_runtime::write_to(dir.path()).map_err(|e| format!("cannot write the runtime library: {e}"))?;
    if output == Output::Shared && !gpu {
        return link_shared(&obj, &runtime, out);
    }
    let compiler = crate::c::c_compiler();
    let Some((program_name, compiler_args)) = compiler.split_first() else {
        return Err("no C compiler: `CC` is empty".to_owned());
    };
    let mut cc = std::process::Command::new(program_name);
    cc.args(compiler_args);
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
    // libdl: code that shadows a C library function, and the runtime,
    // reach the C library with `dlsym` (in the C library itself from glibc
    // 2.34).
    cc.arg("-o").arg(out).arg(&obj).arg(&runtime).args(["-lm", "-ldl"]);
    if gpu {
        // GPU code: link the GPU runtime and the libraries it needs.
        cc.arg(gpu_runtime_lib()?).args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]);
    }
    let what = if output == Output::Executable { "an executable" } else { "a shared library with GPU code" };
    match cc.status() {
        Ok(st) if st.success() => Ok(()),
        Ok(st) => Err(format!("`{program_name}` failed ({st}) linking {}", out.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "no C compiler/linker found: linking {what} runs `{program_name}`, which is not on the PATH \
             (install gcc or clang, or set CC)"
        )),
        Err(e) => Err(format!("cannot run `{program_name}`: {e}")),
    }
}

/// A shared library of host code, linked in-process by LLD: the object,
/// the runtime, and this process's system libraries.
fn link_shared(obj: &Path, runtime: &Path, out: &Path) -> Result<(), String> {
    let mut args: Vec<OsString> = vec!["-shared".into(), "--eh-frame-hdr".into(), "-o".into(), out.into()];
    // The entry points a caller's panic handler needs are in every shared
    // library, even one whose code never reaches them.
    for sym in postc_runtime::EXPORTED {
        args.push("-u".into());
        args.push(sym.into());
    }
    args.push(obj.into());
    args.push(runtime.into());
    args.push("--as-needed".into());
    args.extend(system_libraries()?.into_iter().map(OsString::from));
    lld(&args).map_err(|e| format!("linking {} failed: {e}", out.display()))
}

/// A static library built with the driver: the file named by the
/// environment variable `env`, else `name` beside the driver executable
/// (the cargo target directory's profile directory) or one level up (when
/// the driver runs from `deps/`). `None` when none is there.
fn prebuilt_library(name: &str, env: &str) -> Result<Option<PathBuf>, String> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(Some(p)) } else { Err(format!("{env}: {} does not exist", p.display())) };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the driver executable: {e}"))?;
    Ok(exe.ancestors().skip(1).take(2).map(|d| d.join(name)).find(|p| p.is_file()))
}

/// `libpostc_runtime_gpu.a`: `POSTC_GPU_RUNTIME_LIB`, else beside the driver
/// executable or one level up ([`prebuilt_library`]).
pub fn gpu_runtime_lib() -> Result<PathBuf, String> {
    const NAME: &str = "libpostc_runtime_gpu.a";
    prebuilt_library(NAME, "POSTC_GPU_RUNTIME_LIB")?.ok_or_else(|| {
        format!(
            "the program has gpu functions but {NAME} was not found beside the driver: build it with \
             `cargo build -p postc-runtime-gpu` (same profile), set POSTC_GPU_RUNTIME_LIB, or compile with `--gpu off`"
        )
    })
}

/// `libpostc_pyabi.a` (crate `postc-pyabi`: what an extension module does
/// with Python's objects): `POSTC_PYABI_LIB`, else beside the driver
/// executable or one level up ([`prebuilt_library`]). With `abi3`, the
/// library built for CPython's stable ABI (`--features abi3`),
/// `libpostc_pyabi_abi3.a`, or `POSTC_PYABI_ABI3_LIB`.
pub fn pyabi_lib(abi3: bool) -> Result<PathBuf, String> {
    let (name, variable, build) = if abi3 {
        (
            "libpostc_pyabi_abi3.a",
            "POSTC_PYABI_ABI3_LIB",
            "`cargo build -p postc-pyabi --features abi3` (same profile), copying its libpostc_pyabi.a to that name,",
        )
    } else {
        ("libpostc_pyabi.a", "POSTC_PYABI_LIB", "`cargo build -p postc-pyabi` (same profile)")
    };
    prebuilt_library(name, variable)?.ok_or_else(|| {
        format!("`--emit pyext` links {name}, which was not found beside the driver: build it with {build} or set {variable}")
    })
}

/// The marker `postc-pyabi` leaves in its static library, followed by the
/// CPython version (`3.11`) the library was built for.
pub const PYABI_PYTHON_MARKER: &[u8] = b"postc-pyabi built for CPython ";

/// The CPython version (`major.minor`) the static library at `lib` was
/// built for, read from its marker.
pub fn pyabi_python_version(lib: &Path) -> Result<String, String> {
    let bytes = std::fs::read(lib).map_err(|e| format!("cannot read {}: {e}", lib.display()))?;
    let at = bytes
        .windows(PYABI_PYTHON_MARKER.len())
        .position(|w| w == PYABI_PYTHON_MARKER)
        .ok_or_else(|| format!("{} is not postc-pyabi's static library (it has no version marker)", lib.display()))?;
    let rest = &bytes[at + PYABI_PYTHON_MARKER.len()..];
    let end = rest.iter().position(|&b| !(b.is_ascii_digit() || b == b'.')).unwrap_or(rest.len());
    Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// libffi for the calls of many arguments: `POSTC_LIBFFI`, else the
/// position-independent static library (Debian's `libffi_pic.a`) beside the
/// C library this process runs with, else the shared library there.
fn libffi() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("POSTC_LIBFFI") {
        return Ok(PathBuf::from(p));
    }
    let libc = library_defining(c"getpid").ok_or("cannot find the C library of this process")?;
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(dir) = libc.parent() {
        // `/lib/x86_64-linux-gnu` is `/usr/lib/x86_64-linux-gnu` on a
        // merged /usr, where the development files are.
        if let (Ok(rest), Some(multiarch)) = (dir.strip_prefix("/lib"), dir.file_name()) {
            dirs.push(Path::new("/usr/lib").join(rest));
            dirs.push(Path::new("/usr/lib").join(multiarch));
        }
        dirs.push(dir.to_path_buf());
    }
    dirs.extend(["/usr/lib64", "/usr/lib", "/usr/local/lib"].map(PathBuf::from));
    for name in ["libffi_pic.a", "libffi.so.8", "libffi.so"] {
        if let Some(p) = dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()) {
            return Ok(p);
        }
    }
    Err("`--emit pyext` links libffi, which was not found (install libffi-dev, or set POSTC_LIBFFI)".to_owned())
}

/// A CPython extension module, linked in-process by LLD: the objects (the
/// compiled code and its `PyInit_NAME` glue), the runtime, this process's
/// system libraries, `postc-pyabi`'s static library `pyabi` and libffi.
/// Only `init_symbol` is exported; unused code is dropped, and so is debug
/// information unless `debug` (`-g`) asks for it.
pub fn link_extension(
    objects: &[Vec<u8>],
    pyabi: &Path,
    init_symbol: &str,
    out: &Path,
    debug: bool,
) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let runtime = postc_runtime::write_to(dir.path()).map_err(|e| format!("cannot write the runtime library: {e}"))?;
    let script = dir.path().join("exports.map");
    std::fs::write(&script, format!("{{ global: {init_symbol}; local: *; }};\n"))
        .map_err(|e| format!("cannot write {}: {e}", script.display()))?;
    let mut args: Vec<OsString> = vec![
        "-shared".into(),
        "--eh-frame-hdr".into(),
        "--gc-sections".into(),
        // Python's C API is the interpreter's, bound when it loads the module.
        "--allow-shlib-undefined".into(),
        "-o".into(),
        out.into(),
    ];
    args.push(format!("--version-script={}", script.display()).into());
    if !debug {
        args.push("--strip-debug".into());
    }
    for (i, o) in objects.iter().enumerate() {
        let p = dir.path().join(format!("part{i}.o"));
        std::fs::write(&p, o).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        args.push(p.into());
    }
    args.push(runtime.into());
    // The system libraries before the static library: Rust's own copies of
    // libm's functions there must not take the place of the C library's,
    // which the code calls everywhere else (the package's libraries, `run`).
    args.push("--as-needed".into());
    args.extend(system_libraries()?.into_iter().map(OsString::from));
    args.push(pyabi.into());
    args.push(libffi()?.into());
    lld(&args).map_err(|e| format!("linking {} failed: {e}", out.display()))
}

/// Links an AMDGPU object into a code object (`ld.lld -shared`, in-process).
pub(crate) fn amdgpu_code_object(object: &[u8]) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().map_err(|e| crate::llvm::gpu::err(format!("temporary directory: {e}")))?;
    let (o, out) = (dir.path().join("kernels.o"), dir.path().join("kernels.hsaco"));
    std::fs::write(&o, object).map_err(|e| crate::llvm::gpu::err(format!("writing {}: {e}", o.display())))?;
    let args: [&OsStr; 4] = ["-shared".as_ref(), "-o".as_ref(), out.as_os_str(), o.as_os_str()];
    lld(&args).map_err(|e| crate::llvm::gpu::err(format!("linking the AMDGPU code object failed: {e}")))?;
    std::fs::read(&out).map_err(|e| crate::llvm::gpu::err(format!("reading {}: {e}", out.display())))
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    /// An x86-64 relocatable object's ELF header whose section headers lie
    /// past the end of the file.
    fn corrupt_object() -> Vec<u8> {
        let mut h = vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        h.extend(1u16.to_le_bytes()); // ET_REL
        h.extend(62u16.to_le_bytes()); // EM_X86_64
        h.extend(1u32.to_le_bytes());
        h.extend(0u64.to_le_bytes()); // entry
        h.extend(0u64.to_le_bytes()); // program headers
        h.extend(0x10_0000u64.to_le_bytes()); // section headers: past the end
        h.extend(0u32.to_le_bytes());
        h.extend(64u16.to_le_bytes());
        h.extend(0u16.to_le_bytes());
        h.extend(0u16.to_le_bytes());
        h.extend(64u16.to_le_bytes());
        h.extend(5u16.to_le_bytes());
        h.extend(1u16.to_le_bytes());
        h
    }

    /// LLD's errors come back with its message instead of ending the
    /// process. After an error LLD links again; after a fatal one (a
    /// corrupt object: LLD unwinds from it and cannot vouch for its state)
    /// every later link in the process is refused, with a message saying so.
    #[test]
    fn lld_errors_return() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("libx.so");
        let runtime = postc_runtime::write_to(dir.path()).unwrap();
        let link = |input: &std::path::Path| {
            super::lld(&[OsStr::new("-shared"), OsStr::new("-o"), out.as_os_str(), input.as_os_str()])
        };
        let unknown = dir.path().join("unknown.o");
        std::fs::write(&unknown, b"\x7fELF\x02\x01\x01 not an object").unwrap();
        assert_eq!(link(&unknown), Err(format!("ld.lld: error: {}: unknown file type", unknown.display())));
        assert!(!out.exists());
        link(&runtime).unwrap();
        assert!(std::fs::read(&out).unwrap().starts_with(b"\x7fELF"));
        std::fs::remove_file(&out).unwrap();
        let corrupt = dir.path().join("corrupt.o");
        std::fs::write(&corrupt, corrupt_object()).unwrap();
        let e = link(&corrupt).unwrap_err();
        assert!(
            e.starts_with(&format!("ld.lld: error: {}: section header table goes past the end", corrupt.display())),
            "{e}"
        );
        assert!(!out.exists());
        assert_eq!(link(&runtime), Err(super::UNUSABLE.to_owned()));
    }
}
