//! The module object of an extension module made ahead of time
//! (`postc-driver compile --emit pyext`, docs/aot.md). The extension's
//! generated `PyInit_NAME` passes [`postc_pyext_init`] a [`ModuleTable`]:
//! the module's name, its exports encoded by `postc_ir::exports`, the
//! address of each export's code and the runtime entry points linked into
//! it. Each function becomes the package's own [`Function`] and each ufunc
//! the package's NumPy ufunc ([`ufunc::make_from_spec`]), so arguments are
//! checked and converted, panics raised and ufunc loops guarded by the
//! same code as in the `postc` package. The module also has the package's
//! `set_num_threads` and `get_num_threads`, acting on the thread pool of
//! the runtime linked into the extension (each extension has its own, as
//! each library the package loads has). What the package does around them
//! is not here: there is no compiler, cache, `@jit` or pickling by recipe;
//! an export pickles as its module and name instead.

use crate::call::Function;
use crate::guard::Runtime;
use crate::ufunc;
use postc_ir::exports::Exports;
use pyo3::exceptions::{PyImportError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyCFunction, PyDict, PyInt, PyModule, PyTuple};
use std::ffi::{c_char, CStr};

/// What `PyInit_NAME` passes (the layout the generated code writes:
/// pointers and 64-bit lengths, in this order).
#[repr(C)]
pub struct ModuleTable {
    /// The module's name, NUL-terminated.
    pub name: *const c_char,
    /// The module's docstring, NUL-terminated, or NULL.
    pub doc: *const c_char,
    /// `Exports::encode`'s bytes.
    pub exports: *const u8,
    pub exports_len: u64,
    /// One address per export: each function's symbol, then each ufunc's
    /// `NAME_loop`, in the order of the exports.
    pub code: *const usize,
    pub code_len: u64,
    /// `postc_rt_set_panic_handler`, `postc_rt_arena_mark` and
    /// `postc_rt_arena_release` of the runtime linked into the extension.
    pub set_panic_handler: usize,
    pub arena_mark: usize,
    pub arena_release: usize,
    /// `void postc_rt_set_num_threads(int)` and `int
    /// postc_rt_get_num_threads(void)`: the thread count of the `prange`
    /// loops of the runtime linked into the extension.
    pub set_num_threads: usize,
    pub get_num_threads: usize,
    /// `postc_rt_set_print_handler`: where `print` in compiled code writes.
    pub set_print_handler: usize,
}

/// Builds the module `table` describes; a new reference, or NULL with a
/// Python exception set.
///
/// # Safety
/// Called with the GIL held, by the extension's `PyInit_NAME`, with a table
/// whose addresses are those its comments say, in a library that is never
/// unloaded (CPython does not unload extension modules).
#[no_mangle]
pub unsafe extern "C" fn postc_pyext_init(table: *const ModuleTable) -> *mut ffi::PyObject {
    crate::call::to_python(Python::assume_attached(), || module(Python::assume_attached(), &*table))
}

unsafe fn module<'py>(py: Python<'py>, t: &ModuleTable) -> PyResult<Bound<'py, PyModule>> {
    let name = CStr::from_ptr(t.name).to_string_lossy().into_owned();
    let version = py.version_info();
    let running = format!("{}.{}", version.major, version.minor);
    // A module for the stable ABI serves the version it was built for and
    // every later one.
    let serves = if cfg!(feature = "abi3") {
        let built = crate::PYTHON_VERSION.split_once('.');
        built
            .and_then(|(major, minor)| Some((major.parse::<u8>().ok()?, minor.parse::<u8>().ok()?)))
            .is_some_and(|built| version >= built)
    } else {
        running == crate::PYTHON_VERSION
    };
    if !serves {
        let and_later = if cfg!(feature = "abi3") { " and later" } else { "" };
        return Err(PyImportError::new_err(format!(
            "extension module {name} was built for CPython {}{and_later} and cannot be imported by CPython \
             {running}: build it again with `postc-driver compile --emit pyext --python` naming this interpreter",
            crate::PYTHON_VERSION
        )));
    }
    let bytes = std::slice::from_raw_parts(t.exports, t.exports_len as usize);
    let code = std::slice::from_raw_parts(t.code, t.code_len as usize);
    let exports = Exports::decode(bytes)
        .filter(|e| e.functions.len() + e.ufuncs.len() == code.len())
        .ok_or_else(|| PyImportError::new_err(format!("extension module {name}: its table of exports is damaged")))?;
    let runtime = Runtime::from_addresses(t.set_panic_handler, Some(t.arena_mark), Some(t.arena_release));
    crate::printing::install(t.set_print_handler);
    let library = library_path(t).unwrap_or_else(|| name.clone());
    // CPython takes a module as an extension's only with a definition; this
    // one lives as long as the process, as the module does.
    let def = Box::leak(Box::new(ffi::PyModuleDef {
        m_base: ffi::PyModuleDef_HEAD_INIT,
        m_name: t.name,
        m_doc: t.doc,
        m_size: -1,
        m_methods: std::ptr::null_mut(),
        m_slots: std::ptr::null_mut(),
        m_traverse: None,
        m_clear: None,
        m_free: None,
    }));
    let m = Bound::from_owned_ptr_or_err(py, ffi::PyModule_Create(def))?.cast_into::<PyModule>()?;
    // SAFETY: the runtime's entry points of these signatures (the table's).
    let threads = unsafe { ThreadCount::from_addresses(t.set_num_threads, t.get_num_threads) };
    add_thread_functions(&m, threads)?;
    // The name the module is imported as: CPython gives a module of a
    // package its qualified name here (`pkg.kernels`), by which its exports
    // pickle.
    let qualified: String = m.name()?.extract()?;
    let mut addresses = code.iter().copied();
    for spec in exports.functions {
        let address = addresses.next().unwrap_or_default();
        let export = spec.name.clone();
        // SAFETY: the function's address in this extension (the table's).
        let f = Function::new(py, spec, address, Some(runtime), library.clone(), Some(qualified.clone()))?;
        m.add(export.as_str(), f)?;
    }
    for spec in exports.ufuncs {
        let address = addresses.next().unwrap_or_default();
        // SAFETY: the ufunc's `NAME_loop` in this extension.
        let u = ufunc::make_from_spec(py, &spec, address, Some(runtime))?;
        // NumPy pickles a ufunc as a global name, looked up in the module
        // its `__module__` names: this one.
        u.setattr("__module__", &qualified)?;
        m.add(spec.name.as_str(), u)?;
    }
    Ok(m)
}

