//! The module object of an extension module made ahead of time
//! (`postc-driver compile --emit pyext`, docs/aot.md). The extension's
//! generated `PyInit_NAME` passes [`postc_pyext_init`] a [`ModuleTable`]:
//! the module's name, its exports encoded by `postc_ir::exports`, the
//! address of each export's code and the runtime entry points linked into
//! it. Each function becomes the package's own [`Function`] and each ufunc
//! the package's NumPy ufunc ([`ufunc::make_from_spec`]), so arguments are
//! checked and converted, panics raised and ufunc loops guarded by the
//! same code as in the `postc` package. What the package does around them
//! is not here: there is no compiler, cache, `@jit` or pickling by recipe;
//! an export pickles as its module and name instead.

use crate::call::Function;
use crate::guard::Runtime;
use crate::ufunc;
use postc_ir::exports::Exports;
use pyo3::exceptions::PyImportError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyModule;
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
    let running = py.version_info();
    let running = format!("{}.{}", running.major, running.minor);
    if running != crate::PYTHON_VERSION {
        return Err(PyImportError::new_err(format!(
            "extension module {name} was built for CPython {} and cannot be imported by CPython {running}: \
             build it again with `postc-driver compile --emit pyext --python` naming this interpreter",
            crate::PYTHON_VERSION
        )));
    }
    let bytes = std::slice::from_raw_parts(t.exports, t.exports_len as usize);
    let code = std::slice::from_raw_parts(t.code, t.code_len as usize);
    let exports = Exports::decode(bytes)
        .filter(|e| e.functions.len() + e.ufuncs.len() == code.len())
        .ok_or_else(|| PyImportError::new_err(format!("extension module {name}: its table of exports is damaged")))?;
    let runtime = Runtime::from_addresses(t.set_panic_handler, Some(t.arena_mark), Some(t.arena_release));
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
