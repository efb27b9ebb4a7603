//! Compiling a module to a shared library in the cache directory.
//!
//! The frontend always runs (it is fast, and it tells which files the module
//! imports and what the module exports); code generation and linking run
//! only when the cache has no library for the key. The key hashes the text
//! and path of every file the program was read from, the options, the
//! target (triple, CPU, features) and the compiler's build, so a changed
//! import or a rebuilt compiler gives another key. A library is linked to a
//! temporary name in its directory and renamed into place, so concurrent
//! processes never see half a file; two that compile the same key at once
//! both rename a complete library.

use postc_codegen::{link, CodegenOptions, EmitKind, OptLevel};
use postc_ir::diag::SourceMap;
use postc_ir::exports::{self, Exports};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

pub struct Options {
    pub opt: u8,
    pub backend: String,
    pub include: Vec<PathBuf>,
    pub cache_dir: PathBuf,
    /// More modules named with the first (a `@jit` function's helpers cut
    /// out of other files).
    pub also: Vec<PathBuf>,
    /// Files held in memory, read instead of the disk under their path.
    pub overlay: Vec<(PathBuf, String)>,
    /// Bounds checks on indexing (`None`: the level's default, on).
    pub bounds_checks: Option<bool>,
    /// Float reassociation and contraction ([`CodegenOptions::fast_math`]).
    pub fast_math: bool,
    /// DWARF for debuggers and profilers ([`CodegenOptions::debug`]).
    pub debug: bool,
}

/// Why a build failed.
pub enum Error {
    /// Located diagnostics, rendered.
    Compile(String),
    /// A bad option.
    Usage(String),
    /// The cache directory cannot be written.
    Io(String),
}

pub struct Built {
    pub library: PathBuf,
    pub exports: Exports,
    /// Whether the library came from the cache.
    pub cached: bool,
    /// Each phase that ran and its wall time in seconds.
    pub timings: Vec<(&'static str, f64)>,
}

/// Wall times of the phases of one build.
#[derive(Default)]
struct Phases(Vec<(&'static str, f64)>);

impl Phases {
    fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let start = std::time::Instant::now();
        let r = f();
        self.0.push((name, start.elapsed().as_secs_f64()));
        r
    }
}

fn render(sources: &SourceMap, diags: &[postc_ir::Diagnostic]) -> String {
    let mut text = sources.render(diags, false);
    let n = diags.iter().filter(|d| d.severity == postc_ir::diag::Severity::Error).count();
    if n > 0 {
        text.push_str(&format!("error: aborting due to {n} error{}\n", if n == 1 { "" } else { "s" }));
    }
    text
}

/// What identifies this build of the compiler: the package version and the
/// size and modification time of the extension module's file.
fn compiler_build() -> String {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD
        .get_or_init(|| {
            let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
            let here = compiler_build as *const std::ffi::c_void;
            // SAFETY: `dladdr` fills `info` for an address of this library;
            // `dli_fname` is a NUL-terminated path owned by the loader.
            let file = unsafe {
                if libc::dladdr(here, &mut info) != 0 && !info.dli_fname.is_null() {
                    Some(PathBuf::from(std::ffi::CStr::from_ptr(info.dli_fname).to_string_lossy().into_owned()))
                } else {
                    None
                }
            };
            let stamp = file
                .and_then(|f| std::fs::metadata(f).ok())
                .map(|m| {
                    let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                    format!("{} {}", m.len(), mtime.map_or(0, |d| d.as_nanos()))
                })
                .unwrap_or_default();
            format!("postc {} {stamp}", env!("CARGO_PKG_VERSION"))
        })
        .clone()
}

fn cache_key(sources: &SourceMap, options: &CodegenOptions, backend: &str) -> String {
    let mut h = Sha256::new();
    let mut line = |s: &str| {
        h.update((s.len() as u64).to_le_bytes());
        h.update(s.as_bytes());
    };
    line(&compiler_build());
    line(&postc_codegen::llvm::target_description(options));
    line(backend);
    // Every code generation option, so that one added later is keyed too.
    line(&format!("{options:?}"));
    // The C compiler (the C backend's; shared libraries are linked by LLD).
    line(&postc_codegen::c::c_compiler().join(" "));
    let mut files: Vec<(&str, &str)> = sources.files().collect();
    files.sort();
    for (path, text) in files {
        line(path);
        line(text);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The program of `path` (and `o.also`), loaded and verified, with the
/// rendered diagnostics of a failure; and the code generation options.
fn load(path: &Path, o: &Options) -> Result<(postc_ir::Program, SourceMap, CodegenOptions), Error> {
    let level = OptLevel::from_u8(o.opt).map_err(Error::Usage)?;
    let mut files = vec![path.to_path_buf()];
    files.extend(o.also.iter().cloned());
    let mut loader = postc_frontend::loader(&files, o.include.clone()).with_overlay(o.overlay.iter().cloned());
    let program = loader.load(&files).map_err(|d| Error::Compile(render(&loader.sources, &d)))?;
    let diags = postc_ir::verify::verify_program(&program);
    if !diags.is_empty() {
        return Err(Error::Compile(render(&loader.sources, &diags)));
    }
    let mut options = CodegenOptions {
        // GPU functions run on the host (the package does not launch
        // kernels); a `gpu(fallback)` function is the same code.
        gpu: postc_codegen::llvm::gpu::GpuOptions { mode: postc_codegen::llvm::gpu::GpuMode::Off, arch: None },
        fast_math: o.fast_math,
        debug: o.debug,
        ..CodegenOptions::for_level(level)
    };
    if let Some(on) = o.bounds_checks {
        options.passes.bounds_checks = on;
    }
    Ok((program, std::mem::take(&mut loader.sources), options))
}

/// Compiles the module at `path` (and what it imports) to a shared library
/// in the cache, or finds it there; `on_miss` runs when it is not there,
/// before code generation starts.
pub fn build(path: &Path, o: &Options, on_miss: &dyn Fn()) -> Result<Built, Error> {
    let backend = postc_codegen::backend::by_name(&o.backend).map_err(Error::Usage)?;
    postc_codegen::backend::check_kind(backend, EmitKind::Object).map_err(Error::Usage)?;
    let mut phases = Phases::default();
    let (program, sources, options) = phases.time("frontend", || load(path, o))?;
    let exports = exports::exports(&program);
    let key = cache_key(&sources, &options, backend.name());
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect())
        .unwrap_or_else(|| "module".into());
    let dir = o.cache_dir.join(&key[..2]).join(&key[2..]);
    let library = dir.join(format!("lib{stem}.so"));
    match check_entry(&library) {
        Entry::Good => return Ok(Built { library, exports, cached: true, timings: phases.0 }),
        Entry::Missing => {}
        Entry::Damaged(why) => {
            eprintln!("postc: the cached library {} is damaged ({why}): rebuilding it", library.display())
        }
    }
    on_miss();
    let object = phases
        .time("codegen", || backend.emit(&program, &options, EmitKind::Object))
        .map_err(|d| Error::Compile(render(&sources, &d)))?;
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io(format!("cannot create {}: {e}", dir.display())))?;
    let tmp = tempfile::Builder::new()
        .prefix(".link-")
        .suffix(".so")
        .tempfile_in(&dir)
        .map_err(|e| Error::Io(format!("cannot create a file in {}: {e}", dir.display())))?;
    phases
        .time("link", || link::link(&object, &stem, tmp.path(), link::Output::Shared, &program, false))
        .map_err(Error::Compile)?;
    let bytes =
        std::fs::read(tmp.path()).map_err(|e| Error::Io(format!("cannot read {}: {e}", tmp.path().display())))?;
    let io = |e: std::io::Error| Error::Io(format!("cannot write {}: {e}", library.display()));
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o777 & !umask())).map_err(io)?;
    tmp.persist(&library).map_err(|e| io(e.error))?;
    // The seal goes last: a library without one is rebuilt.
    let mut seal = tempfile::Builder::new().prefix(".seal-").tempfile_in(&dir).map_err(io)?;
    std::io::Write::write_all(&mut seal, seal_text(&bytes).as_bytes()).map_err(io)?;
    std::fs::set_permissions(seal.path(), std::fs::Permissions::from_mode(0o666 & !umask())).map_err(io)?;
    seal.persist(seal_path(&library)).map_err(|e| io(e.error))?;
    Ok(Built { library, exports, cached: false, timings: phases.0 })
}