/// The thread count of the `prange` loops of the runtime linked into one
/// extension.
#[derive(Clone, Copy)]
struct ThreadCount {
    set: unsafe extern "C" fn(i32),
    get: unsafe extern "C" fn() -> i32,
    /// What the runtime started with (`POSTC_NUM_THREADS`, at most 256,
    /// else the CPUs the process may run on), read before any setting: the
    /// most `set_num_threads` accepts, as in the package, which reads the
    /// same variable the same way.
    most: i32,
}

impl ThreadCount {
    /// # Safety
    /// `set` and `get` are the addresses of the runtime's
    /// `postc_rt_set_num_threads` and `postc_rt_get_num_threads`.
    unsafe fn from_addresses(set: usize, get: usize) -> ThreadCount {
        let set: unsafe extern "C" fn(i32) = std::mem::transmute(set);
        let get: unsafe extern "C" fn() -> i32 = std::mem::transmute(get);
        ThreadCount { set, get, most: get() }
    }
}

/// The package's `set_num_threads(n)` and `get_num_threads()` (their
/// checks and messages are `postc.set_num_threads`'), over `threads`. An
/// export of the same name, added later, takes the name's place.
fn add_thread_functions(m: &Bound<'_, PyModule>, threads: ThreadCount) -> PyResult<()> {
    let py = m.py();
    let set = PyCFunction::new_closure(
        py,
        Some(c"set_num_threads"),
        Some(
            c"set_num_threads(n)\n--\n\nRuns later `prange` loops of this module on `n` threads (1 to \
               `POSTC_NUM_THREADS`, else the CPUs the process may use). Results do not depend on it.",
        ),
        move |args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>| -> PyResult<()> {
            // One argument, `n`, by position or keyword, as the package's.
            let n = match (args.len(), kwargs.map_or(0, |k| k.len())) {
                (1, 0) => args.get_item(0)?,
                (0, 1) => kwargs
                    .and_then(|k| k.get_item("n").ok().flatten())
                    .ok_or_else(|| PyTypeError::new_err("set_num_threads() got an unexpected keyword argument"))?,
                _ => return Err(PyTypeError::new_err("set_num_threads() takes exactly one argument, `n`")),
            };
            let integer = n.py().import("numpy")?.getattr("integer")?;
            if n.is_instance_of::<PyBool>() || !(n.is_instance_of::<PyInt>() || n.is_instance(&integer)?) {
                return Err(PyTypeError::new_err("The number of threads specified must be an integer"));
            }
            // An integer too large for 64 bits is out of the range too.
            let n: Option<i64> = n.call_method0("__int__")?.extract().ok();
            match n.and_then(|n| i32::try_from(n).ok()).filter(|n| (1..=threads.most).contains(n)) {
                // SAFETY: the runtime's setter, which is atomic.
                Some(n) => unsafe { (threads.set)(n) },
                None => {
                    return Err(PyValueError::new_err(format!(
                        "The number of threads must be between 1 and {}",
                        threads.most
                    )))
                }
            }
            Ok(())
        },
    )?;
    let get = PyCFunction::new_closure(
        py,
        Some(c"get_num_threads"),
        Some(
            c"get_num_threads()\n--\n\nThe number of threads this module's `prange` loops run on: the last \
               `set_num_threads`, else `POSTC_NUM_THREADS`, else the CPU count.",
        ),
        move |args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>| -> PyResult<i32> {
            if !args.is_empty() || kwargs.is_some_and(|k| !k.is_empty()) {
                return Err(PyTypeError::new_err("get_num_threads() takes no arguments"));
            }
            // SAFETY: the runtime's getter.
            Ok(unsafe { (threads.get)() })
        },
    )?;
    m.add("set_num_threads", set)?;
    m.add("get_num_threads", get)
}

/// The file the extension was loaded from (what a function's `library`
/// says).
fn library_path(t: &ModuleTable) -> Option<String> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: `dladdr` fills `info` for an address of this library;
    // `dli_fname` is a NUL-terminated path owned by the loader, copied.
    unsafe {
        if libc::dladdr(t.code.cast(), &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        Some(CStr::from_ptr(info.dli_fname).to_string_lossy().into_owned())
    }
}
