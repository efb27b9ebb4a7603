//! `postc._native`: the compiler and the calls behind the `postc` Python
//! package. [`compile`] builds a POST module (through the frontend,
//! codegen and the linker, with an on-disk cache) and loads it: its
//! exported functions become [`call::Function`] objects and its ufuncs
//! NumPy ufuncs.

mod builder;
mod cli;
mod dispatch;
mod merge;

use postc_pyabi::{call, guard, ufunc};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::collections::HashMap;
use std::path::PathBuf;

create_exception!(
    _native,
    CompileError,
    PyException,
    "A POST module did not compile; the message holds the located diagnostics."
);

/// A loaded shared library. Libraries are never unloaded: NumPy ufunc
/// objects made from them may live as long as the process.
fn open(path: &std::path::Path) -> Result<&'static libloading::os::unix::Library, String> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    // SAFETY: a library postc linked: its initialisers only set up its
    // runtime.
    let lib = unsafe { Library::open(Some(path), RTLD_NOW | RTLD_LOCAL) }
        .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
    Ok(Box::leak(Box::new(lib)))
}

fn symbol(lib: &libloading::os::unix::Library, name: &str) -> Result<usize, String> {
    // SAFETY: only the address is read.
    let s = unsafe { lib.get::<*const std::ffi::c_void>(name.as_bytes()) }
        .map_err(|e| format!("the library has no symbol `{name}`: {e}"))?;
    Ok(s.into_raw() as usize)
}

/// The runtime entry points of a library (docs/abi.md); `None` for a
/// library that cannot panic (it has no panic handler to set).
fn runtime_of(lib: &libloading::os::unix::Library) -> Option<guard::Runtime> {
    let set_handler = symbol(lib, "postc_rt_set_panic_handler").ok()?;
    let mark = symbol(lib, "postc_rt_arena_mark").ok();
    let release = symbol(lib, "postc_rt_arena_release").ok();
    // SAFETY: the runtime's exported entry points.
    Some(unsafe { guard::Runtime::from_addresses(set_handler, mark, release) })
}

/// The thread count of `prange` loops the package has set (`None`: never
/// set, so each library's runtime keeps its own default, which is the same
/// `POSTC_NUM_THREADS` or CPU count) and the `postc_rt_set_num_threads` of
/// every library loaded. Each library links its own copy of the runtime, so
/// a setting reaches a library only through its own entry point; one lock
/// over both makes a library loaded during a `set_num_threads` get the new
/// value either way.
struct Threads {
    count: Option<i32>,
    setters: Vec<unsafe extern "C" fn(i32)>,
}

static THREADS: std::sync::Mutex<Threads> = std::sync::Mutex::new(Threads { count: None, setters: Vec::new() });

fn threads() -> std::sync::MutexGuard<'static, Threads> {
    THREADS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Gives a newly loaded library the package's thread count, and remembers
/// it for later changes. A library without the entry point (one that has no
/// parallel runtime) is left alone.
fn register_threads(lib: &libloading::os::unix::Library) {
    let Ok(address) = symbol(lib, "postc_rt_set_num_threads") else { return };
    // SAFETY: `void postc_rt_set_num_threads(int)` of the runtime
    // (docs/abi.md), in a library that is never unloaded.
    let set: unsafe extern "C" fn(i32) = unsafe { std::mem::transmute(address) };
    let mut t = threads();
    // dlopen of a path already loaded gives the same library.
    if t.setters.iter().any(|&s| s as usize == address) {
        return;
    }
    if let Some(n) = t.count {
        // SAFETY: see above; the runtime clamps the value itself.
        unsafe { set(n) };
    }
    t.setters.push(set);
}

/// Sets the thread count of the `prange` loops of every library loaded, and
/// of every library loaded later. The package checks the range.
#[pyfunction]
fn set_num_threads(n: i32) {
    let mut t = threads();
    t.count = Some(n);
    for set in &t.setters {
        // SAFETY: registered by `register_threads`.
        unsafe { set(n) };
    }
}

fn raise(e: builder::Error) -> PyErr {
    match e {
        builder::Error::Compile(text) => CompileError::new_err(text),
        builder::Error::Usage(text) => PyValueError::new_err(text),
        builder::Error::Io(text) => PyOSError::new_err(text),
    }
}

/// The build options of `compile` and `listing`.
#[allow(clippy::too_many_arguments)]
fn options(
    opt: u8,
    backend: String,
    include: Vec<PathBuf>,
    cache_dir: PathBuf,
    also: Vec<PathBuf>,
    overlay: HashMap<PathBuf, String>,
    bounds_checks: Option<bool>,
    fast_math: bool,
    debug: bool,
) -> builder::Options {
    let mut overlay: Vec<(PathBuf, String)> = overlay.into_iter().collect();
    overlay.sort();
    builder::Options { opt, backend, include, cache_dir, also, overlay, bounds_checks, fast_math, debug }
}

