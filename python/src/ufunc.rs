//! Ufuncs as NumPy ufunc objects: `NAME_loop` (NumPy's generalized-ufunc
//! inner loop, docs/abi.md §6.2) registered with
//! `PyUFunc_FromFuncAndDataAndSignature`, so NumPy does the broadcasting,
//! `out=`, casting and its own errors.

use crate::dlpack;
use crate::signature::UFuncSpec;
use numpy::npyffi::{PyUFuncGenericFunction, PY_UFUNC_API};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use std::ffi::{c_char, c_void, CString};

/// `PyUFunc_None`: no identity.
const PY_UFUNC_NONE: i32 = -1;

/// A NumPy ufunc calling `loop_fn`.
///
/// # Safety
/// `loop_fn` must be the ufunc's `NAME_loop` entry point, in a library that
/// stays loaded for the life of the process.
pub unsafe fn make<'py>(py: Python<'py>, spec: &UFuncSpec, loop_fn: *const c_void) -> PyResult<Bound<'py, PyAny>> {
    let types: Option<Vec<c_char>> = spec.dtypes.iter().map(|d| dlpack::npy_type(*d).map(|t| t as c_char)).collect();
    let Some(types) = types else {
        return Err(PyTypeError::new_err(format!(
            "ufunc {}: NumPy ufuncs cannot take Str or Bytes operands",
            spec.name
        )));
    };
    let text = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
    // NumPy keeps these pointers for the life of the ufunc object, which
    // may outlive any module object: they are never freed, as the library
    // they point into is never unloaded.
    let loop_fn: unsafe extern "C" fn(*mut *mut c_char, *mut isize, *mut isize, *mut c_void) =
        std::mem::transmute(loop_fn);
    let funcs: &'static mut [PyUFuncGenericFunction; 1] = Box::leak(Box::new([Some(loop_fn)]));
    let data: &'static mut [*mut c_void; 1] = Box::leak(Box::new([std::ptr::null_mut()]));
    let types: &'static mut [c_char] = Box::leak(types.into_boxed_slice());
    let name: &'static CString = Box::leak(Box::new(text(&spec.name)));
    let doc: &'static CString = Box::leak(Box::new(text(spec.doc.as_deref().unwrap_or(""))));
    let signature: *const c_char = match &spec.signature {
        Some(s) => Box::leak(Box::new(text(s))).as_ptr(),
        None => std::ptr::null(),
    };
    let obj = PY_UFUNC_API.PyUFunc_FromFuncAndDataAndSignature(
        py,
        funcs.as_mut_ptr(),
        data.as_mut_ptr(),
        types.as_mut_ptr(),
        1,
        spec.nin as i32,
        spec.nout as i32,
        PY_UFUNC_NONE,
        name.as_ptr(),
        doc.as_ptr(),
        0,
        signature,
    );
    Bound::from_owned_ptr_or_err(py, obj)
}
