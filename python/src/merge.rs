//! One `numpy.ufunc` with a loop per dtype signature, made from ufuncs of
//! one loop each (`@ufunc(["f8(f8,f8)", "f4(f4,f4)"])`: each signature is
//! compiled on its own, then their loops are put side by side). NumPy then
//! picks, as for its own ufuncs, the first loop the operands cast to
//! safely, in the order the signatures were given.

use numpy::npyffi::{objects::PyUFuncObject, PyUFuncGenericFunction, PY_UFUNC_API};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::ffi::{c_char, c_void, CStr, CString};

/// `PyUFunc_None`: no identity.
const PY_UFUNC_NONE: i32 = -1;

/// The ufunc whose loops are those of `parts`, in order. Every part must
/// have the same number of inputs and outputs and the same core signature.
#[pyfunction]
pub fn merge_ufuncs<'py>(
    py: Python<'py>,
    name: &str,
    doc: Option<&str>,
    parts: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let ufunc_type = py.import("numpy")?.getattr("ufunc")?;
    let mut funcs: Vec<PyUFuncGenericFunction> = Vec::new();
    let mut data: Vec<*mut c_void> = Vec::new();
    let mut types: Vec<c_char> = Vec::new();
    let mut shape: Option<(i32, i32, Option<CString>)> = None;
    for part in &parts {
        if !part.is_instance(&ufunc_type)? {
            return Err(PyTypeError::new_err("merge_ufuncs takes numpy.ufunc objects"));
        }
        // SAFETY: an instance of numpy.ufunc is a PyUFuncObject; its loop
        // tables hold `ntypes` entries and `types` `ntypes * nargs`.
        let u = unsafe { &*(part.as_ptr() as *const PyUFuncObject) };
        let core = (!u.core_signature.is_null()).then(|| unsafe { CStr::from_ptr(u.core_signature) }.to_owned());
        let this = (u.nin, u.nout, core);
        match &shape {
            None => shape = Some(this),
            Some(s) if *s == this => {}
            Some(_) => {
                return Err(PyValueError::new_err(format!(
                    "ufunc {name}: its signatures differ in operands or core dimensions"
                )))
            }
        }
        let n = usize::try_from(u.ntypes).unwrap_or(0);
        let nargs = usize::try_from(u.nargs).unwrap_or(0);
        for i in 0..n {
            unsafe {
                funcs.push(*u.functions.add(i));
                data.push(*u.data.add(i));
                types.extend(std::slice::from_raw_parts(u.types.add(i * nargs), nargs));
            }
        }
    }
    let Some((nin, nout, core)) = shape else {
        return Err(PyValueError::new_err(format!("ufunc {name}: no signatures")));
    };
    let text = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
    // NumPy keeps these tables for the life of the ufunc: they are never
    // freed, as the libraries the loops live in are never unloaded.
    let funcs: &'static mut [PyUFuncGenericFunction] = Box::leak(funcs.into_boxed_slice());
    let data: &'static mut [*mut c_void] = Box::leak(data.into_boxed_slice());
    let types: &'static mut [c_char] = Box::leak(types.into_boxed_slice());
    let cname: &'static CString = Box::leak(Box::new(text(name)));
    let cdoc: &'static CString = Box::leak(Box::new(text(doc.unwrap_or(""))));
    let core: *const c_char = match core {
        Some(c) => Box::leak(Box::new(c)).as_ptr(),
        None => std::ptr::null(),
    };
    // SAFETY: the tables are consistent (`funcs.len()` loops of `nin + nout`
    // types each) and live for ever.
    let merged = unsafe {
        let obj = PY_UFUNC_API.PyUFunc_FromFuncAndDataAndSignature(
            py,
            funcs.as_mut_ptr(),
            data.as_mut_ptr(),
            types.as_mut_ptr(),
            funcs.len() as i32,
            nin,
            nout,
            PY_UFUNC_NONE,
            cname.as_ptr(),
            cdoc.as_ptr(),
            0,
            core,
        );
        Bound::from_owned_ptr_or_err(py, obj)?
    };
    // The parts stay alive as long as the merged ufunc (NumPy releases
    // `obj` with the ufunc): a loop's data may belong to its part.
    let keep = PyTuple::new(py, &parts)?;
    // SAFETY: `merged` is a fresh PyUFuncObject whose `obj` is unset.
    unsafe {
        let u = &mut *(merged.as_ptr() as *mut PyUFuncObject);
        u.obj = keep.into_ptr();
    }
    Ok(merged)
}