/// Compiles the POST module at `path` (`.py` or `.pir`; with the modules
/// `also`, and the files of `overlay` read from memory) and loads it.
/// Returns the library's path, whether it came from the cache, the exports
/// as (name, callable) pairs and each phase's time in seconds.
#[pyfunction]
#[pyo3(signature = (path, *, opt, backend, include, cache_dir, also=Vec::new(), overlay=HashMap::new(),
                    bounds_checks=None, fast_math=false, debug=false, on_miss=None))]
#[allow(clippy::too_many_arguments)]
fn compile<'py>(
    py: Python<'py>,
    path: PathBuf,
    opt: u8,
    backend: String,
    include: Vec<PathBuf>,
    cache_dir: PathBuf,
    also: Vec<PathBuf>,
    overlay: HashMap<PathBuf, String>,
    bounds_checks: Option<bool>,
    fast_math: bool,
    debug: bool,
    on_miss: Option<Py<PyAny>>,
) -> PyResult<(String, bool, Bound<'py, PyList>, Vec<(&'static str, f64)>)> {
    let backend_name = backend.clone();
    let options = options(opt, backend, include, cache_dir, also, overlay, bounds_checks, fast_math, debug);
    // Told only on a miss, so that a cache hit costs no call into Python.
    let miss = || {
        if let Some(f) = &on_miss {
            Python::attach(|py| {
                if let Err(e) = f.call0(py) {
                    e.write_unraisable(py, None);
                }
            });
        }
    };
    let built = py.detach(|| builder::build(&path, &options, &miss)).map_err(raise)?;
    let lib = open(&built.library).map_err(PyOSError::new_err)?;
    let runtime = runtime_of(lib);
    register_threads(lib);
    if let Ok(address) = symbol(lib, "postc_rt_set_print_handler") {
        // SAFETY: the runtime's entry point, in a library never unloaded.
        unsafe { postc_pyabi::printing::install(address) };
    }
    let library = built.library.display().to_string();
    let out = PyList::empty(py);
    for spec in built.exports.functions {
        if spec.kernel {
            // A kernel takes a launch configuration the package does not
            // build yet.
            continue;
        }
        let code = symbol(lib, &postc_codegen::abi::export_symbol(&spec.name)).map_err(PyOSError::new_err)?;
        let name = spec.name.clone();
        // SAFETY: the function's symbol in a library that is never unloaded.
        let f = unsafe { call::Function::new(py, spec, code, runtime, library.clone(), None) }?;
        out.append((name, f))?;
    }
    for spec in built.exports.ufuncs {
        let loop_name = postc_codegen::abi::loop_symbol(&postc_codegen::abi::export_symbol(&spec.name));
        let loop_fn = symbol(lib, &loop_name).map_err(|_| {
            CompileError::new_err(format!(
                "ufunc `{}`: the {backend_name} backend does not make its NumPy loop `{loop_name}` (the llvm backend does)",
                spec.name
            ))
        })?;
        // SAFETY: `NAME_loop` of a library that is never unloaded.
        let u = unsafe { ufunc::make_from_spec(py, &spec, loop_fn, runtime) }?;
        out.append((spec.name.clone(), u))?;
    }
    Ok((library, built.cached, out, built.timings))
}

/// The text `Function.inspect` shows: `what` is `pir` (the IR after the
/// level's passes), `llvm-ir` or `asm`, of the module `compile` would build
/// from the same arguments.
#[pyfunction]
#[pyo3(signature = (path, what, *, opt, backend, include, cache_dir, also=Vec::new(), overlay=HashMap::new(),
                    bounds_checks=None, fast_math=false, debug=false))]
#[allow(clippy::too_many_arguments)]
fn listing(
    py: Python<'_>,
    path: PathBuf,
    what: &str,
    opt: u8,
    backend: String,
    include: Vec<PathBuf>,
    cache_dir: PathBuf,
    also: Vec<PathBuf>,
    overlay: HashMap<PathBuf, String>,
    bounds_checks: Option<bool>,
    fast_math: bool,
    debug: bool,
) -> PyResult<String> {
    let kind = match what {
        "pir" => builder::Listing::Pir,
        "llvm-ir" => builder::Listing::LlvmIr,
        "asm" => builder::Listing::Asm,
        _ => return Err(PyValueError::new_err(format!("inspect: unknown listing {what:?} (pir, llvm-ir, asm)"))),
    };
    let options = options(opt, backend, include, cache_dir, also, overlay, bounds_checks, fast_math, debug);
    py.detach(|| builder::listing(&path, &options, kind)).map_err(raise)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(listing, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(merge::merge_ufuncs, m)?)?;
    m.add_function(wrap_pyfunction!(merge::parallel_ufunc, m)?)?;
    m.add_function(wrap_pyfunction!(cli::run_cli, m)?)?;
    m.add_class::<call::Function>()?;
    m.add_class::<dispatch::Dispatcher>()?;
    Ok(())
}