/// What a cache entry holds.
enum Entry {
    Good,
    Missing,
    /// A library whose bytes are not those written (truncated, zeroed by a
    /// crash or a full disk): loading it could crash the process.
    Damaged(String),
}

/// The file beside a cached library that records its size and SHA-256,
/// written after it.
fn seal_path(library: &Path) -> PathBuf {
    let mut name = library.file_name().unwrap_or_default().to_os_string();
    name.push(".sha256");
    library.with_file_name(name)
}

fn seal_text(bytes: &[u8]) -> String {
    let digest: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    format!("{} {digest}\n", bytes.len())
}

/// A cached library is used only when its bytes are those its seal
/// records.
fn check_entry(library: &Path) -> Entry {
    let Ok(bytes) = std::fs::read(library) else { return Entry::Missing };
    match std::fs::read_to_string(seal_path(library)) {
        Ok(seal) if seal == seal_text(&bytes) => Entry::Good,
        Ok(_) => Entry::Damaged("its size or hash differs from those recorded when it was written".into()),
        // Written last: another process may be about to write it, or one
        // died between the two. Either way the library is built again.
        Err(_) => Entry::Missing,
    }
}

/// The process's file mode creation mask, read without changing it (the
/// `umask` call sets it, which other threads would see).
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("Umask:")).and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// What `Function.inspect` shows.
#[derive(Clone, Copy)]
pub enum Listing {
    /// The POST IR after the pass pipeline of the level.
    Pir,
    /// The backend's LLVM IR (the llvm backend).
    LlvmIr,
    /// Assembly for the target.
    Asm,
}

/// The text of a module as `listing` says, compiled as [`build`] would.
pub fn listing(path: &Path, o: &Options, listing: Listing) -> Result<String, Error> {
    let backend = postc_codegen::backend::by_name(&o.backend).map_err(Error::Usage)?;
    let (program, sources, options) = load(path, o)?;
    let fail = |d: Vec<postc_ir::Diagnostic>| Error::Compile(render(&sources, &d));
    let kind = match listing {
        Listing::Pir => {
            let prepared = postc_codegen::prepare(&program, &options, backend.features()).map_err(fail)?;
            return Ok(prepared.modules.iter().map(postc_ir::print::print_module).collect::<Vec<_>>().join("\n"));
        }
        Listing::LlvmIr => EmitKind::LlvmIr,
        Listing::Asm => EmitKind::Assembly,
    };
    postc_codegen::backend::check_kind(backend, kind).map_err(Error::Usage)?;
    let bytes = backend.emit(&program, &options, kind).map_err(fail)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
